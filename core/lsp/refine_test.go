package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
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

// TestRefineLimits checks the request cap, progress reports, a cancelled
// context and refining a subset of the files.
func TestRefineLimits(t *testing.T) {
	dir, _ := extract(t, "../../testdata/lsp/python.txtar")
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(Options{})
	defer m.Close()
	_, err = m.Session("python", dir)
	needServer(t, err)

	t.Run("max requests", func(t *testing.T) {
		var last, total, calls int
		ref, err := Refine(context.Background(), m, dir, res.Graph, res.Files, RefineOptions{MaxRequests: 2,
			Progress: func(d, n int) { last, total = d, n; calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		st := ref.Stats
		if st.Asked != 2 || st.Skipped != st.Candidates-2 || st.Candidates < 4 {
			t.Errorf("stats %+v: want 2 asked and the rest skipped", st)
		}
		if calls == 0 || last != total || total != st.Candidates {
			t.Errorf("progress ended at %d/%d after %d calls; want %d/%d", last, total, calls, st.Candidates, st.Candidates)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		ref, err := Refine(ctx, m, dir, res.Graph, res.Files, RefineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ref.Edges) != 0 || ref.Stats.Asked != 0 || ref.Stats.Skipped != ref.Stats.Candidates {
			t.Errorf("a cancelled refinement did work: %+v", ref.Stats)
		}
	})
	t.Run("one file", func(t *testing.T) {
		var app []*facts.File
		for _, f := range res.Files {
			if f.Path == "app.py" {
				app = append(app, f)
			}
		}
		ref, err := Refine(context.Background(), m, dir, res.Graph, app, RefineOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ref.Edges) == 0 {
			t.Fatalf("no edges from app.py: %+v", ref.Stats)
		}
		for _, e := range ref.Edges {
			if !strings.HasPrefix(e.From, "app.py") {
				t.Errorf("edge from another file: %+v", e)
			}
		}
	})
	if st := m.Status(); len(st) != 1 || st[0].OpenDocs != 0 {
		t.Errorf("documents left open after refining: %+v", st)
	}
}
