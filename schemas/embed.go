// Package schemas embeds the declarative tree-sitter queries, one .scm file
// per fully supported language. The capture names they use are documented
// in README.md beside them.
package schemas

import "embed"

//go:embed *.scm
var files embed.FS

// Get returns the query text of schemas/<name>.scm.
func Get(name string) (string, bool) {
	b, err := files.ReadFile(name + ".scm")
	if err != nil {
		return "", false
	}
	return string(b), true
}
