package graph

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// world is a random workspace: per file, its nodes and the edge specs
// leaving them.
type world struct {
	rng   *rand.Rand
	nodes map[string][]*Node
	edges map[string][]EdgeSpec
}

var spliceNames = []string{"run", "Run", "get", "Server", "server", "handle", "ServeHTTP", "x", "Über", "über"}

func (w *world) ids() []string {
	var out []string
	for _, ns := range w.nodes {
		for _, n := range ns {
			out = append(out, n.ID)
		}
	}
	sort.Strings(out)
	return out
}

// regen gives file p new random nodes (keeping some ids, so indexes stay
// or move) and new edges, which may target any id, existing or not.
func (w *world) regen(p string) {
	r := w.rng
	ns := []*Node{{ID: p, Kind: Module, Name: p, Path: p, Lang: "go"}}
	nd := r.Intn(6)
	if r.Intn(4) == 0 && len(w.nodes[p]) > 0 {
		// Same ids, other lines, names, owners: a body edit.
		nd = len(w.nodes[p]) - 1
	}
	for k := 0; k < nd; k++ {
		qual := fmt.Sprintf("D%d", k)
		if r.Intn(3) == 0 {
			qual = fmt.Sprintf("D%d", r.Intn(9))
		}
		n := &Node{ID: p + "::" + qual, Kind: Kind(2 + r.Intn(2)), Name: spliceNames[r.Intn(len(spliceNames))],
			Qual: qual, Path: p, Lang: "go", StartLine: r.Intn(50) + 1}
		n.EndLine = n.StartLine + r.Intn(9)
		if r.Intn(3) == 0 {
			if all := w.ids(); len(all) > 0 {
				n.Owner = all[r.Intn(len(all))]
			}
		}
		if !slices.ContainsFunc(ns, func(o *Node) bool { return o.ID == n.ID }) {
			ns = append(ns, n)
		}
	}
	w.nodes[p] = ns
	if old := w.edges[p]; nd == len(ns)-1 && len(old) > 0 && r.Intn(2) == 0 {
		// The same calls from the same nodes, on other lines and with
		// other confidences: a body edit that moved code around.
		es := slices.Clone(old)
		for k := range es {
			es[k].Line = r.Intn(4)
			es[k].Confidence = Confidence(1 + r.Intn(4))
		}
		w.edges[p] = es
		return
	}
	targets := append(w.ids(), p+"::D7", "nowhere.go")
	var es []EdgeSpec
	for k := r.Intn(12); k > 0; k-- {
		e := EdgeSpec{From: ns[r.Intn(len(ns))].ID, To: targets[r.Intn(len(targets))], Type: EdgeType(1 + r.Intn(3)),
			Confidence: Confidence(1 + r.Intn(4)), Line: r.Intn(4)}
		if e.Type == Import {
			e.Spec = []string{"", "a", "b"}[r.Intn(3)]
		}
		es = append(es, e)
		if r.Intn(3) == 0 {
			es = append(es, e) // duplicates merge
		}
	}
	w.edges[p] = es
}

// prune drops the specs whose target does not exist: a graph keeps no
// trace of them, so a splice cannot bring them back when the target
// reappears (the resolver re-resolves such files instead).
func (w *world) prune() {
	ids := map[string]bool{}
	for _, id := range w.ids() {
		ids[id] = true
	}
	for p, es := range w.edges {
		w.edges[p] = slices.DeleteFunc(es, func(e EdgeSpec) bool { return !ids[e.To] })
	}
}

func (w *world) build() *Graph {
	var ns []*Node
	var es []EdgeSpec
	var files []string
	for p := range w.nodes {
		files = append(files, p)
	}
	sort.Strings(files)
	for _, p := range files {
		ns = append(ns, w.nodes[p]...)
		es = append(es, w.edges[p]...)
	}
	return New(ns, es)
}

// TestSpliceEqualsNew splices random changes into a graph, chaining
// hundreds of splices (so lookup overlays grow and get compacted), and
// checks after each that every query answers as on a graph built by New.
func TestSpliceEqualsNew(t *testing.T) {
	for _, at := range []int{compactAt, 1} {
		for _, slack := range []int{compactSlack, 0} {
			t.Run(fmt.Sprintf("compact-at-%d-slack-%d", at, slack), func(t *testing.T) {
				defer func(old, oldSlack int) { compactAt, compactSlack = old, oldSlack }(compactAt, compactSlack)
				compactAt, compactSlack = at, slack
				spliceRandomly(t)
			})
		}
	}
}

