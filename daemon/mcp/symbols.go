package mcp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/report"
)

// maxSuggestions is how many similar symbols a not-found error lists.
const maxSuggestions = 5

// findSymbol resolves what the agent typed to node indexes, best first.
// prefer, when non-nil, picks among several matches the first it accepts.
// An unknown symbol is a toolError listing similar symbols.
func findSymbol(g *graph.Graph, q string, prefer func(int) bool) (int, []int, *toolError) {
	cands := g.Find(q)
	if len(cands) == 0 {
		return -1, nil, notFound(g, q)
	}
	best := 0
	if prefer != nil {
		for i, c := range cands {
			if prefer(c) {
				best = i
				break
			}
		}
	}
	pick := cands[best]
	others := append(append([]int(nil), cands[:best]...), cands[best+1:]...)
	return pick, others, nil
}

// notFound is the error for an unknown symbol, with suggestions from
// g.Similar.
func notFound(g *graph.Graph, q string) *toolError {
	var b strings.Builder
	fmt.Fprintf(&b, "Symbol not found: %q", q)
	sugg := g.Similar(q, maxSuggestions)
	if len(sugg) == 0 {
		return &toolError{msg: b.String(),
			hint: `check the spelling; use a function or class name, Class.method, a file path, or a node id such as path/to/file.py::Class.method. canvas(action="read") shows the board`}
	}
	b.WriteString("\nSimilar symbols:")
	for _, s := range sugg {
		n := g.Nodes[s.Node]
		fmt.Fprintf(&b, "\n  • %s (%s in %s)", report.Label(n), n.Kind, n.Loc())
	}
	return &toolError{msg: b.String(),
		hint: fmt.Sprintf("use one of the names above, e.g. symbol=%q (a node id such as %q is exact)",
			report.Label(g.Nodes[sugg[0].Node]), g.Nodes[sugg[0].Node].ID)}
}

// refOf is the board reference of node i.
func refOf(g *graph.Graph, i int) board.Ref { return report.BoardRef(g, i) }

// enclosing lists the ids of the nodes containing node i, nearest first:
// its owner class (a Go receiver type, a Rust impl target) if any, then
// its syntactic parents up to the module.
func enclosing(g *graph.Graph, i int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	add(g.Nodes[i].Owner)
	for p := g.Parent(i); p >= 0; p = g.Parent(p) {
		add(g.Nodes[p].ID)
		if len(out) > 32 {
			break
		}
	}
	return out
}

// hubs are the n functions and classes (not tests) with the most call
// edges, for suggesting impact targets.
func hubs(g *graph.Graph, n int) []int {
	var cands []int
	deg := map[int]int{}
	for i, nd := range g.Nodes {
		if nd.Kind == graph.Module || nd.Test {
			continue
		}
		if d := callDegree(g, i); d > 0 {
			cands = append(cands, i)
			deg[i] = d
		}
	}
	sort.Slice(cands, func(a, b int) bool {
		if deg[cands[a]] != deg[cands[b]] {
			return deg[cands[a]] > deg[cands[b]]
		}
		return g.Nodes[cands[a]].ID < g.Nodes[cands[b]].ID
	})
	if len(cands) > n {
		cands = cands[:n]
	}
	return cands
}

// callDegree counts the call edges at node i.
func callDegree(g *graph.Graph, i int) int {
	d := 0
	for _, ei := range g.In(i) {
		if g.Edge(ei).Type == graph.Call {
			d++
		}
	}
	for _, ei := range g.Out(i) {
		if g.Edge(ei).Type == graph.Call {
			d++
		}
	}
	return d
}
