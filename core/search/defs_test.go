package search

import "github.com/ccd-dev/ccd/core/facts"

// defsPy makes a single top-level function definition.
func defsPy(name string, start, end, lineA, lineB int) []facts.Def {
	return []facts.Def{{Name: name, Qual: name, Kind: facts.Func, Parent: -1, StartByte: start, EndByte: end, StartLine: lineA, EndLine: lineB}}
}
