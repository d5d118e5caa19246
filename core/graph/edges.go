package graph

import (
	"iter"
	"sync"
)

// Edges are stored without pointers so that the garbage collector never
// scans them and a splice copies them with a plain memmove: a graph of a
// large tree holds hundreds of thousands of edges, and every update of the
// daemon derives a new graph. Lines and import specs live in pools that the
// graphs of one lineage share and extend (see pools).

// edge is the stored form of an Edge.
type edge struct {
	from, to int32
	typ      EdgeType
	conf     Confidence
	// lines is the offset of the edge's lines in the line pool: pool[lines]
	// is their count and they follow it. 0: no lines.
	lines uint32
	// spec is 1 + the index of the import spec in the spec pool; 0: none.
	spec uint32
}

// edgeList is the edges in fixed-size chunks: a splice that changes only
// some edges in place copies just their chunks and shares the others.
type edgeList struct {
	chunks [][]edge
	n      int
}

const (
	chunkBits = 12
	chunkLen  = 1 << chunkBits
)

// chunked cuts es into chunks that share its backing array.
func chunked(es []edge) edgeList {
	l := edgeList{n: len(es), chunks: make([][]edge, 0, (len(es)+chunkLen-1)/chunkLen)}
	for a := 0; a < len(es); a += chunkLen {
		b := min(a+chunkLen, len(es))
		l.chunks = append(l.chunks, es[a:b:b])
	}
	return l
}

// at returns edge i.
func (l *edgeList) at(i int) *edge { return &l.chunks[i>>chunkBits][i&(chunkLen-1)] }

// appendRange appends edges [a, b) to out.
func (l *edgeList) appendRange(out []edge, a, b int) []edge {
	for a < b {
		c := l.chunks[a>>chunkBits]
		k := a & (chunkLen - 1)
		n := min(len(c)-k, b-a)
		out = append(out, c[k:k+n]...)
		a += n
	}
	return out
}

// NumEdges returns the number of edges; edge indexes run from 0 to
// NumEdges()-1.
func (g *Graph) NumEdges() int { return g.edges.n }

// Edge returns edge i. Its Lines share the graph's storage: read only.
func (g *Graph) Edge(i int) Edge {
	e := g.edges.at(i)
	x := Edge{From: int(e.from), To: int(e.to), Type: e.typ, Confidence: e.conf}
	if e.lines != 0 {
		x.Lines = g.linesAt(e.lines)
	}
	if e.spec != 0 {
		x.Spec = g.specs[e.spec-1]
	}
	return x
}

// EdgeEnds returns the source, target and type of edge i: Edge without the
// lines and spec, for hot loops.
func (g *Graph) EdgeEnds(i int) (from, to int, t EdgeType) {
	e := g.edges.at(i)
	return int(e.from), int(e.to), e.typ
}

// AppendSpecs appends edge i to dst as the specs New merges into it: one
// per line, or one without a line for an edge that has none. New over a
// graph's nodes and every edge's specs rebuilds the graph.
func (g *Graph) AppendSpecs(dst []EdgeSpec, i int) []EdgeSpec {
	e := g.Edge(i)
	s := EdgeSpec{From: g.Nodes[e.From].ID, To: g.Nodes[e.To].ID, Type: e.Type, Confidence: e.Confidence, Spec: e.Spec}
	if len(e.Lines) == 0 {
		return append(dst, s)
	}
	for _, l := range e.Lines {
		s.Line = l
		dst = append(dst, s)
	}
	return dst
}

// AllEdges yields every edge with its index, in canonical order.
func (g *Graph) AllEdges() iter.Seq2[int, Edge] {
	return func(yield func(int, Edge) bool) {
		for i := range g.edges.n {
			if !yield(i, g.Edge(i)) {
				return
			}
		}
	}
}

func (g *Graph) linesAt(off uint32) []int {
	n := g.lines[off]
	a, b := int(off)+1, int(off)+1+n
	return g.lines[a:b:b]
}

