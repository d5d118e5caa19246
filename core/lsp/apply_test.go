package lsp

import (
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