func spliceRandomly(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		w := &world{rng: rand.New(rand.NewSource(seed)), nodes: map[string][]*Node{}, edges: map[string][]EdgeSpec{}}
		nfiles := 3 + w.rng.Intn(10)
		for k := 0; k < nfiles; k++ {
			w.regen(fmt.Sprintf("f%d.go", k))
		}
		w.prune()
		g := w.build()
		for step := 0; step < 60; step++ {
			var files []string
			for k := 1 + w.rng.Intn(3); k > 0; k-- {
				p := fmt.Sprintf("f%d.go", w.rng.Intn(nfiles+3))
				files = append(files, p)
				if w.rng.Intn(6) == 0 {
					delete(w.nodes, p)
					delete(w.edges, p)
				} else {
					w.regen(p)
				}
			}
			var ns []*Node
			var es []EdgeSpec
			for _, p := range slices.Compact(slices.Sorted(slices.Values(files))) {
				ns = append(ns, w.nodes[p]...)
				es = append(es, w.edges[p]...)
			}
			g = g.Splice(files, ns, es)
			w.prune()
			want := w.build()
			if msg := sameGraph(g, want); msg != "" {
				t.Fatalf("seed %d step %d (splice %v): %s", seed, step, files, msg)
			}
		}
	}
}

// sameGraph compares everything a reader can observe of two graphs.
func sameGraph(got, want *Graph) string {
	if a, b := got.Text(), want.Text(); a != b {
		return "text differs:\n" + a + "\nwant:\n" + b
	}
	for i := range want.AllEdges() {
		if !reflect.DeepEqual(got.ExportEdge(i), want.ExportEdge(i)) {
			return fmt.Sprintf("edge %d: %+v, want %+v", i, got.ExportEdge(i), want.ExportEdge(i))
		}
	}
	keys := map[string]bool{"nowhere.go": true, "": true}
	for i, n := range want.Nodes {
		keys[n.ID], keys[n.Path], keys[strings.ToLower(n.Name)] = true, true, true
		if !slices.Equal(got.Out(i), want.Out(i)) || !slices.Equal(got.In(i), want.In(i)) {
			return fmt.Sprintf("node %s: out %v in %v, want %v %v", n.ID, got.Out(i), got.In(i), want.Out(i), want.In(i))
		}
		if a, b := got.owned(i), want.owned(i); !slices.Equal(a, b) && len(a)+len(b) > 0 {
			return fmt.Sprintf("owned(%s) = %v, want %v", n.ID, a, b)
		}
		if a, b := got.Descendants(i), want.Descendants(i); !slices.Equal(a, b) {
			return fmt.Sprintf("descendants(%s) = %v, want %v", n.ID, a, b)
		}
	}
	for _, n := range []string{"f1.go::D1", "f2.go::D3", "f9.go"} {
		keys[n] = true
	}
	for k := range keys {
		a, okA := got.Index(k)
		b, okB := want.Index(k)
		if a != b || okA != okB {
			return fmt.Sprintf("Index(%q) = %d %v, want %d %v", k, a, okA, b, okB)
		}
		if a, b := got.InFile(k), want.InFile(k); !slices.Equal(a, b) && len(a)+len(b) > 0 {
			return fmt.Sprintf("InFile(%q) = %v, want %v", k, a, b)
		}
		if a, b := got.named(k), want.named(k); !slices.Equal(a, b) && len(a)+len(b) > 0 {
			return fmt.Sprintf("named(%q) = %v, want %v", k, a, b)
		}
		if a, b := got.Find(k), want.Find(k); !slices.Equal(a, b) {
			return fmt.Sprintf("Find(%q) = %v, want %v", k, a, b)
		}
	}
	return ""
}

// TestAppendSpecsRoundTrip: New over a graph's nodes and the specs of all
// its edges gives the same graph.
func TestAppendSpecsRoundTrip(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		w := &world{rng: rand.New(rand.NewSource(seed)), nodes: map[string][]*Node{}, edges: map[string][]EdgeSpec{}}
		for k := 0; k < 3+w.rng.Intn(10); k++ {
			w.regen(fmt.Sprintf("f%d.go", k))
		}
		w.prune()
		g := w.build()
		var specs []EdgeSpec
		for i := range g.NumEdges() {
			specs = g.AppendSpecs(specs, i)
		}
		if d := sameGraph(New(slices.Clone(g.Nodes), specs), g); d != "" {
			t.Fatalf("seed %d: %s", seed, d)
		}
	}
}

// TestSpliceKeepsOld checks that a splice leaves the graph it started from
// unchanged: readers of the old graph are not disturbed.
func TestSpliceKeepsOld(t *testing.T) {
	w := &world{rng: rand.New(rand.NewSource(7)), nodes: map[string][]*Node{}, edges: map[string][]EdgeSpec{}}
	for k := 0; k < 8; k++ {
		w.regen(fmt.Sprintf("f%d.go", k))
	}
	g := w.build()
	before := g.Text()
	clone := w.build()
	for step := 0; step < 30; step++ {
		p := fmt.Sprintf("f%d.go", w.rng.Intn(10))
		w.regen(p)
		g.Splice([]string{p}, w.nodes[p], w.edges[p])
	}
	if g.Text() != before {
		t.Fatal("splicing changed the old graph's text")
	}
	if msg := sameGraph(g, clone); msg != "" {
		t.Fatalf("splicing changed the old graph: %s", msg)
	}
}

