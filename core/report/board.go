package report

import (
	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
)

// BoardImpact is what an impact analysis puts on the evidence board: the
// target, its figures and its direct callers (the nodes to address). The
// MCP tool and the CLI (through the daemon) record impacts alike, so the
// board's focus follows whichever asked last.
func BoardImpact(g *graph.Graph, im graph.Impact, r *Impact, generation uint64) board.ImpactSpec {
	affected := make([]board.Ref, 0, len(im.Callers))
	for _, nb := range im.Callers {
		affected = append(affected, BoardRef(g, nb.Node))
	}
	metrics := map[string]int{"callers": len(im.Callers), "callees": len(im.Callees), "blast_radius": len(im.Upstream),
		"blast_files": len(r.Files), "tests": len(im.Tests), "depth": im.Depth}
	return board.ImpactSpec{Target: BoardRef(g, im.Target), Metrics: metrics, Generation: generation, Affected: affected}
}

// BoardRef names node i on the board.
func BoardRef(g *graph.Graph, i int) board.Ref {
	n := g.Nodes[i]
	return board.Ref{ID: n.ID, Label: Label(n)}
}
