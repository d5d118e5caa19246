// Package breakage measures the edit card's "will break" verdicts against
// the compilers and type checkers: it changes the signature of a real
// function in a real package (adds a required or an optional parameter,
// removes one, swaps two, renames a keyword, changes a Go function's
// result count), asks the language's checker which call sites no longer
// compile (go/types over every package of a Go module, tests included;
// pyright; tsc), and compares them with the call sites ccd's
// hooks.CheckSignatureChange says break (issue 16, item 5a).
//
// The checkers are slow, so their answer is cached: Refresh computes it
// and writes testdata/breakage/<corpus>.json (the mutations as byte edits,
// the call sites the checker rejects, the other errors it reports). Score
// is ccd's side and fast: it fetches the corpus again, indexes it
// in-process, applies each mutation on disk, updates the index and asks
// for the card's per-site verdicts. Markdown renders BREAKAGE.md. See
// README.md in this directory.
package breakage
