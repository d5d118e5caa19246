package graph

import (
	"maps"
	"slices"
	"sort"
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
		sp.merge()
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
	// oldTo maps old node indexes to new ones (-1: gone); nil when no
	// index moved.
	oldTo   []int32
	freshAt []int // new index of each fresh node
	isFresh []bool
	// runs are the kept old nodes in order, as maximal ranges of old
	// indexes that stay consecutive in the new order.
	runs []run

	out       edgeList
	w         *poolWriter // the new edges' lines and specs
	sameShape bool        // every edge keeps its index, source and target
}

// run is old nodes [from, to) at new indexes from+shift...
type run struct{ from, to, shift int }

// inPlace handles replaced nodes that keep their ids: same indexes.
func (sp *splicer) inPlace(gone []int) {
	sp.nodes = slices.Clone(sp.g.Nodes)
	sp.freshAt = gone
	sp.isFresh = make([]bool, len(sp.nodes))
	for k, i := range gone {
		sp.nodes[i] = sp.fresh[k]
		sp.isFresh[i] = true
	}
	prev := 0
	for _, i := range append(gone, len(sp.nodes)) {
		if i > prev {
			sp.runs = append(sp.runs, run{prev, i, 0})
		}
		prev = i + 1
	}
}

// merge interleaves the kept old nodes with the fresh ones by id.
func (sp *splicer) merge() {
	old := sp.g.Nodes
	isGone := make([]bool, len(old))
	for _, j := range sp.gone {
		isGone[j] = true
	}
	// Where each fresh node goes among the old ones.
	before := make([]int, len(sp.fresh))
	for k, n := range sp.fresh {
		before[k] = sort.Search(len(old), func(j int) bool { return old[j].ID > n.ID })
	}
	n := len(old) - len(sp.gone) + len(sp.fresh)
	sp.nodes = make([]*Node, 0, n)
	sp.oldTo = make([]int32, len(old))
	sp.freshAt = make([]int, len(sp.fresh))
	sp.isFresh = make([]bool, n)
	k := 0
	for j := 0; j <= len(old); {
		for k < len(sp.fresh) && before[k] == j {
			sp.freshAt[k] = len(sp.nodes)
			sp.isFresh[len(sp.nodes)] = true
			sp.nodes = append(sp.nodes, sp.fresh[k])
			k++
		}
		if j == len(old) {
			break
		}
		if isGone[j] {
			sp.oldTo[j] = -1
			j++
			continue
		}
		// A run of kept nodes up to the next gone node or fresh insertion.
		end := j + 1
		for end < len(old) && !isGone[end] && (k >= len(sp.fresh) || before[k] != end) {
			end++
		}
		shift := len(sp.nodes) - j
		sp.runs = append(sp.runs, run{j, end, shift})
		sp.nodes = append(sp.nodes, old[j:end]...)
		for x := j; x < end; x++ {
			sp.oldTo[x] = int32(x + shift)
		}
		j = end
	}
	// A replaced node whose id lives on maps to its successor.
	at := make(map[string]int, len(sp.fresh))
	for k, i := range sp.freshAt {
		at[sp.fresh[k].ID] = i
	}
	for _, j := range sp.gone {
		if i, ok := at[old[j].ID]; ok {
			sp.oldTo[j] = int32(i)
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
	sp.w = g.extend()
	merged := mergeRecs(recs, func(i int32) string { return specs[i].Spec }, nil, sp.w)
	if sp.oldTo == nil && sp.patch(merged) {
		return
	}

	out := make([]edge, 0, max(0, g.edges.n+len(merged)-sp.goneEdges(sp.gone)))
	sorted := g.outIota
	m, r := 0, 0
	for i := 0; i < len(sp.nodes); {
		if sp.isFresh[i] {
			for ; m < len(merged) && int(merged[m].from) == i; m++ {
				out = append(out, merged[m])
			}
			i++
			continue
		}
		ru := sp.runs[r]
		r++
		out = sp.copyRun(out, ru, sorted)
		i += ru.to - ru.from
	}
	sp.out = chunked(out)
}

// patch handles new edges that join the same nodes as the old ones, at
// the same indexes (a body edit that moved lines or changed confidences):
// it copies only the chunks holding them, and the adjacency indexes stay.
func (sp *splicer) patch(merged []edge) bool {
	g := sp.g
	m := 0
	for _, i := range sp.freshAt {
		start := m
		for ; m < len(merged) && int(merged[m].from) == i; m++ {
		}
		if !sameTargets(g, i, merged[start:m]) {
			return false
		}
	}
	if m != len(merged) {
		return false
	}
	l := edgeList{n: g.edges.n, chunks: slices.Clone(g.edges.chunks)}
	copied := map[int]bool{}
	m = 0
	for _, i := range sp.freshAt {
		a, b := g.outOff[i], g.outOff[i+1]
		for _, ei := range g.outEdge[a:b] {
			c := ei >> chunkBits
			if !copied[c] {
				l.chunks[c] = slices.Clone(l.chunks[c])
				copied[c] = true
			}
			l.chunks[c][ei&(chunkLen-1)] = merged[m]
			m++
		}
	}
	sp.out, sp.sameShape = l, true
	return true
}

// copyRun appends the old edges of a run of kept nodes, with their ends
// moved to the new indexes (dropping edges whose target is gone).
func (sp *splicer) copyRun(out []edge, ru run, sorted bool) []edge {
	g := sp.g
	a, b := int(g.outOff[ru.from]), int(g.outOff[ru.to])
	if sp.oldTo == nil && sorted {
		return g.edges.appendRange(out, a, b)
	}
	shift := int32(ru.shift)
	for x := a; x < b; x++ {
		ei := x
		if !sorted {
			ei = g.outEdge[x]
		}
		e := *g.edges.at(ei)
		if sp.oldTo != nil {
			to := sp.oldTo[e.to]
			if to < 0 {
				continue // its target is gone
			}
			e.from += shift
			e.to = to
		}
		out = append(out, e)
	}
	return out
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
func sameTargets(g *Graph, i int, es []edge) bool {
	a, b := g.outOff[i], g.outOff[i+1]
	if int(b-a) != len(es) {
		return false
	}
	for k, ei := range g.outEdge[a:b] {
		if e := g.edges.at(ei); e.to != es[k].to || e.typ != es[k].typ {
			return false
		}
	}
	return true
}

func (sp *splicer) finish() *Graph {
	g := sp.g
	ng := &Graph{Nodes: sp.nodes, edges: sp.out}
	sp.w.finish(ng)
	ng.compact()
	if sp.sameShape {
		ng.outOff, ng.inOff, ng.inEdge, ng.outEdge, ng.outIota = g.outOff, g.inOff, g.inEdge, g.outEdge, g.outIota
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
	oldOf := make([]int, len(ng.Nodes))
	for _, ru := range sp.runs {
		for j := ru.from; j < ru.to; j++ {
			oldOf[j+ru.shift] = j
		}
	}
	k := 0
	for i := range ng.Nodes {
		var s int
		if sp.isFresh[i] {
			s = slotOf[k]
			k++
		} else {
			s = g.slot(oldOf[i])
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
