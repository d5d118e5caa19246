package render

import (
	"path/filepath"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// fixtureGraph indexes testdata/graph/<name>.txtar, unpacked into a
// temporary directory.
func fixtureGraph(t testing.TB, name string) *graph.Graph {
	t.Helper()
	dir := testrepo.Unpack(t, filepath.Join("..", "..", "testdata", "graph", name+".txtar"))
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatalf("index %s: %v", name, err)
	}
	return res.Graph
}
