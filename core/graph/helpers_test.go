package graph_test

import (
	"path"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// mod returns a module node for file p.
func mod(p string) *graph.Node {
	return &graph.Node{ID: p, Kind: graph.Module, Name: path.Base(p), Path: p}
}

// def returns a class or function node "p::qual" spanning lines [start, end].
func def(k graph.Kind, p, qual string, start, end int) *graph.Node {
	return &graph.Node{ID: p + "::" + qual, Kind: k, Name: qual[strings.LastIndex(qual, ".")+1:], Qual: qual,
		Path: p, StartLine: start, EndLine: end}
}

func fn(p, qual string, start, end int) *graph.Node  { return def(graph.Func, p, qual, start, end) }
func cls(p, qual string, start, end int) *graph.Node { return def(graph.Class, p, qual, start, end) }

// call is a call edge with one call-site line (0 for none).
func call(from, to string, c graph.Confidence, line int) graph.EdgeSpec {
	return graph.EdgeSpec{From: from, To: to, Type: graph.Call, Confidence: c, Line: line}
}

// imp is an import edge.
func imp(from, to string, c graph.Confidence, line int, spec string) graph.EdgeSpec {
	return graph.EdgeSpec{From: from, To: to, Type: graph.Import, Confidence: c, Line: line, Spec: spec}
}

func contains(from, to string) graph.EdgeSpec {
	return graph.EdgeSpec{From: from, To: to, Type: graph.Contains}
}

// build adds the contains edges implied by the nodes (a definition's parent
// is the definition of its qualifier in the same file, else its module) and
// builds the graph.
func build(nodes []*graph.Node, edges ...graph.EdgeSpec) *graph.Graph {
	ids := map[string]bool{}
	for _, n := range nodes {
		ids[n.ID] = true
	}
	var all []graph.EdgeSpec
	for _, n := range nodes {
		if n.Kind == graph.Module {
			continue
		}
		parent := n.Path
		if i := strings.LastIndex(n.Qual, "."); i >= 0 {
			if p := n.Path + "::" + n.Qual[:i]; ids[p] {
				parent = p
			}
		}
		all = append(all, contains(parent, n.ID))
	}
	return graph.New(nodes, append(all, edges...))
}

// idx returns the index of node id, failing the test when it is missing.
func idx(t *testing.T, g *graph.Graph, id string) int {
	t.Helper()
	i, ok := g.Index(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	return i
}

// ids maps node indexes to ids.
func ids(g *graph.Graph, xs []int) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, g.Nodes[x].ID)
	}
	return out
}

// edgeStrings renders edges as "type from->to".
func edgeStrings(g *graph.Graph, xs []int) []string {
	out := []string{}
	for _, x := range xs {
		e := g.Edge(x)
		out = append(out, e.Type.String()+" "+g.Nodes[e.From].ID+"->"+g.Nodes[e.To].ID)
	}
	return out
}

func allEdges(g *graph.Graph) []int {
	out := make([]int, g.NumEdges())
	for i := range out {
		out[i] = i
	}
	return out
}
