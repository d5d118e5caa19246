package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

// TestRefineFixtures indexes each fixture of testdata/lsp with the
// tree-sitter pipeline, refines the graph with the real language server
// and checks the fixture's expectations: edges the resolver misses (or
// leaves weak) that the server adds with confidence lsp.
func TestRefineFixtures(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/lsp/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	langs := map[string]string{"go": "go", "python": "python", "typescript": "typescript"}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			lang, ok := langs[name]
			if !ok {
				t.Fatalf("fixture %s: no language for it", name)
			}
			dir, ar := extract(t, p)
			exp := parseExpect(t, section(ar, "expect"))
			res, err := index.Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			m := NewManager(Options{})
			defer m.Close()
			_, err = m.Session(lang, dir)
			needServer(t, err)
			ref, err := Refine(context.Background(), m, dir, res.Graph, res.Files, RefineOptions{Budget: 2 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("stats: %+v", ref.Stats)

			for _, e := range ref.Edges {
				t.Logf("edge %s -> %s L%d", e.From, e.To, e.Line)
			}
			for _, e := range ref.Stale {
				t.Logf("stale %s -> %s L%d (%s)", e.From, e.To, e.Line, e.Confidence)
			}
			if ref.Stats.Servers[lang] == "" || ref.Stats.Answered == 0 {
				t.Fatalf("the %s server answered nothing: %+v", lang, ref.Stats)
			}
			after := Apply(res.Graph, ref)
			check(t, res.Graph, after, exp)
			for _, e := range ref.Edges {
				if e.Confidence != graph.LSP || e.Type != graph.Call {
					t.Errorf("refinement edge %+v is not an lsp call edge", e)
				}
			}
		})
	}
}
