package graph_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// hitStrings renders hits as "id@depth".
func hitStrings(g *graph.Graph, hits []graph.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s@%d", g.Nodes[h.Node].ID, h.Depth))
	}
	return out
}

// chainGraph: a -> b -> c -> d -> b (cycle), a -> e, with decreasing
// confidence along the chain.
func chainGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("m.py"),
		fn("m.py", "a", 1, 5),
		fn("m.py", "b", 6, 10),
		fn("m.py", "c", 11, 15),
		fn("m.py", "d", 16, 20),
		fn("m.py", "e", 21, 25),
	},
		call("m.py::a", "m.py::b", graph.Resolved, 2),
		call("m.py::b", "m.py::c", graph.Inferred, 7),
		call("m.py::c", "m.py::d", graph.NameMatch, 12),
		call("m.py::d", "m.py::b", graph.Resolved, 17),
		call("m.py::a", "m.py::e", graph.LSP, 3),
	)
}

func TestSliceDepthAndCycles(t *testing.T) {
	g := chainGraph()
	tests := []struct {
		target string
		dir    graph.Direction
		depth  int
		f      graph.Filter
		want   []string
	}{
		{"m.py::a", graph.Out, 0, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2", "m.py::d@3"}},
		{"m.py::a", graph.Out, -1, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2", "m.py::d@3"}},
		{"m.py::a", graph.Out, 1, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1"}},
		{"m.py::a", graph.Out, 2, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2"}},
		{"m.py::a", graph.Out, 3, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2", "m.py::d@3"}},
		{"m.py::a", graph.Out, 10, graph.Filter{}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2", "m.py::d@3"}},
		// The cycle b -> c -> d -> b terminates and never reports the seed.
		{"m.py::b", graph.Out, 0, graph.Filter{}, []string{"m.py::c@1", "m.py::d@2"}},
		{"m.py::b", graph.In, 0, graph.Filter{}, []string{"m.py::a@1", "m.py::d@1", "m.py::c@2"}},
		{"m.py::d", graph.In, 0, graph.Filter{}, []string{"m.py::c@1", "m.py::b@2", "m.py::a@3"}},
		{"m.py::d", graph.In, 1, graph.Filter{}, []string{"m.py::c@1"}},
		{"m.py::e", graph.Out, 0, graph.Filter{}, []string{}},
		{"m.py::a", graph.In, 0, graph.Filter{}, []string{}},
		// MinConfidence drops weaker edges.
		{"m.py::a", graph.Out, 0, graph.Filter{MinConfidence: graph.Inferred}, []string{"m.py::b@1", "m.py::e@1", "m.py::c@2"}},
		{"m.py::a", graph.Out, 0, graph.Filter{MinConfidence: graph.Resolved}, []string{"m.py::b@1", "m.py::e@1"}},
		{"m.py::a", graph.Out, 0, graph.Filter{MinConfidence: graph.LSP}, []string{"m.py::e@1"}},
		{"m.py::d", graph.In, 0, graph.Filter{MinConfidence: graph.Inferred}, []string{}},
		{"m.py::b", graph.In, 0, graph.Filter{MinConfidence: graph.Resolved}, []string{"m.py::a@1", "m.py::d@1"}},
		// Contains edges are never followed: the module's only edges are
		// contains edges.
		{"m.py::a", graph.In, 0, graph.Filter{Imports: true}, []string{}},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s/dir%d/depth%d/%+v", tc.target, tc.dir, tc.depth, tc.f)
		t.Run(name, func(t *testing.T) {
			got := hitStrings(g, g.Slice(idx(t, g, tc.target), tc.dir, tc.depth, tc.f))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Slice = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSliceViaAndEdge(t *testing.T) {
	g := chainGraph()
	check := func(hits []graph.Hit, dir graph.Direction) {
		t.Helper()
		for _, h := range hits {
			e := g.Edge(h.Edge)
			near, far := e.From, e.To
			if dir == graph.In {
				near, far = e.To, e.From
			}
			if far != h.Node || near != h.Via || e.Type != graph.Call {
				t.Errorf("hit %s via %s uses edge %q", g.Nodes[h.Node].ID, g.Nodes[h.Via].ID, edgeStrings(g, []int{h.Edge}))
			}
		}
	}
	out := g.Slice(idx(t, g, "m.py::a"), graph.Out, 0, graph.Filter{})
	check(out, graph.Out)
	via := map[string]string{}
	for _, h := range out {
		via[g.Nodes[h.Node].ID] = g.Nodes[h.Via].ID
	}
	want := map[string]string{"m.py::b": "m.py::a", "m.py::e": "m.py::a", "m.py::c": "m.py::b", "m.py::d": "m.py::c"}
	if fmt.Sprint(via) != fmt.Sprint(want) {
		t.Errorf("via = %v, want %v", via, want)
	}
	in := g.Slice(idx(t, g, "m.py::d"), graph.In, 0, graph.Filter{})
	check(in, graph.In)
	if len(in) != 3 || g.Nodes[in[2].Via].ID != "m.py::b" {
		t.Errorf("In slice of d = %q, want a reached via b", hitStrings(g, in))
	}
}

func TestSliceRecursionAndTwoCycle(t *testing.T) {
	g := build([]*graph.Node{mod("r.py"), fn("r.py", "f", 1, 3), fn("r.py", "g", 4, 6)},
		call("r.py::f", "r.py::f", graph.Resolved, 2),
		call("r.py::f", "r.py::g", graph.Resolved, 2),
		call("r.py::g", "r.py::f", graph.Resolved, 5),
	)
	for _, dir := range []graph.Direction{graph.In, graph.Out} {
		got := hitStrings(g, g.Slice(idx(t, g, "r.py::f"), dir, 0, graph.Filter{}))
		if want := []string{"r.py::g@1"}; !slices.Equal(got, want) {
			t.Errorf("Slice(f, %d) = %q, want %q", dir, got, want)
		}
	}
}

// classGraph: class Svc with methods; callers in app.py, a callee in util.py.
func classGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("svc.py"),
		cls("svc.py", "Svc", 1, 30),
		fn("svc.py", "Svc.run", 2, 10),
		fn("svc.py", "Svc.helper", 12, 20),
		fn("svc.py", "free", 32, 40),
		mod("app.py"),
		fn("app.py", "main", 1, 9),
		fn("app.py", "build", 10, 19),
		fn("app.py", "entry", 20, 29),
		mod("util.py"),
		fn("util.py", "log", 1, 3),
		fn("util.py", "fmt", 4, 6),
	},
		call("app.py::main", "svc.py::Svc.run", graph.Resolved, 3),
		call("app.py::build", "svc.py::Svc", graph.Inferred, 11), // constructor
		call("app.py::entry", "app.py::main", graph.Resolved, 21),
		call("svc.py::Svc.run", "svc.py::Svc.helper", graph.Resolved, 4),
		call("svc.py::Svc.helper", "util.py::log", graph.Resolved, 13),
		call("util.py::log", "util.py::fmt", graph.Resolved, 2),
		call("svc.py::free", "svc.py::Svc.run", graph.Resolved, 33),
	)
}

func TestSliceClassAndModuleSeeds(t *testing.T) {
	g := classGraph()
	tests := []struct {
		target string
		dir    graph.Direction
		depth  int
		want   []string
	}{
		// Svc.run and Svc.helper are seeds, so never hits, though
		// Svc.run calls Svc.helper.
		{"svc.py::Svc", graph.In, 0, []string{"app.py::build@1", "app.py::main@1", "svc.py::free@1", "app.py::entry@2"}},
		{"svc.py::Svc", graph.In, 1, []string{"app.py::build@1", "app.py::main@1", "svc.py::free@1"}},
		{"svc.py::Svc", graph.Out, 0, []string{"util.py::log@1", "util.py::fmt@2"}},
		{"svc.py::Svc.helper", graph.In, 0, []string{"svc.py::Svc.run@1", "app.py::main@2", "svc.py::free@2", "app.py::entry@3"}},
		{"svc.py", graph.In, 0, []string{"app.py::build@1", "app.py::main@1", "app.py::entry@2"}},
		{"svc.py", graph.Out, 1, []string{"util.py::log@1"}},
		{"util.py", graph.In, 0, []string{"svc.py::Svc.helper@1", "svc.py::Svc.run@2", "app.py::main@3", "svc.py::free@3", "app.py::entry@4"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d/%d", tc.target, tc.dir, tc.depth), func(t *testing.T) {
			got := hitStrings(g, g.Slice(idx(t, g, tc.target), tc.dir, tc.depth, graph.Filter{}))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Slice = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSliceImports(t *testing.T) {
	g := build([]*graph.Node{
		mod("a.py"), fn("a.py", "f", 1, 5),
		mod("b.py"), fn("b.py", "g", 1, 5),
		mod("c.py"),
	},
		imp("a.py", "b.py", graph.Resolved, 1, "b"),
		imp("b.py", "c.py", graph.Inferred, 1, "c"),
		call("a.py::f", "b.py::g", graph.Resolved, 3),
	)
	tests := []struct {
		target string
		dir    graph.Direction
		f      graph.Filter
		want   []string
	}{
		{"a.py", graph.Out, graph.Filter{}, []string{"b.py::g@1"}},
		{"a.py", graph.Out, graph.Filter{Imports: true}, []string{"b.py@1", "b.py::g@1", "c.py@2"}},
		{"a.py", graph.Out, graph.Filter{Imports: true, MinConfidence: graph.Resolved}, []string{"b.py@1", "b.py::g@1"}},
		{"c.py", graph.In, graph.Filter{}, []string{}},
		{"c.py", graph.In, graph.Filter{Imports: true}, []string{"b.py@1", "a.py@2"}},
		// The import reaches b.py, whose function is not a seed of the
		// module hit, so a.py::f is not reached through containment.
		{"b.py", graph.In, graph.Filter{Imports: true}, []string{"a.py@1", "a.py::f@1"}},
		// Contains edges are not followed even with imports on: b.py
		// (g's parent) is not a caller of g.
		{"b.py::g", graph.In, graph.Filter{Imports: true}, []string{"a.py::f@1"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d/%+v", tc.target, tc.dir, tc.f), func(t *testing.T) {
			got := hitStrings(g, g.Slice(idx(t, g, tc.target), tc.dir, 0, tc.f))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Slice = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSliceOrderByDepthThenIndex(t *testing.T) {
	// Edges are discovered in an order unlike the id order: z first (depth
	// 1), then b and a through z (depth 2), then y directly (depth 1).
	g := build([]*graph.Node{
		mod("m.py"),
		fn("m.py", "s", 1, 2),
		fn("m.py", "z", 3, 4),
		fn("m.py", "y", 5, 6),
		fn("m.py", "b", 7, 8),
		fn("m.py", "a", 9, 10),
	},
		call("m.py::s", "m.py::z", graph.Resolved, 1),
		call("m.py::s", "m.py::y", graph.Resolved, 1),
		call("m.py::z", "m.py::b", graph.Resolved, 3),
		call("m.py::z", "m.py::a", graph.Resolved, 3),
	)
	got := hitStrings(g, g.Slice(idx(t, g, "m.py::s"), graph.Out, 0, graph.Filter{}))
	want := []string{"m.py::y@1", "m.py::z@1", "m.py::a@2", "m.py::b@2"}
	if !slices.Equal(got, want) {
		t.Errorf("Slice = %q, want %q", got, want)
	}
}
