package search

import (
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// FuzzUpdate: arbitrary content, with arbitrary definition spans, never
// panics, and every handle's span and lines lie inside the file.
func FuzzUpdate(f *testing.F) {
	f.Add("# A\n```\nx\n", "doc.md", 0, 3)
	f.Add("package p\n\nfunc A() {}\n", "p.go", 11, 22)
	f.Add("---\n---\nT\n===\n", "x.md", -5, 900)
	f.Add("\xff\xfe text", "t.txt", 2, 1)
	f.Fuzz(func(t *testing.T, content, p string, a, b int) {
		ix := New()
		defs := []facts.Def{{Name: "F", Qual: "F", Kind: facts.Func, Parent: -1, StartByte: a, EndByte: b}}
		if ix.Update(p, []byte(content), "go", defs) != nil {
			return
		}
		ix.mu.RLock()
		defer ix.mu.RUnlock()
		for _, f := range ix.files {
			for _, n := range f.docs {
				d := &ix.docs[n]
				if d.start < 0 || d.end > f.size || d.start > d.end || d.lineA > d.lineB+1 || d.lineB > f.lines {
					t.Fatalf("handle %s out of bounds: %d-%d lines %d-%d of %d bytes %d lines", d.typ, d.start, d.end, d.lineA, d.lineB, f.size, f.lines)
				}
			}
		}
		ix.QueryDSL(`(grep "f")`, nil)
	})
}
