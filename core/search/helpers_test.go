package search

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/search")

const testdataDir = "../../testdata/search"

// fixture is an unpacked workspace with its graph and search index.
type fixture struct {
	dir   string
	res   *index.Result
	ix    *Index
	facts map[string]*facts.File
}

// unpack writes a txtar archive's files into a new temporary directory.
func unpack(t testing.TB, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join(testdataDir, name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// build indexes dir with core/index and feeds every file to a new search
// index: code files with their definitions, other files as text.
func build(t testing.TB, dir string) *fixture {
	t.Helper()
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{dir: dir, res: res, facts: map[string]*facts.File{}}
	fx.ix = NewWithOptions(Options{Root: dir, Parse: fx.parse})
	for _, f := range res.Files {
		fx.facts[f.Path] = f
	}
	for _, p := range fx.allFiles(t) {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		lang, defs := "", []facts.Def(nil)
		if f := fx.facts[p]; f != nil {
			lang, defs = f.Lang, f.Defs
		}
		if err := fx.ix.Update(p, b, lang, defs); err != nil {
			t.Fatalf("update %s: %v", p, err)
		}
	}
	return fx
}

// allFiles lists the workspace's files, relative and sorted.
func (fx *fixture) allFiles(t testing.TB) []string {
	var out []string
	err := filepath.WalkDir(fx.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(fx.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// parse re-parses a file of the fixture through core/index (the
// Options.Parse hook the daemon provides in production).
func (fx *fixture) parse(p string, content []byte) (string, []facts.Def, error) {
	res, err := index.Build(fx.dir, config.Default())
	if err != nil {
		return "", nil, err
	}
	for _, f := range res.Files {
		if f.Path == p {
			return f.Lang, f.Defs, nil
		}
	}
	return "", nil, nil
}

// write replaces a file of the fixture on disk.
func (fx *fixture) write(t testing.TB, p, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(fx.dir, p), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reindexFile re-parses one file and updates the search index with it.
func (fx *fixture) reindexFile(t testing.TB, p string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fx.dir, p))
	if err != nil {
		t.Fatal(err)
	}
	lang, defs, err := fx.parse(p, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := fx.ix.Update(p, b, lang, defs); err != nil {
		t.Fatal(err)
	}
}

// handleFor returns the handle of a symbol (by qualified key) or fails.
func (fx *fixture) handleFor(t testing.TB, p, key string) Handle {
	t.Helper()
	fx.ix.mu.RLock()
	defer fx.ix.mu.RUnlock()
	f := fx.ix.files[p]
	if f == nil {
		t.Fatalf("%s is not indexed", p)
	}
	for _, n := range f.docs {
		if fx.ix.docs[n].key == key {
			return fx.ix.handle(n, fx.ix.newFileCache())
		}
	}
	t.Fatalf("no handle %q in %s", key, p)
	return Handle{}
}

// ids lists the (file, symbol-or-type) labels of handles, for compact
// assertions.
func labels(hs []Handle) []string {
	var out []string
	for _, h := range hs {
		l := h.Symbol
		if l == "" {
			l = h.NodeType
		}
		out = append(out, h.FilePath+"::"+l)
	}
	return out
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func hasPrefix(xs []string, p string) bool {
	for _, y := range xs {
		if strings.HasPrefix(y, p) {
			return true
		}
	}
	return false
}
