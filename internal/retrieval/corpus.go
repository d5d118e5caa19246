package retrieval

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/search"
)

// Corpus is one indexed tree: ccd's search index and graph over it, and
// its text files for the baseline.
type Corpus struct {
	Name  string
	Root  string
	Index *search.Index
	Graph *graph.Graph
	Files []File
	Took  time.Duration // building the graph and the search index
	// Size is the search index's estimated memory before and after
	// Compact.
	Size, Compacted int64
	facts           map[string]*facts.File
}

// Filling starts a new search index over the corpus that fills in the
// background, as a daemon's does after it starts: every file is pending
// and a query indexes the ones it needs first.
func (c *Corpus) Filling() (*search.Index, error) {
	ix := search.NewWithOptions(search.Options{Root: c.Root, Parse: func(p string, content []byte) (string, []facts.Def, error) {
		if f := c.facts[p]; f != nil {
			return f.Lang, f.Defs, nil
		}
		return "", nil, nil
	}})
	paths := make([]string, len(c.Files))
	for i, f := range c.Files {
		paths[i] = f.Path
	}
	return ix, ix.Fill(paths)
}

// File is one text file of a corpus.
type File struct {
	Path    string // relative, slash-separated
	Content []byte
	// Lower is Content lower-cased, once, for the grep loop: lower-casing
	// every file for every question made garbage whose collection ran
	// into the next query's timing.
	Lower []byte
}

// Load indexes root as the daemon does: the graph and definitions from
// core/index, then every text file (code with its definitions, the rest
// as text) into a complete search index.
func Load(name, root string) (*Corpus, error) {
	t0 := time.Now()
	res, err := index.Build(root, config.Default())
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	byPath := map[string]*facts.File{}
	for _, f := range res.Files {
		byPath[f.Path] = f
	}
	c := &Corpus{Name: name, Root: root, Graph: res.Graph, facts: byPath}
	c.Index = search.NewWithOptions(search.Options{Root: root})
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == ".git" || n == "node_modules" || n == "__pycache__" || n == "site-packages") {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		content, err := os.ReadFile(p)
		if err != nil || binary(content) {
			return nil
		}
		var lang string
		var defs []facts.Def
		if f := byPath[rel]; f != nil {
			lang, defs = f.Lang, f.Defs
		}
		c.Index.Update(rel, content, lang, defs)
		c.Files = append(c.Files, File{Path: rel, Content: content, Lower: bytes.ToLower(content)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.Took = time.Since(t0)
	c.Size = c.Index.Status().IndexSizeBytes
	c.Index.Compact()
	c.Compacted = c.Index.Status().IndexSizeBytes
	return c, nil
}

// binary reports whether content looks binary (a NUL in its first 8 KB).
func binary(b []byte) bool {
	if len(b) > 8192 {
		b = b[:8192]
	}
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}
