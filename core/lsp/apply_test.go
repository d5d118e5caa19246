package lsp

import (
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

func TestApply(t *testing.T) {
	nodes := func() []*graph.Node {
		return []*graph.Node{
			{ID: "a.py", Kind: graph.Module, Path: "a.py"},
			{ID: "a.py::main", Kind: graph.Func, Name: "main", Path: "a.py", StartLine: 1, EndLine: 9},
			{ID: "b.py::f", Kind: graph.Func, Name: "f", Path: "b.py", StartLine: 1, EndLine: 2},
			{ID: "c.py::f", Kind: graph.Func, Name: "f", Path: "c.py", StartLine: 1, EndLine: 2},
			{ID: "d.py::g", Kind: graph.Func, Name: "g", Path: "d.py", StartLine: 1, EndLine: 2},
		}
	}
	specs := []graph.EdgeSpec{
		{From: "a.py", To: "a.py::main", Type: graph.Contains},
		{From: "a.py::main", To: "c.py::f", Type: graph.Call, Confidence: graph.NameMatch, Line: 3},
		{From: "a.py::main", To: "c.py::f", Type: graph.Call, Confidence: graph.NameMatch, Line: 7},
		{From: "a.py::main", To: "d.py::g", Type: graph.Call, Confidence: graph.Resolved, Line: 4},
	}
	g := graph.New(nodes(), specs)
	before := g.Text()
	ref := &Refinement{
		Edges: []graph.EdgeSpec{
			{From: "a.py::main", To: "b.py::f", Type: graph.Call, Confidence: graph.LSP, Line: 3},
			{From: "a.py::main", To: "d.py::g", Type: graph.Call, Confidence: graph.LSP, Line: 4},
		},
		// line 3 was really b.f; line 7 stays a name match
		Stale: []graph.EdgeSpec{{From: "a.py::main", To: "c.py::f", Type: graph.Call, Confidence: graph.NameMatch, Line: 3}},
	}
	after := Apply(g, ref)
	if g.Text() != before {
		t.Error("Apply changed the input graph")
	}
	want := map[string]struct {
		conf  graph.Confidence
		lines []int
	}{
		"b.py::f": {graph.LSP, []int{3}},
		"c.py::f": {graph.NameMatch, []int{7}},
		"d.py::g": {graph.LSP, []int{4}},
	}
	got := 0
	for _, e := range after.AllEdges() {
		if e.Type != graph.Call {
			continue
		}
		got++
		to := after.Nodes[e.To].ID
		w, ok := want[to]
		if !ok {
			t.Errorf("unexpected edge to %s", to)
			continue
		}
		if e.Confidence != w.conf || len(e.Lines) != len(w.lines) || e.Lines[0] != w.lines[0] {
			t.Errorf("edge to %s: %s %v, want %s %v", to, e.Confidence, e.Lines, w.conf, w.lines)
		}
	}
	if got != len(want) {
		t.Errorf("%d call edges, want %d", got, len(want))
	}
	if after.CountEdges(graph.Contains) != 1 {
		t.Error("contains edge lost")
	}
	if Apply(g, &Refinement{}) != g || Apply(g, nil) != g {
		t.Error("an empty refinement should return the graph itself")
	}
}

// TestReplace: entries whose caller is in the given files are replaced
// (a gone caller is placed by its id), the others kept, and Added and
// Upgraded recounted against the graph.
func TestReplace(t *testing.T) {
	g := graph.New([]*graph.Node{
		{ID: "a.py::main", Kind: graph.Func, Name: "main", Path: "a.py"},
		{ID: "b.py::f", Kind: graph.Func, Name: "f", Path: "b.py"},
		{ID: "c.py::g", Kind: graph.Func, Name: "g", Path: "c.py"},
	}, []graph.EdgeSpec{{From: "a.py::main", To: "b.py::f", Type: graph.Call, Confidence: graph.NameMatch, Line: 2}})
	call := func(from, to string, line int) graph.EdgeSpec {
		return graph.EdgeSpec{From: from, To: to, Type: graph.Call, Confidence: graph.LSP, Line: line}
	}
	ref := &Refinement{
		Edges: []graph.EdgeSpec{
			call("a.py::main", "b.py::f", 2), // kept: a.py unchanged (confirms an edge)
			call("c.py::g", "b.py::f", 5),    // dropped: c.py asked again
			call("c.py::gone", "b.py::f", 7), // dropped: caller gone, its id names c.py
			call("b.py::gone", "c.py::g", 3), // kept: caller gone, b.py not asked again
		},
		Stale: []graph.EdgeSpec{{From: "c.py::g", To: "a.py::main", Type: graph.Call, Line: 5}},
		Stats: Stats{Asked: 9},
	}
	add := &Refinement{Edges: []graph.EdgeSpec{call("c.py::g", "a.py::main", 6)}}
	got := ref.Replace(g, map[string]bool{"c.py": true}, add)
	var ids []string
	for _, e := range got.Edges {
		ids = append(ids, e.From+">"+e.To)
	}
	want := []string{"a.py::main>b.py::f", "b.py::gone>c.py::g", "c.py::g>a.py::main"}
	if strings.Join(ids, " ") != strings.Join(want, " ") || len(got.Stale) != 0 {
		t.Errorf("edges %v stale %v, want %v and none", ids, got.Stale, want)
	}
	if got.Stats.Upgraded != 1 || got.Stats.Added != 1 || got.Stats.Asked != 9 {
		t.Errorf("stats %+v: want 1 upgraded, 1 added (the gone caller counts as neither), other fields kept", got.Stats)
	}
	if len(ref.Edges) != 4 || len(ref.Stale) != 1 {
		t.Error("Replace changed its receiver")
	}
}
