package hooks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/words"
)

// A card is a few lines of context: a tagged head, body lines, and one
// concrete next step. fit keeps it under the size budget by dropping body
// lines from the end, never the head or the next step.
type card struct {
	head string
	body []string
	next string
}

func (c card) fit(max int) string {
	var b strings.Builder
	b.WriteString(c.head)
	tail := ""
	if c.next != "" {
		tail = "\nNext: " + c.next
	}
	for _, l := range c.body {
		if b.Len()+1+len(l)+len(tail) > max {
			break
		}
		b.WriteString("\n")
		b.WriteString(l)
	}
	if b.Len()+len(tail) <= max {
		b.WriteString(tail)
	}
	s := b.String()
	if len(s) > max {
		s = words.CutBytes(s, max)
	}
	return s
}

// thousands formats n with separators people read quickly: 18,201.
func thousands(n int) string { return report.Thousands(n) }

// label is how a card names a node: its qualified name, or its path.
func label(n *graph.Node) string {
	if n.Qual != "" {
		return n.Qual
	}
	return n.Path
}

// loc is "path:line".
func loc(p string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", p, line)
	}
	return p
}

// callerList renders neighbours as "path:line Label" items (every call
// site for callers, "path:3,9", the definition for callees), with a
// "+N more" tail.
func callerList(g *graph.Graph, nbs []graph.Neighbor, callers bool, max int) string {
	var items []string
	for i, nb := range nbs {
		if i == max {
			items = append(items, fmt.Sprintf("+%d more", len(nbs)-max))
			break
		}
		n := g.Nodes[nb.Node]
		where := loc(n.Path, n.StartLine)
		if callers && len(nb.Lines) > 0 {
			where = caller{Path: nb.Path, Line: nb.Lines[0], Lines: nb.Lines}.sites()
		}
		weak := ""
		if nb.Confidence <= graph.NameMatch {
			weak = "?"
		}
		items = append(items, where+" "+label(n)+weak)
	}
	return strings.Join(items, "; ")
}

// callerFiles counts the distinct files neighbours call from.
func callerFiles(nbs []graph.Neighbor) int {
	seen := map[string]bool{}
	for _, nb := range nbs {
		for _, s := range nb.Sites {
			seen[s.Path] = true
		}
	}
	return len(seen)
}

// testCommand is the command that runs tests (see report.TestCommand).
func testCommand(g *graph.Graph, tests []int) string { return report.TestCommand(g, tests) }

// testNames lists tests as "Label path:line".
func testNames(g *graph.Graph, tests []int, max int) string {
	var items []string
	for i, t := range tests {
		if i == max {
			items = append(items, fmt.Sprintf("+%d more", len(tests)-max))
			break
		}
		n := g.Nodes[t]
		items = append(items, label(n)+" "+loc(n.Path, n.StartLine))
	}
	return strings.Join(items, "; ")
}

// languages renders "go 380, python 32", biggest first.
func languages(langs map[string]int) string { return report.Languages(langs, 4) }

// hubs returns the modules with the most import and call links, best
// first.
func hubs(g *graph.Graph, max int) []string {
	type hub struct {
		path string
		n    int
	}
	deg := map[int]int{}
	for _, e := range g.AllEdges() {
		if e.Type == graph.Contains {
			continue
		}
		a, b := moduleOf(g, e.From), moduleOf(g, e.To)
		if a == b {
			continue
		}
		deg[a]++
		deg[b]++
	}
	var hs []hub
	for m, n := range deg {
		// Tests link to much of the code but are not where it lives.
		if nd := g.Nodes[m]; nd.Kind == graph.Module && !nd.Test && !graph.IsTestFile(nd.Path) {
			hs = append(hs, hub{nd.Path, n})
		}
	}
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].n != hs[j].n {
			return hs[i].n > hs[j].n
		}
		return hs[i].path < hs[j].path
	})
	var out []string
	for i := 0; i < len(hs) && i < max; i++ {
		out = append(out, fmt.Sprintf("%s (%d links)", hs[i].path, hs[i].n))
	}
	return out
}

// moduleOf returns the module node of node i's file (a module's id is its
// path).
func moduleOf(g *graph.Graph, i int) int {
	if m, ok := g.Index(g.Nodes[i].Path); ok {
		return m
	}
	return i
}

// overview is the one-line size of a workspace's graph.
func overview(g *graph.Graph, files int, langs map[string]int) string {
	return fmt.Sprintf("%s files (%s): %s functions, %s classes, %s call edges",
		thousands(files), languages(langs), thousands(g.Count(graph.Func)), thousands(g.Count(graph.Class)),
		thousands(g.CountEdges(graph.Call)))
}