// pools holds the lines and import specs of a lineage of graphs: a graph
// built by New or FromParts and the graphs spliced from it. Each graph
// sees a prefix of the pools (its own lines and specs fields); a splice
// from the graph that sees all of them appends in place, any other one
// copies first, so no graph ever sees a slot change. Replaced edges leave
// their lines behind; the pools are rebuilt once they have doubled since
// they were last built.
type pools struct {
	mu sync.Mutex
	// nlines and nspecs are how far the pools are filled: the view of the
	// graph written last.
	nlines, nspecs int
	// writing: a writer is extending the pools in place.
	writing bool
	// base is the pools' size when they were built: the live part then.
	base int
}

// poolWriter appends the lines and specs of new edges for one graph.
type poolWriter struct {
	p     *pools
	lines []int
	specs []string
	// specAt dedupes specs within one write: a file imports a module once
	// but many edges may carry the same spec text.
	specAt map[string]uint32
}

// newPoolWriter starts fresh pools.
func newPoolWriter() *poolWriter {
	return &poolWriter{p: &pools{writing: true}, lines: []int{0}, specAt: map[string]uint32{}}
}

// extend starts writing after g's lines and specs: in place when g sees
// the whole pools and no other writer is at work, else on a copy.
func (g *Graph) extend() *poolWriter {
	p := g.pool
	p.mu.Lock()
	inPlace := !p.writing && p.nlines == len(g.lines) && p.nspecs == len(g.specs)
	if inPlace {
		p.writing = true
	}
	p.mu.Unlock()
	if inPlace {
		return &poolWriter{p: p, lines: g.lines, specs: g.specs, specAt: map[string]uint32{}}
	}
	np := &pools{base: p.base, writing: true}
	return &poolWriter{p: np, lines: g.lines[:len(g.lines):len(g.lines)], specs: g.specs[:len(g.specs):len(g.specs)],
		specAt: map[string]uint32{}}
}

// put stores an edge's lines and spec and returns their references.
func (w *poolWriter) put(lines []int, spec string) (uint32, uint32) {
	var lo, so uint32
	if len(lines) > 0 {
		lo = uint32(len(w.lines))
		w.lines = append(w.lines, len(lines))
		w.lines = append(w.lines, lines...)
	}
	if spec != "" {
		if at, ok := w.specAt[spec]; ok {
			so = at
		} else {
			w.specs = append(w.specs, spec)
			so = uint32(len(w.specs))
			w.specAt[spec] = so
		}
	}
	return lo, so
}

// finish publishes what was written to the pools and gives g its view.
func (w *poolWriter) finish(g *Graph) {
	p := w.p
	p.mu.Lock()
	p.nlines, p.nspecs, p.writing = len(w.lines), len(w.specs), false
	if p.base == 0 {
		p.base = len(w.lines) + len(w.specs)
	}
	p.mu.Unlock()
	g.pool, g.lines, g.specs = p, w.lines, w.specs
}

// compactSlack is how far the pools may grow past twice their built size
// before a splice rebuilds them (a variable for tests).
var compactSlack = 1 << 16

// compact rebuilds g's pools with only the lines and specs its edges use,
// when the shared pools have doubled since they were built.
func (g *Graph) compact() {
	if size := len(g.lines) + len(g.specs); size < 2*g.pool.base+compactSlack {
		return
	}
	w := newPoolWriter()
	edges := make([]edge, g.edges.n)
	for i := range edges {
		e := *g.edges.at(i)
		var lines []int
		var spec string
		if e.lines != 0 {
			lines = g.linesAt(e.lines)
		}
		if e.spec != 0 {
			spec = g.specs[e.spec-1]
		}
		e.lines, e.spec = w.put(lines, spec)
		edges[i] = e
	}
	g.edges = chunked(edges)
	w.p.base = len(w.lines) + len(w.specs)
	w.finish(g)
}
