// Package graph is ccd's code graph: modules, classes and functions joined
// by contains, import and call edges, with the indexes and analyses (slices,
// impact, symbol lookup, affected tests) built on them. It is pure Go.
package graph

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind is a node's kind.
type Kind uint8

// Node kinds, in the order the export lists them.
const (
	Module Kind = iota + 1
	Class
	Func
)

func (k Kind) String() string {
	switch k {
	case Module:
		return "module"
	case Class:
		return "class"
	case Func:
		return "func"
	}
	return "unknown"
}

// EdgeType is an edge's type.
type EdgeType uint8

// Edge types.
const (
	Contains EdgeType = iota + 1
	Import
	Call
	// Ref: the source names the target function as a value (a callback,
	// a method value, a table entry) without calling it there.
	Ref
)

func (t EdgeType) String() string {
	switch t {
	case Contains:
		return "contains"
	case Import:
		return "import"
	case Call:
		return "call"
	case Ref:
		return "ref"
	}
	return "unknown"
}

// Confidence says how an edge was established. Higher is surer.
type Confidence uint8

// Confidence levels, weakest first.
const (
	// NameMatch: only the callee's name matched one definition in the
	// workspace; the receiver's type was unknown. Consumers may drop these.
	NameMatch Confidence = iota + 1
	// Inferred: bound through an inferred receiver type or a global
	// namespace lookup (C, Ruby, Bash) with a single candidate.
	Inferred
	// Resolved: bound through scopes, imports, self/this or declared types.
	Resolved
	// LSP: confirmed by a language server.
	LSP
	// Precise: confirmed or found by a precise SCIP index (made by a
	// compiler-grade indexer such as scip-go, scip-typescript or
	// scip-python) of an unchanged file.
	Precise
)

var confNames = [...]string{"", "name-match", "inferred", "resolved", "lsp", "precise"}

func (c Confidence) String() string {
	if int(c) < len(confNames) {
		return confNames[c]
	}
	return "unknown"
}

// ParseConfidence is the inverse of Confidence.String.
func ParseConfidence(s string) (Confidence, error) {
	for i, n := range confNames {
		if i > 0 && n == s {
			return Confidence(i), nil
		}
	}
	return 0, fmt.Errorf("unknown confidence %q (want name-match, inferred, resolved, lsp or precise)", s)
}

// Node is a module (file), class or function.
type Node struct {
	ID        string // "pkg/a.py" or "pkg/a.py::Outer.method"
	Kind      Kind
	Name      string // short display name
	Qual      string // qualified name inside the file; empty for modules
	Path      string // file, relative to the workspace root
	Lang      string
	StartLine int // 1-based; 0 for modules
	EndLine   int
	Signature string
	// Owner is the id of the class a method belongs to when that class is
	// not its syntactic parent (Go methods in another file of the package,
	// Rust impls, C++ out-of-line definitions).
	Owner string
	// Test marks test functions and test files.
	Test bool
	// Build is the build constraint of the node's Go file ("windows",
	// "linux && arm64"; see core/gobuild), "" when every build has it.
	Build string
}

// Edge joins two nodes by index. Graph.Edge returns one; the graph stores
// edges in a compact form (see edges.go).
type Edge struct {
	From, To   int
	Type       EdgeType
	Confidence Confidence
	Lines      []int  // call-site or import lines in the From node's file
	Spec       string // import spec as written
}

// Graph is an immutable code graph with adjacency indexes. Build one with
// New; do not modify its slices afterwards. Edges are reached by index
// through NumEdges, Edge, EdgeEnds and AllEdges.
type Graph struct {
	Nodes []*Node

	// edges are in canonical order; lines and specs are this graph's view
	// of the pools it shares with the graphs it was spliced from.
	edges edgeList
	lines []int
	specs []string
	pool  *pools

	// look maps ids, paths, names and owners to node slots; it may be
	// shared with the graphs this one was spliced from (see splice.go).
	look *lookup
	// pos maps a slot to its node index (-1: no such node in this graph)
	// and slots maps a node index to its slot; both nil when slot == index.
	pos, slots []int32
	// outOff[i]:outOff[i+1] index the edges leaving node i in outEdge, and
	// inOff the edges entering it in inEdge.
	outOff, inOff []int32
	inEdge        []int
	// outEdge lists edge indexes by From: 0, 1, ... NumEdges()-1 (shared
	// between graphs) as edges are sorted by From.
	outEdge []int
	outIota bool // outEdge is 0, 1, ...: edges are sorted by From

	// dispatch maps methods to the interface methods they implement,
	// built on first use (reach.go).
	dispatch dispatchIndex
	made     madeIndex
}

// New sorts nodes and edges into a canonical order, merges duplicate edges
// (keeping the strongest confidence and all lines) and builds the indexes.
// Edges refer to nodes by id; edges to unknown ids are dropped.
func New(nodes []*Node, edges []EdgeSpec) *Graph {
	return NewChunks(nodes, [][]EdgeSpec{edges})
}

