package graph

import (
	"fmt"
)

// Impact is the blast radius of one target: 1-hop callers and callees
// (aggregated as in an impact view), the transitive inbound slice up to a
// depth, and the tests that reach the target through its whole reverse
// call closure (not limited to the depth; see TestsOf).
type Impact struct {
	Target   int
	Callers  []Neighbor
	Callees  []Neighbor
	Upstream []Hit // transitive callers, nearest first
	Tests    []int
	// TestsComplete says the search for tests saw the whole closure;
	// Dispatch marks the tests found only through interface methods,
	// Value those found only through references (function values).
	TestsComplete bool
	Dispatch      map[int]bool
	Value         map[int]bool
	// Ran marks the tests a recording saw running the target; Unrun
	// counts the tests the graph reaches that the recording ran without
	// them running it (left out of Tests). Both are empty without a
	// recording that knows the target (Filter.Runs).
	Ran   map[int]bool
	Unrun int
	Depth int
}

// Impact computes the impact of node i. depth bounds the transitive slice
// (<= 0: unlimited).
func (g *Graph) Impact(i, depth int, f Filter) Impact {
	tr := g.TestsOf(i, f, 0)
	return Impact{
		Target:        i,
		Callers:       g.Neighbors(i, In, f),
		Callees:       g.Neighbors(i, Out, f),
		Upstream:      g.Slice(i, In, depth, f),
		Tests:         tr.Tests,
		TestsComplete: tr.Complete,
		Dispatch:      tr.Dispatch,
		Value:         tr.Value,
		Ran:           tr.Ran,
		Unrun:         tr.Unrun,
		Depth:         depth,
	}
}

// Files returns the distinct files of the transitive callers.
func (im Impact) Files(g *Graph) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range im.Upstream {
		p := g.Nodes[h.Node].Path
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Describe renders a node for people: "Cart.add (func) shop/models.py:39".
func (g *Graph) Describe(i int) string {
	n := g.Nodes[i]
	name := n.Qual
	if name == "" {
		name = n.Path
	}
	return fmt.Sprintf("%s (%s) %s", name, n.Kind, n.Loc())
}
