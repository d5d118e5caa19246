package render

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

// fixtureGraph indexes testdata/graph/<name>.txtar, unpacked into a
// temporary directory.
func fixtureGraph(t testing.TB, name string) *graph.Graph {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "graph", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "expect" || f.Name == "golden" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatalf("index %s: %v", name, err)
	}
	return res.Graph
}