// NewChunks is New with the edges given in chunks, as they are made (one
// per file): they are read chunk by chunk, with no concatenated copy, and
// each chunk is released (set to nil in chunks) once read, so that a
// large graph's specs and its edges are not all held at once.
func NewChunks(nodes []*Node, chunks [][]EdgeSpec) *Graph {
	slices.SortStableFunc(nodes, func(a, b *Node) int { return strings.Compare(a.ID, b.ID) })
	byID := make(map[string]int, len(nodes))
	for i, n := range nodes {
		byID[n.ID] = i
	}
	total := 0
	for _, es := range chunks {
		total += len(es)
	}
	recs := make([]edgeRec, 0, total)
	var specs map[int32]string // the few specs that are not empty (imports), by record
	base := 0
	for c, es := range chunks {
		for i := range es {
			if r, ok := specRec(byID, es, i); ok {
				r.spec = int32(base + i)
				recs = append(recs, r)
				if es[i].Spec != "" {
					if specs == nil {
						specs = map[int32]string{}
					}
					specs[r.spec] = es[i].Spec
				}
			}
		}
		base += len(es)
		chunks[c] = nil
	}
	w := newPoolWriter()
	g := &Graph{Nodes: nodes, edges: chunked(mergeRecs(recs, func(i int32) string { return specs[i] }, nil, w))}
	w.finish(g)
	g.look = newLookup(nodes, byID)
	g.indexEdges()
	return g
}

// FromParts rebuilds a graph from nodes and edges that are already in
// canonical order (as a graph's own Nodes and Edges are), e.g. after
// loading them from disk. It only builds the indexes.
func FromParts(nodes []*Node, edges []Edge) *Graph {
	byID := make(map[string]int, len(nodes))
	for i, n := range nodes {
		byID[n.ID] = i
	}
	w := newPoolWriter()
	es := make([]edge, len(edges))
	for i := range edges {
		e := &edges[i]
		x := edge{from: int32(e.From), to: int32(e.To), typ: e.Type, conf: e.Confidence}
		x.lines, x.spec = w.put(e.Lines, e.Spec)
		es[i] = x
	}
	g := &Graph{Nodes: nodes, edges: chunked(es)}
	w.finish(g)
	g.look = newLookup(nodes, byID)
	g.indexEdges()
	return g
}

// EdgeSpec is an edge by node ids, the input of New. Several specs for the
// same (from, to, type) merge into one edge.
type EdgeSpec struct {
	From, To   string
	Type       EdgeType
	Confidence Confidence
	Line       int    // call-site or import line, 0 for none
	Spec       string // import spec as written
}

func sortedUnique(xs []int) []int {
	if len(xs) < 2 {
		return xs
	}
	sort.Ints(xs)
	out := xs[:1]
	for _, x := range xs[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// Index returns the index of the node with the given id.
func (g *Graph) Index(id string) (int, bool) {
	return g.index(id)
}

// Node returns the node with the given id, or nil.
func (g *Graph) Node(id string) *Node {
	if i, ok := g.index(id); ok {
		return g.Nodes[i]
	}
	return nil
}

// Out returns the indexes of the edges leaving node i.
func (g *Graph) Out(i int) []int {
	a, b := g.outOff[i], g.outOff[i+1]
	return g.outEdge[a:b:b]
}

// In returns the indexes of the edges entering node i.
func (g *Graph) In(i int) []int {
	a, b := g.inOff[i], g.inOff[i+1]
	return g.inEdge[a:b:b]
}

// InFile returns the indexes of the nodes of one file, module first.
func (g *Graph) InFile(p string) []int { return g.inFile(p) }

// Files returns the module paths of the graph, sorted.
func (g *Graph) Files() []string {
	var out []string
	for _, n := range g.Nodes {
		if n.Kind == Module {
			out = append(out, n.Path)
		}
	}
	return out
}

// Count returns the number of nodes of kind k (0 counts all).
func (g *Graph) Count(k Kind) int {
	if k == 0 {
		return len(g.Nodes)
	}
	c := 0
	for _, n := range g.Nodes {
		if n.Kind == k {
			c++
		}
	}
	return c
}

// CountEdges returns the number of edges of type t (0 counts all).
func (g *Graph) CountEdges(t EdgeType) int {
	if t == 0 {
		return g.edges.n
	}
	c := 0
	for _, ch := range g.edges.chunks {
		for i := range ch {
			if ch[i].typ == t {
				c++
			}
		}
	}
	return c
}

// Children returns the nodes directly contained in node i.
func (g *Graph) Children(i int) []int {
	var out []int
	for _, ei := range g.Out(i) {
		if e := g.edges.at(ei); e.typ == Contains {
			out = append(out, int(e.to))
		}
	}
	return out
}

// Parent returns the container of node i, or -1.
func (g *Graph) Parent(i int) int {
	for _, ei := range g.In(i) {
		if e := g.edges.at(ei); e.typ == Contains {
			return int(e.from)
		}
	}
	return -1
}

// Descendants returns node i's functions and classes: everything it
// contains transitively, plus, for a class, the methods it owns that are
// defined elsewhere (Go receivers, Rust impls).
func (g *Graph) Descendants(i int) []int {
	var out []int
	seen := map[int]bool{i: true}
	stack := []int{i}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids := g.Children(n)
		if g.Nodes[n].Kind == Class {
			kids = append(kids, g.owned(n)...)
		}
		for _, c := range kids {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				stack = append(stack, c)
			}
		}
	}
	sort.Ints(out)
	return out
}

// Loc renders a node's location as path:line.
func (n *Node) Loc() string {
	if n.StartLine == 0 {
		return n.Path
	}
	return fmt.Sprintf("%s:%d", n.Path, n.StartLine)
}
