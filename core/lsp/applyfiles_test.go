package lsp

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

// TestApplyFilesEqualsApply follows chains of random changes on the
// graphs of every fixture: a splice of some files (nodes dropped, renamed
// and added, edges dropped and added, files removed) under an unchanged
// refinement, and a re-refinement of some files' call sites. After each,
// the refined graph kept up by ApplyFiles must be Apply's from scratch.
func TestApplyFilesEqualsApply(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/graph/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, p := range paths {
		dir, _ := extract(t, p)
		res, err := index.Build(dir, config.Default())
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 4; seed++ {
			name := fmt.Sprintf("%s/seed%d", strings.TrimSuffix(filepath.Base(p), ".txtar"), seed)
			t.Run(name, func(t *testing.T) {
				rng := rand.New(rand.NewSource(seed))
				ts := res.Graph
				ref := randomRefinement(rng, ts, nil, nil)
				refined := Apply(ts, ref)
				for step := 0; step < 40; step++ {
					files := pickFiles(rng, ts)
					what := "splice"
					if rng.Intn(3) == 0 {
						what = "re-refine"
						ref = randomRefinement(rng, ts, ref, files)
					} else {
						ts = randomSplice(rng, ts, files)
					}
					refined = ApplyFiles(refined, ts, files, ref)
					if got, want := refined.Text(), Apply(ts, ref).Text(); got != want {
						t.Fatalf("step %d (%s of %v): ApplyFiles differs from Apply:\ngot:\n%s\nwant:\n%s", step, what, files, got, want)
					}
				}
			})
		}
	}
}

// pickFiles returns one to three of g's files.
func pickFiles(rng *rand.Rand, g *graph.Graph) []string {
	all := g.Files()
	var files []string
	for k := 1 + rng.Intn(3); k > 0 && len(all) > 0; k-- {
		files = append(files, all[rng.Intn(len(all))])
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// randomSplice changes the nodes of files in g and the edges leaving them
// as an edit and a resolver would: some nodes go, some get a new id, some
// are added; some edges go and new call edges appear; sometimes a file is
// removed.
func randomSplice(rng *rand.Rand, g *graph.Graph, files []string) *graph.Graph {
	var nodes []*graph.Node
	var specs []graph.EdgeSpec
	for _, p := range files {
		if rng.Intn(8) == 0 {
			continue // the file is deleted
		}
		renamed := map[string]string{}
		for _, i := range g.InFile(p) {
			n := *g.Nodes[i]
			switch r := rng.Intn(10); {
			case r == 0 && n.Kind != graph.Module:
				continue
			case r == 1 && n.Kind != graph.Module:
				// A rename, or a renamed node getting its old id back (a
				// node removed, then restored: edges into it from files
				// not spliced must come back too).
				id := n.ID + "X"
				if strings.HasSuffix(n.ID, "X") {
					id = strings.TrimSuffix(n.ID, "X")
				}
				renamed[n.ID] = id
				n.ID = id
			}
			nodes = append(nodes, &n)
			for _, k := range g.Out(i) {
				if rng.Intn(6) == 0 {
					continue
				}
				for _, s := range appendRefined(nil, g, k, nil) {
					if id, ok := renamed[s.From]; ok {
						s.From = id
					}
					specs = append(specs, s)
				}
			}
		}
		if len(nodes) > 0 && rng.Intn(2) == 0 {
			n := *nodes[len(nodes)-1]
			n.ID, n.Name, n.Kind = p+"::added", "added", graph.Func
			nodes = append(nodes, &n)
			specs = append(specs, randomCall(rng, g, n.ID, graph.Resolved))
		}
		if len(nodes) > 0 {
			specs = append(specs, randomCall(rng, g, nodes[rng.Intn(len(nodes))].ID, graph.NameMatch))
		}
	}
	return g.Splice(files, nodes, specs)
}

// randomCall is a call edge from id to a random node of g.
func randomCall(rng *rand.Rand, g *graph.Graph, from string, c graph.Confidence) graph.EdgeSpec {
	return graph.EdgeSpec{From: from, To: g.Nodes[rng.Intn(len(g.Nodes))].ID, Type: graph.Call, Confidence: c, Line: 1 + rng.Intn(40)}
}

// randomRefinement returns a refinement of g: stale call sites taken from
// g's call edges and new LSP call edges. With files set it is prev with
// the edges and stale sites leaving files redrawn, as refineChanged makes
// it.
func randomRefinement(rng *rand.Rand, g *graph.Graph, prev *Refinement, files []string) *Refinement {
	fresh := &Refinement{}
	for i := range g.NumEdges() {
		e := g.Edge(i)
		if e.Type != graph.Call || (prev != nil && !slices.Contains(files, g.Nodes[e.From].Path)) {
			continue
		}
		from := g.Nodes[e.From].ID
		for _, l := range e.Lines {
			switch rng.Intn(5) {
			case 0: // the server named another callee
				fresh.Stale = append(fresh.Stale, graph.EdgeSpec{From: from, To: g.Nodes[e.To].ID, Type: graph.Call, Confidence: e.Confidence, Line: l})
				fresh.Edges = append(fresh.Edges, randomCall(rng, g, from, graph.LSP))
				fresh.Edges[len(fresh.Edges)-1].Line = l
			case 1: // the server confirmed it
				fresh.Edges = append(fresh.Edges, graph.EdgeSpec{From: from, To: g.Nodes[e.To].ID, Type: graph.Call, Confidence: graph.LSP, Line: l})
			}
		}
	}
	if prev == nil {
		return fresh
	}
	in := map[string]bool{}
	for _, p := range files {
		in[p] = true
	}
	return prev.Replace(g, in, fresh)
}
