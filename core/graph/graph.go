// Package graph is ccd's code graph: modules, classes and functions joined
// by contains, import and call edges, with the indexes and analyses (slices,
// impact, symbol lookup, affected tests) built on them. It is pure Go.
package graph

import (
	"fmt"
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
)

func (t EdgeType) String() string {
	switch t {
	case Contains:
		return "contains"
	case Import:
		return "import"
	case Call:
		return "call"
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
)

var confNames = [...]string{"", "name-match", "inferred", "resolved", "lsp"}

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
	return 0, fmt.Errorf("unknown confidence %q (want name-match, inferred, resolved or lsp)", s)
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
}

// Edge joins two nodes by index.
type Edge struct {
	From, To   int
	Type       EdgeType
	Confidence Confidence
	Lines      []int  // call-site or import lines in the From node's file
	Spec       string // import spec as written
}

// Graph is an immutable code graph with adjacency indexes. Build one with
// New; do not modify its slices afterwards.
type Graph struct {
	Nodes []*Node
	Edges []Edge

	byID   map[string]int
	out    [][]int // edge indexes by From
	in     [][]int // edge indexes by To
	byPath map[string][]int
	byName map[string][]int
	// ownedBy lists, per class, the methods that name it as Owner.
	ownedBy map[int][]int
}

// New sorts nodes and edges into a canonical order, merges duplicate edges
// (keeping the strongest confidence and all lines) and builds the indexes.
// Edges refer to nodes by id; edges to unknown ids are dropped.
func New(nodes []*Node, edges []EdgeSpec) *Graph {
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	g := &Graph{Nodes: nodes, byID: make(map[string]int, len(nodes))}
	for i, n := range nodes {
		g.byID[n.ID] = i
	}
	type rec struct {
		from, to int32
		typ      EdgeType
		conf     Confidence
		line     int32
		spec     int32 // index into edges for the spec, or -1
	}
	recs := make([]rec, 0, len(edges))
	for i := range edges {
		e := &edges[i]
		from, ok1 := g.byID[e.From]
		to, ok2 := g.byID[e.To]
		if !ok1 || !ok2 || (from == to && e.Type != Call) {
			continue
		}
		r := rec{from: int32(from), to: int32(to), typ: e.Type, conf: e.Confidence, line: int32(e.Line), spec: -1}
		if e.Spec != "" {
			r.spec = int32(i)
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool {
		a, b := &recs[i], &recs[j]
		if a.from != b.from {
			return a.from < b.from
		}
		if a.typ != b.typ {
			return a.typ < b.typ
		}
		if a.to != b.to {
			return a.to < b.to
		}
		return a.line < b.line
	})
	for i := 0; i < len(recs); {
		r := recs[i]
		e := Edge{From: int(r.from), To: int(r.to), Type: r.typ, Confidence: r.conf}
		j := i
		for ; j < len(recs) && recs[j].from == r.from && recs[j].to == r.to && recs[j].typ == r.typ; j++ {
			x := &recs[j]
			if x.conf > e.Confidence {
				e.Confidence = x.conf
			}
			if x.line > 0 && (len(e.Lines) == 0 || e.Lines[len(e.Lines)-1] != int(x.line)) {
				e.Lines = append(e.Lines, int(x.line))
			}
			if e.Spec == "" && x.spec >= 0 {
				e.Spec = edges[x.spec].Spec
			}
		}
		g.Edges = append(g.Edges, e)
		i = j
	}
	g.index()
	return g
}

// FromParts rebuilds a graph from nodes and edges that are already in
// canonical order (as a graph's own Nodes and Edges are), e.g. after
// loading them from disk. It only builds the indexes.
func FromParts(nodes []*Node, edges []Edge) *Graph {
	g := &Graph{Nodes: nodes, Edges: edges, byID: make(map[string]int, len(nodes))}
	for i, n := range nodes {
		g.byID[n.ID] = i
	}
	g.index()
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

func (g *Graph) index() {
	g.out = make([][]int, len(g.Nodes))
	g.in = make([][]int, len(g.Nodes))
	g.byPath = map[string][]int{}
	g.byName = map[string][]int{}
	for i, e := range g.Edges {
		g.out[e.From] = append(g.out[e.From], i)
		g.in[e.To] = append(g.in[e.To], i)
	}
	g.ownedBy = map[int][]int{}
	for i, n := range g.Nodes {
		if n.Owner != "" {
			if o, ok := g.byID[n.Owner]; ok {
				g.ownedBy[o] = append(g.ownedBy[o], i)
			}
		}
		g.byPath[n.Path] = append(g.byPath[n.Path], i)
		g.byName[strings.ToLower(n.Name)] = append(g.byName[strings.ToLower(n.Name)], i)
	}
}

// Index returns the index of the node with the given id.
func (g *Graph) Index(id string) (int, bool) {
	i, ok := g.byID[id]
	return i, ok
}

// Node returns the node with the given id, or nil.
func (g *Graph) Node(id string) *Node {
	if i, ok := g.byID[id]; ok {
		return g.Nodes[i]
	}
	return nil
}

// Out returns the indexes of the edges leaving node i.
func (g *Graph) Out(i int) []int { return g.out[i] }

// In returns the indexes of the edges entering node i.
func (g *Graph) In(i int) []int { return g.in[i] }

// InFile returns the indexes of the nodes of one file, module first.
func (g *Graph) InFile(p string) []int { return g.byPath[p] }

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
		return len(g.Edges)
	}
	c := 0
	for _, e := range g.Edges {
		if e.Type == t {
			c++
		}
	}
	return c
}

// Children returns the nodes directly contained in node i.
func (g *Graph) Children(i int) []int {
	var out []int
	for _, ei := range g.out[i] {
		if g.Edges[ei].Type == Contains {
			out = append(out, g.Edges[ei].To)
		}
	}
	return out
}

// Parent returns the container of node i, or -1.
func (g *Graph) Parent(i int) int {
	for _, ei := range g.in[i] {
		if g.Edges[ei].Type == Contains {
			return g.Edges[ei].From
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

// owned returns the methods whose Owner is class i.
func (g *Graph) owned(i int) []int { return g.ownedBy[i] }

// Loc renders a node's location as path:line.
func (n *Node) Loc() string {
	if n.StartLine == 0 {
		return n.Path
	}
	return fmt.Sprintf("%s:%d", n.Path, n.StartLine)
}
