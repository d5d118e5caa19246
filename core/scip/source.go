package scip

import (
	"os"
	"path/filepath"

	"github.com/ccd-dev/ccd/core/lsp"
)

// sources reads workspace files once each, as lines.
type sources struct {
	root  string
	texts map[string][][]byte
}

func newSources(root string) *sources {
	return &sources{root: root, texts: map[string][][]byte{}}
}

// lines returns a file's lines (slash path relative to the root), nil
// when it cannot be read.
func (s *sources) lines(rel string) [][]byte {
	ls, ok := s.texts[rel]
	if !ok {
		if b, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel))); err == nil {
			ls = lsp.SplitLines(b)
		}
		s.texts[rel] = ls
	}
	return ls
}
