package graph

import (
	"maps"
	"slices"
	"strings"
)

// Splice returns the graph New would build from g's nodes and edges with
// the nodes of some files and the edges leaving them replaced: the result
// holds g's nodes outside files plus nodes, and g's edges leaving those
// nodes (less the ones whose target is gone) plus edges. Every node in
// nodes must have its Path in files, and edges that do not leave one of
// nodes are dropped; a file listed with no nodes is removed. Node ids must
// be unique, as the resolver makes them.
//
// g is not modified and stays valid: the new graph shares g's unchanged
// parts (node pointers, edge lines, lookup tables, and its adjacency
// indexes when no edge moved), so a splice costs a pass over the node and
// edge arrays rather than a sort and fresh indexes.
func (g *Graph) Splice(files []string, nodes []*Node, edges []EdgeSpec) *Graph {
	replaced := make(map[string]bool, len(files))
	for _, p := range files {
		replaced[p] = true
	}
	fresh := slices.Clone(nodes)
	slices.SortStableFunc(fresh, func(a, b *Node) int { return strings.Compare(a.ID, b.ID) })

	// The old nodes of the replaced files, in index order.
	var gone []int
	for _, p := range files {
		gone = append(gone, g.inFile(p)...)
	}
	slices.Sort(gone)
	gone = slices.Compact(gone)

	sp := &splicer{g: g, fresh: fresh, gone: gone}
	if sameIDs(g, gone, fresh) {
		sp.inPlace(gone)
	} else {
		sp.merge(replaced)
	}
	sp.edges(edges)
	return sp.finish()
}

// sameIDs reports whether the replaced nodes keep their ids (and so every
// node keeps its index).
func sameIDs(g *Graph, gone []int, fresh []*Node) bool {
	if len(gone) != len(fresh) {
		return false
	}
	for k, i := range gone {
		if g.Nodes[i].ID != fresh[k].ID {
			return false
		}
	}
	return true
}

type splicer struct {
	g     *Graph
	fresh []*Node
	gone  []int // old indexes of the replaced nodes

	nodes []*Node
	// fromOld maps a new node index to the old one it keeps (-1 for fresh
	// nodes); oldTo maps old indexes to new ones (-1: gone). Both are nil
	// when no index moved.
	fromOld, oldTo []int32
	freshAt        []int // new index of each fresh node
	isFresh        []bool

	out       []Edge
	sameShape bool // every edge keeps its index, source and target
}

// inPlace handles replaced nodes that keep their ids: same indexes.
func (sp *splicer) inPlace(gone []int) {
	sp.nodes = slices.Clone(sp.g.Nodes)
	sp.freshAt = gone
	sp.isFresh = make([]bool, len(sp.nodes))
	for k, i := range gone {
		sp.nodes[i] = sp.fresh[k]
		sp.isFresh[i] = true
	}
}

// merge interleaves the kept old nodes with the fresh ones by id.
func (sp *splicer) merge(replaced map[string]bool) {
	old := sp.g.Nodes
	n := len(old) + len(sp.fresh)
	sp.nodes = make([]*Node, 0, n)
	sp.fromOld = make([]int32, 0, n)
	sp.oldTo = make([]int32, len(old))
	sp.freshAt = make([]int, len(sp.fresh))
	k := 0
	for j, o := range old {
		if replaced[o.Path] {
			sp.oldTo[j] = -1
			continue
		}
		for k < len(sp.fresh) && sp.fresh[k].ID < o.ID {
			sp.freshAt[k] = len(sp.nodes)
			sp.nodes = append(sp.nodes, sp.fresh[k])
			sp.fromOld = append(sp.fromOld, -1)
			k++
		}
		sp.oldTo[j] = int32(len(sp.nodes))
		sp.nodes = append(sp.nodes, o)
		sp.fromOld = append(sp.fromOld, int32(j))
	}
	for ; k < len(sp.fresh); k++ {
		sp.freshAt[k] = len(sp.nodes)
		sp.nodes = append(sp.nodes, sp.fresh[k])
		sp.fromOld = append(sp.fromOld, -1)
	}
	sp.isFresh = make([]bool, len(sp.nodes))
	at := make(map[string]int, len(sp.fresh))
	for k, i := range sp.freshAt {
		sp.isFresh[i] = true
		at[sp.fresh[k].ID] = i
	}
	// A replaced node whose id lives on maps to its successor.
	for j, o := range old {
		if sp.oldTo[j] < 0 {
			if i, ok := at[o.ID]; ok {
				sp.oldTo[j] = int32(i)
			}
		}
	}
}