func (w *world) clone(seed int64) *world {
	c := &world{rng: rand.New(rand.NewSource(seed)), nodes: map[string][]*Node{}, edges: map[string][]EdgeSpec{}}
	for p, ns := range w.nodes {
		c.nodes[p] = ns
	}
	for p, es := range w.edges {
		c.edges[p] = slices.Clone(es) // prune edits in place
	}
	return c
}

// spliceOne regenerates one random file of w and splices it into g.
func (w *world) spliceOne(g *Graph) *Graph {
	p := fmt.Sprintf("f%d.go", w.rng.Intn(10))
	w.regen(p)
	g = g.Splice([]string{p}, w.nodes[p], w.edges[p])
	w.prune()
	return g
}

// TestSpliceBranches splices several graphs from one, in turn and at the
// same time: the lines and specs the branches share stay right for each.
func TestSpliceBranches(t *testing.T) {
	for _, slack := range []int{compactSlack, 0} {
		defer func(old int) { compactSlack = old }(compactSlack)
		compactSlack = slack
		root := &world{rng: rand.New(rand.NewSource(11)), nodes: map[string][]*Node{}, edges: map[string][]EdgeSpec{}}
		for k := 0; k < 8; k++ {
			root.regen(fmt.Sprintf("f%d.go", k))
		}
		root.prune()
		g := root.build()
		type branch struct {
			w *world
			g *Graph
		}
		// In turn: each branch grows from g or from an earlier branch, so
		// some extend the pools in place and some must copy them.
		var bs []branch
		for k := int64(0); k < 12; k++ {
			from := branch{root, g}
			if k > 0 && k%3 != 0 {
				from = bs[int(k)%len(bs)]
			}
			w := from.w.clone(100 + k)
			bs = append(bs, branch{w, w.spliceOne(from.g)})
		}
		for k, b := range bs {
			if msg := sameGraph(b.g, b.w.build()); msg != "" {
				t.Fatalf("slack %d branch %d: %s", slack, k, msg)
			}
		}
		// At the same time, from one graph (run with -race).
		done := make(chan string)
		for k := int64(0); k < 6; k++ {
			go func() {
				w := root.clone(200 + k)
				h := g
				for i := 0; i < 10; i++ {
					h = w.spliceOne(h)
				}
				done <- sameGraph(h, w.build())
			}()
		}
		for k := 0; k < 6; k++ {
			if msg := <-done; msg != "" {
				t.Fatalf("slack %d concurrent branch: %s", slack, msg)
			}
		}
		if msg := sameGraph(g, root.build()); msg != "" {
			t.Fatalf("slack %d: the root graph changed: %s", slack, msg)
		}
	}
}

// TestSplicePatchSharesChunks checks that a splice that changes only the
// lines of a file's edges copies just the chunks holding them.
func TestSplicePatchSharesChunks(t *testing.T) {
	var ns []*Node
	var es []EdgeSpec
	for f := 0; f < 400; f++ {
		p := fmt.Sprintf("f%03d.go", f)
		ns = append(ns, &Node{ID: p, Kind: Module, Name: p, Path: p})
		for k := 0; k < 5; k++ {
			id := fmt.Sprintf("%s::F%d", p, k)
			ns = append(ns, &Node{ID: id, Kind: Func, Name: fmt.Sprintf("F%d", k), Qual: fmt.Sprintf("F%d", k), Path: p, StartLine: 10 * (k + 1)})
			es = append(es, EdgeSpec{From: p, To: id, Type: Contains})
			for c := 0; c < 4; c++ {
				es = append(es, EdgeSpec{From: id, To: fmt.Sprintf("f%03d.go::F%d", (f+c+1)%400, c), Type: Call, Confidence: Resolved, Line: 10*(k+1) + c})
			}
		}
	}
	g := New(slices.Clone(ns), slices.Clone(es))
	if len(g.edges.chunks) < 3 {
		t.Fatalf("only %d chunks: the test needs more edges", len(g.edges.chunks))
	}
	before := g.Text()
	// File f200.go: its edges, one line further down.
	const p = "f200.go"
	var fns []*Node
	for _, n := range ns {
		if n.Path == p {
			c := *n
			fns = append(fns, &c)
		}
	}
	var fes []EdgeSpec
	for i, e := range es {
		if strings.HasPrefix(e.From, p) {
			if e.Line > 0 {
				e.Line++
			}
			es[i] = e
			fes = append(fes, e)
		}
	}
	ng := g.Splice([]string{p}, fns, fes)
	if msg := sameGraph(ng, New(ns, es)); msg != "" {
		t.Fatal(msg)
	}
	if g.Text() != before {
		t.Fatal("the old graph changed")
	}
	shared := 0
	for k := range g.edges.chunks {
		if &g.edges.chunks[k][0] == &ng.edges.chunks[k][0] {
			shared++
		}
	}
	if want := len(g.edges.chunks) - 1; shared < want-1 {
		t.Errorf("%d of %d chunks shared, want at least %d", shared, len(g.edges.chunks), want-1)
	}
	if &g.inEdge[0] != &ng.inEdge[0] {
		t.Error("the adjacency indexes were rebuilt for a same-shape splice")
	}
}
