package graph

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// lookup maps node ids, paths, lower-cased names and owner classes to
// slots. A slot is a node's identity across a chain of spliced graphs: the
// tables are built once (base) and shared, ids added by later splices get
// new slots in a small overlay (extra), and each graph maps slots to its own
// node indexes (Graph.pos). Entries are never removed: a query checks that
// the node a slot maps to still has the key it was found under.
type lookup struct {
	base  *lookupTables
	extra *lookupTables // nil when no id was added since base
	slots int           // slots handed out
	// own: the tables were built for exactly this graph's nodes (slot ==
	// index, every entry current), so queries need no checks.
	own bool
}

type lookupTables struct {
	id    map[string]int
	path  map[string][]int
	name  map[string][]int
	owned map[int][]int // owner class slot → method slots
}

func newTables(size int) *lookupTables {
	return &lookupTables{id: make(map[string]int, size), path: map[string][]int{}, name: map[string][]int{},
		owned: map[int][]int{}}
}

// newLookup builds the tables of a graph whose slots are its node indexes.
// byID maps every id to its index; the tables take it over. An owner id
// that is not a node gets a slot of its own (beyond the nodes), so the
// methods naming it are found if a splice adds it.
func newLookup(nodes []*Node, byID map[string]int) *lookup {
	t := &lookupTables{id: byID, path: make(map[string][]int, len(nodes)/8+1),
		name: make(map[string][]int, len(nodes)/2+1), owned: map[int][]int{}}
	slots := len(nodes)
	for i, n := range nodes {
		if n.Owner != "" {
			o, ok := byID[n.Owner]
			if !ok {
				o = slots
				byID[n.Owner] = o
				slots++
			}
			t.owned[o] = append(t.owned[o], i)
		}
		t.path[n.Path] = append(t.path[n.Path], i)
		k := lowerName(n.Name)
		t.name[k] = append(t.name[k], i)
	}
	return &lookup{base: t, slots: slots, own: true}
}