// newIndex maps an id to its index in the new graph.
func (sp *splicer) newIndex(freshIdx map[string]int, id string) (int, bool) {
	if i, ok := freshIdx[id]; ok {
		return i, true
	}
	j, ok := sp.g.index(id)
	if !ok {
		return -1, false
	}
	if sp.oldTo == nil {
		if sp.isFresh[j] {
			return -1, false // a replaced node that is gone
		}
		return j, true
	}
	i := int(sp.oldTo[j])
	return i, i >= 0
}

// edges assembles the new edge list: old edges of kept nodes, remapped,
// and the merged new edges of fresh nodes, in canonical order.
func (sp *splicer) edges(specs []EdgeSpec) {
	g := sp.g
	freshIdx := make(map[string]int, len(sp.fresh))
	for k, n := range sp.fresh {
		freshIdx[n.ID] = sp.freshAt[k]
	}
	recs := make([]edgeRec, 0, len(specs))
	for i := range specs {
		e := &specs[i]
		from, ok := freshIdx[e.From]
		if !ok {
			continue
		}
		to, ok := sp.newIndex(freshIdx, e.To)
		if !ok || (from == to && e.Type != Call) {
			continue
		}
		recs = append(recs, edgeRec{from: int32(from), to: int32(to), typ: e.Type, conf: e.Confidence,
			line: int32(e.Line), spec: int32(i)})
	}
	merged := mergeRecs(recs, specs, nil)

	sp.out = make([]Edge, 0, max(0, len(g.Edges)+len(merged)-sp.goneEdges(sp.gone)))
	sp.sameShape = sp.oldTo == nil
	m := 0
	for i := range sp.nodes {
		if sp.isFresh[i] {
			start := len(sp.out)
			for ; m < len(merged) && merged[m].From == i; m++ {
				sp.out = append(sp.out, merged[m])
			}
			if sp.sameShape {
				sp.sameShape = sameTargets(g, i, sp.out[start:])
			}
			continue
		}
		j := i
		if sp.fromOld != nil {
			j = int(sp.fromOld[i])
		}
		a, b := g.outOff[j], g.outOff[j+1]
		if sp.oldTo == nil {
			for _, ei := range g.outEdge[a:b] {
				sp.out = append(sp.out, g.Edges[ei])
			}
			continue
		}
		for _, ei := range g.outEdge[a:b] {
			e := g.Edges[ei]
			to := sp.oldTo[e.To]
			if to < 0 {
				continue
			}
			e.From, e.To = i, int(to)
			sp.out = append(sp.out, e)
		}
	}
}

// goneEdges counts the old edges leaving replaced nodes.
func (sp *splicer) goneEdges(replaced []int) int {
	n := 0
	for _, j := range replaced {
		n += int(sp.g.outOff[j+1] - sp.g.outOff[j])
	}
	return n
}

// sameTargets reports whether node i's new edges join the same targets in
// the same order as its old ones, at the same edge indexes.
func sameTargets(g *Graph, i int, es []Edge) bool {
	a, b := g.outOff[i], g.outOff[i+1]
	if int(b-a) != len(es) {
		return false
	}
	for k, ei := range g.outEdge[a:b] {
		if g.Edges[ei].To != es[k].To || g.Edges[ei].Type != es[k].Type {
			return false
		}
	}
	return true
}

