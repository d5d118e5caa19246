package graph

import "github.com/ccd-dev/ccd/core/facts"

// Anonymous functions (JavaScript/TypeScript callbacks, arrow functions,
// IIFEs) are nodes of their own, named fn@N (facts.AnonName): calls in their bodies
// are theirs, and value flow reaches them. People think of them as part
// of the function that defines them, so the views aggregate them there:
// a traversal to what a function calls starts from its anonymous
// functions too (seedsDir), and callers, callees and slices name the enclosing named
// function (or module) instead of the anonymous one (Named).

// Anonymous reports whether n is an anonymous function.
func (n *Node) Anonymous() bool {
	return n.Kind == Func && facts.IsAnonName(n.Name)
}

// Named returns node i, or for an anonymous function the nearest
// enclosing node that is not one (a named function, a class or the
// module).
func (g *Graph) Named(i int) int {
	for g.Nodes[i].Anonymous() {
		p := g.Parent(i)
		if p < 0 {
			break
		}
		i = p
	}
	return i
}

// seedsDir is Seeds for a traversal in direction dir: what a function
// calls includes what its anonymous functions call (they are its
// behaviour); who calls it does not include who calls them (a callback
// handed to retry() is called by retry, which does not call the function).
func (g *Graph) seedsDir(i int, dir Direction) []int {
	seeds := g.Seeds(i)
	if dir == Out && g.Nodes[i].Kind == Func {
		seeds = append(seeds, g.closures(i)...)
	}
	return seeds
}

// closures returns the anonymous functions defined in function i,
// transitively through anonymous ones (not those of named functions
// nested in it).
func (g *Graph) closures(i int) []int {
	var out []int
	stack := []int{i}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range g.Children(n) {
			if g.Nodes[c].Anonymous() {
				out = append(out, c)
				stack = append(stack, c)
			}
		}
	}
	return out
}

// namedHits maps the anonymous functions among a slice's hits (and the
// nodes they were reached from) to their enclosing named nodes, keeping
// the first hit of each and none of the seeds.
func (g *Graph) namedHits(hits []Hit, seeds []int) []Hit {
	anon := false
	for _, h := range hits {
		if g.Nodes[h.Node].Anonymous() || g.Nodes[h.Via].Anonymous() {
			anon = true
			break
		}
	}
	if !anon {
		return hits
	}
	seen := make(map[int]bool, len(seeds)+len(hits))
	for _, s := range seeds {
		seen[g.Named(s)] = true
	}
	out := hits[:0]
	for _, h := range hits {
		h.Node, h.Via = g.Named(h.Node), g.Named(h.Via)
		if seen[h.Node] {
			continue
		}
		seen[h.Node] = true
		out = append(out, h)
	}
	return out
}