// lowerName is strings.ToLower without an allocation for names that are
// already lower case.
func lowerName(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || ('A' <= c && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// slotOf returns the slot of an id.
func (l *lookup) slotOf(id string) (int, bool) {
	if s, ok := l.base.id[id]; ok {
		return s, true
	}
	if l.extra != nil {
		s, ok := l.extra.id[id]
		return s, ok
	}
	return 0, false
}

// at returns the node index of a slot, or -1.
func (g *Graph) at(s int) int {
	if g.pos == nil {
		if s < len(g.Nodes) {
			return s
		}
		return -1
	}
	if s < len(g.pos) {
		return int(g.pos[s])
	}
	return -1
}

func (g *Graph) slot(i int) int {
	if g.slots == nil {
		return i
	}
	return int(g.slots[i])
}

func (g *Graph) index(id string) (int, bool) {
	s, ok := g.look.slotOf(id)
	if !ok {
		return -1, false
	}
	i := g.at(s)
	if i < 0 || g.Nodes[i].ID != id {
		return -1, false
	}
	return i, true
}

// resolve maps the slots found under a key to this graph's node indexes,
// keeping those whose node still has the key, in index order.
func (g *Graph) resolve(base, extra []int, keep func(n *Node) bool) []int {
	if g.look.own {
		return base
	}
	out := make([]int, 0, len(base)+len(extra))
	for _, list := range [2][]int{base, extra} {
		for _, s := range list {
			if i := g.at(s); i >= 0 && keep(g.Nodes[i]) {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (g *Graph) inFile(p string) []int {
	var extra []int
	if g.look.extra != nil {
		extra = g.look.extra.path[p]
	}
	return g.resolve(g.look.base.path[p], extra, func(n *Node) bool { return n.Path == p })
}

// named returns the nodes whose lower-cased name is k.
func (g *Graph) named(k string) []int {
	var extra []int
	if g.look.extra != nil {
		extra = g.look.extra.name[k]
	}
	return g.resolve(g.look.base.name[k], extra, func(n *Node) bool { return lowerName(n.Name) == k })
}

// owned returns the methods whose Owner is class i.
func (g *Graph) owned(i int) []int {
	s := g.slot(i)
	var extra []int
	if g.look.extra != nil {
		extra = g.look.extra.owned[s]
	}
	id := g.Nodes[i].ID
	return g.resolve(g.look.base.owned[s], extra, func(n *Node) bool { return n.Owner == id })
}

// edgeRec is an edge spec resolved to node indexes, the unit New sorts.
type edgeRec struct {
	from, to int32
	typ      EdgeType
	conf     Confidence
	line     int32
	spec     int32 // index of the spec in its input, for Spec and as the final sort key
}

// specRec resolves edges[i]; ok is false for edges New drops.
func specRec(byID map[string]int, edges []EdgeSpec, i int) (edgeRec, bool) {
	e := &edges[i]
	from, ok1 := byID[e.From]
	to, ok2 := byID[e.To]
	if !ok1 || !ok2 || (from == to && e.Type != Call) {
		return edgeRec{}, false
	}
	return edgeRec{from: int32(from), to: int32(to), typ: e.Type, conf: e.Confidence, line: int32(e.Line),
		spec: int32(i)}, true
}

func cmpRec(a, b edgeRec) int {
	if c := cmp.Compare(a.from, b.from); c != 0 {
		return c
	}
	if c := cmp.Compare(a.typ, b.typ); c != 0 {
		return c
	}
	if c := cmp.Compare(a.to, b.to); c != 0 {
		return c
	}
	if c := cmp.Compare(a.line, b.line); c != 0 {
		return c
	}
	return cmp.Compare(a.spec, b.spec)
}

// mergeRecs sorts recs into canonical order and merges those joining the
// same nodes by the same type: the strongest confidence, every line once,
// the first spec in input order (specOf gives a record's). The edges are
// appended to out, their lines and specs written to w.
func mergeRecs(recs []edgeRec, specOf func(spec int32) string, out []edge, w *poolWriter) []edge {
	slices.SortFunc(recs, cmpRec)
	edges := 0
	for i := range recs {
		r := &recs[i]
		if i == 0 || r.from != recs[i-1].from || r.to != recs[i-1].to || r.typ != recs[i-1].typ {
			edges++
		}
	}
	out = slices.Grow(out, edges)
	var lines []int
	for i := 0; i < len(recs); {
		r := recs[i]
		e := edge{from: r.from, to: r.to, typ: r.typ, conf: r.conf}
		lines = lines[:0]
		spec := ""
		j := i
		for ; j < len(recs) && recs[j].from == r.from && recs[j].to == r.to && recs[j].typ == r.typ; j++ {
			x := &recs[j]
			if x.conf > e.conf {
				e.conf = x.conf
			}
			if x.line > 0 && (len(lines) == 0 || lines[len(lines)-1] != int(x.line)) {
				lines = append(lines, int(x.line))
			}
			if spec == "" {
				spec = specOf(x.spec)
			}
		}
		e.lines, e.spec = w.put(lines, spec)
		out = append(out, e)
		i = j
	}
	return out
}

// indexEdges builds the adjacency indexes of g's edges.
func (g *Graph) indexEdges() {
	n, m := len(g.Nodes), g.edges.n
	g.outOff = make([]int32, n+1)
	g.inOff = make([]int32, n+1)
	sorted := true
	prev := int32(-1)
	for _, ch := range g.edges.chunks {
		for i := range ch {
			e := &ch[i]
			g.outOff[e.from+1]++
			g.inOff[e.to+1]++
			if e.from < prev {
				sorted = false
			}
			prev = e.from
		}
	}
	for i := 1; i <= n; i++ {
		g.outOff[i] += g.outOff[i-1]
		g.inOff[i] += g.inOff[i-1]
	}
	g.inEdge = bucket(g.edges, g.inOff, func(e *edge) int32 { return e.to })
	g.outIota = sorted
	if sorted {
		g.outEdge = iotaSlice(m)
	} else {
		// Not in canonical order (FromParts of foreign input): Out still
		// lists each node's edges in index order.
		g.outEdge = bucket(g.edges, g.outOff, func(e *edge) int32 { return e.from })
	}
}

// bucket lists edge indexes grouped by key(edge), in index order within a
// group; off holds the groups' start offsets.
func bucket(edges edgeList, off []int32, key func(e *edge) int32) []int {
	out := make([]int, edges.n)
	next := make([]int32, len(off)-1)
	copy(next, off)
	i := 0
	for _, ch := range edges.chunks {
		for x := range ch {
			k := key(&ch[x])
			out[next[k]] = i
			next[k]++
			i++
		}
	}
	return out
}

var iotaCache struct {
	sync.Mutex
	s []int
}

// iotaSlice returns 0, 1, ... n-1 from a shared read-only slice.
func iotaSlice(n int) []int {
	iotaCache.Lock()
	defer iotaCache.Unlock()
	if len(iotaCache.s) < n {
		s := make([]int, n+n/4)
		for i := range s {
			s[i] = i
		}
		iotaCache.s = s
	}
	return iotaCache.s[:n:n]
}