func (sp *splicer) finish() *Graph {
	g := sp.g
	ng := &Graph{Nodes: sp.nodes, Edges: sp.out}
	if sp.sameShape && len(sp.out) == len(g.Edges) {
		ng.outOff, ng.inOff, ng.inEdge, ng.outEdge = g.outOff, g.inOff, g.inEdge, g.outEdge
	} else {
		ng.indexEdges()
	}
	sp.lookups(ng)
	return ng
}

// lookups gives ng its lookup tables: g's, with slots for new ids and
// entries for keys that changed, or fresh ones when the overlay has grown
// large.
func (sp *splicer) lookups(ng *Graph) {
	g := sp.g
	l := &lookup{base: g.look.base, extra: g.look.extra, slots: g.look.slots}
	var extra *lookupTables
	ensure := func() *lookupTables {
		if extra == nil {
			extra = newTables(0)
			if l.extra != nil {
				extra.id = maps.Clone(l.extra.id)
				extra.path = cloneLists(l.extra.path)
				extra.name = cloneLists(l.extra.name)
				extra.owned = cloneLists(l.extra.owned)
			}
			l.extra = extra
		}
		return extra
	}
	slotOf := make([]int, len(sp.fresh))
	used := map[int]bool{}
	for k, n := range sp.fresh {
		s, ok := l.slotOf(n.ID)
		if !ok || used[s] {
			s = l.slots
			l.slots++
			ensure().id[n.ID] = s
		}
		used[s] = true
		slotOf[k] = s
	}
	if extra != nil && len(extra.id) > max(compactAt, len(ng.Nodes)/8) {
		byID := make(map[string]int, len(ng.Nodes))
		for i, n := range ng.Nodes {
			byID[n.ID] = i
		}
		ng.look = newLookup(ng.Nodes, byID)
		return
	}
	// Keys under which a fresh node must be found.
	for k, n := range sp.fresh {
		s := slotOf[k]
		var prev *Node
		if i := g.at(s); i >= 0 {
			prev = g.Nodes[i]
		}
		if prev == nil || prev.Path != n.Path {
			t := ensure()
			t.path[n.Path] = append(t.path[n.Path], s)
		}
		if prev == nil || lowerName(prev.Name) != lowerName(n.Name) {
			t := ensure()
			key := lowerName(n.Name)
			t.name[key] = append(t.name[key], s)
		}
		if n.Owner != "" && (prev == nil || prev.Owner != n.Owner) {
			t := ensure()
			o, ok := l.slotOf(n.Owner)
			if !ok {
				// Not a node (yet): a slot to find the method by later.
				o = l.slots
				l.slots++
				t.id[n.Owner] = o
			}
			t.owned[o] = append(t.owned[o], s)
		}
	}
	ng.look = l
	if sp.oldTo == nil && l.slots == g.look.slots {
		ng.pos, ng.slots = g.pos, g.slots
		return
	}
	ng.pos = make([]int32, l.slots)
	for i := range ng.pos {
		ng.pos[i] = -1
	}
	ng.slots = make([]int32, len(ng.Nodes))
	k := 0
	for i := range ng.Nodes {
		var s int
		if sp.isFresh[i] {
			s = slotOf[k]
			k++
		} else {
			j := i
			if sp.fromOld != nil {
				j = int(sp.fromOld[i])
			}
			s = g.slot(j)
		}
		ng.pos[s] = int32(i)
		ng.slots[i] = int32(s)
	}
}

// compactAt is the number of ids added since the tables were built above
// which a splice builds fresh tables (a variable for tests).
var compactAt = 4096

func cloneLists[K comparable](m map[K][]int) map[K][]int {
	out := make(map[K][]int, len(m))
	for k, v := range m {
		out[k] = v[:len(v):len(v)]
	}
	return out
}
