// Package schemas embeds the declarative tree-sitter queries, one .scm file
// per fully supported language. The capture names they use are documented
// in README.md beside them.
package schemas

import (
	"embed"
	"strings"
)

//go:embed *.scm
var files embed.FS

// Get returns the query text of schemas/<name>.scm. A schema whose first
// line is `; inherits: a, b` is preceded by the texts of a and b (which may
// inherit in turn), so languages whose grammars share most node types share
// one file (ts-common.scm for TypeScript and TSX).
func Get(name string) (string, bool) {
	return get(name, 0)
}

func get(name string, depth int) (string, bool) {
	b, err := files.ReadFile(name + ".scm")
	if err != nil || depth > 4 {
		return "", false
	}
	text := string(b)
	first, _, _ := strings.Cut(text, "\n")
	parents, ok := strings.CutPrefix(strings.TrimSpace(first), "; inherits:")
	if !ok {
		return text, true
	}
	var out strings.Builder
	for _, p := range strings.Split(parents, ",") {
		pt, ok := get(strings.TrimSpace(p), depth+1)
		if !ok {
			return "", false
		}
		out.WriteString(pt)
		out.WriteString("\n")
	}
	out.WriteString(text)
	return out.String(), true
}
