package graph

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// TestBudget is how many nodes a search for the tests of a node visits at
// most: the whole reverse call closure of nearly every node fits.
const TestBudget = 20000

// TestReach is what a search for the tests that reach a node found.
type TestReach struct {
	// Tests are the test nodes found, by id.
	Tests []int
	// Dispatch marks the tests found only through a call of an interface
	// method the node implements (a Go method reached through the
	// interface): the call may go elsewhere at run time.
	Dispatch map[int]bool
	// Value marks the tests found only through a reference (a function
	// passed or stored as a value, a method of a type handed to the
	// standard library): the holder may or may not call it.
	Value map[int]bool
	// Complete says the closure was explored to its end; when false the
	// budget stopped it and a missing test proves nothing.
	Complete bool
	// Visited counts the nodes the search went through.
	Visited int
	// Ran marks the tests a recording of the test suite saw running the
	// node (see TestRuns); Unrun counts the tests the graph's closure
	// reaches that the recording ran without them running the node, left
	// out of Tests.
	Ran   map[int]bool
	Unrun int
}

// TestRuns is a recording of which tests ran which functions, by node id.
type TestRuns interface {
	// TestsRan returns the tests seen running the function with node id
	// id, and whether the recording knew the function (a function added
	// since is not known: nothing can be said of it).
	TestsRan(id string) (tests []string, known bool)
	// Recorded reports whether the test with node id id ran in the
	// recording (a test written since did not).
	Recorded(id string) bool
}

// TestsOf searches the whole reverse call closure of node i (every
// function of a class or module), not limited to a display depth, for the
// tests that reach it, visiting at most budget nodes (0: TestBudget).
// Calls through an interface count: a Go method is reached by the callers
// of the interface methods its type implements; so do references, a
// function named as a value being reached by whoever reaches the place
// that names it.
func (g *Graph) TestsOf(i int, f Filter, budget int) TestReach {
	r := g.testsInGraph(i, f, budget)
	if f.Runs != nil {
		g.applyRuns(i, f.Runs, &r)
	}
	return r
}

// applyRuns replaces the tests found in the graph by those a recording
// saw running node i (every function of a class or module) when the
// recording knows each of them: a test the recording ran counts only if
// it ran the node, one it did not run (written since, or outside what was
// recorded) keeps the graph's word.
func (g *Graph) applyRuns(i int, runs TestRuns, r *TestReach) {
	ran := map[int]bool{}
	funcs := 0
	for _, s := range g.Seeds(i) {
		n := g.Nodes[s]
		if n.Kind == Module || n.Kind == Class {
			continue
		}
		tests, known := runs.TestsRan(n.ID)
		if !known {
			return
		}
		funcs++
		for _, id := range tests {
			if t, ok := g.Index(id); ok {
				ran[t] = true
			}
		}
	}
	if funcs == 0 {
		return // a class or module without functions: the graph's word
	}
	// The tests seen running it, and of the graph's the ones the recording
	// did not run (a test it ran is in ran or was not running the node).
	keep := make([]int, 0, len(ran)+len(r.Tests))
	for t := range ran {
		keep = append(keep, t)
	}
	for _, t := range r.Tests {
		switch {
		case ran[t]:
		case runs.Recorded(g.Nodes[t].ID):
			r.Unrun++
		default:
			keep = append(keep, t)
		}
	}
	sort.Slice(keep, func(a, b int) bool { return g.Nodes[keep[a]].ID < g.Nodes[keep[b]].ID })
	r.Tests = keep
	r.Ran = ran
	r.Complete = true
}

func (g *Graph) testsInGraph(i int, f Filter, budget int) TestReach {
	if budget <= 0 {
		budget = TestBudget
	}
	impls := g.implements()
	type item struct {
		n        int
		dispatch bool
		ref      bool // arrived through a reference
		value    bool // some reference on the way
		// via is the concrete type whose method an interface call on the
		// way dispatched to (-1: none): a test counts only if it makes a
		// value of that type (rapid type analysis, per test).
		via int32
	}
	// seen holds, per node, the best way it was reached: notSeen, a via
	// type, or direct (no type to check), which may replace a via.
	const notSeen, direct = -2, -1
	seen := make([]int32, len(g.Nodes)) // a slice: the closure may be tens of thousands of nodes
	for k := range seen {
		seen[k] = notSeen
	}
	queue := make([]item, 0, 256)
	push := func(n int, dispatch, ref, value bool, via int32) {
		if s := seen[n]; s == notSeen || s != direct && via == direct {
			seen[n] = via
			queue = append(queue, item{n, dispatch, ref, value || ref, via})
		}
	}
	for _, s := range g.Seeds(i) {
		push(s, false, false, false, direct)
	}
	nseeds := len(queue)
	r := TestReach{Complete: true}
	for head := 0; head < len(queue); head++ {
		if r.Visited >= budget {
			r.Complete = false
			break
		}
		it := queue[head]
		if it.via != direct && seen[it.n] == direct {
			continue // reached directly since: that visit counts
		}
		r.Visited++
		if g.Nodes[it.n].Test && (it.via == direct || g.makes(int(it.via), it.n)) {
			r.Tests = append(r.Tests, it.n)
			if it.dispatch {
				if r.Dispatch == nil {
					r.Dispatch = map[int]bool{}
				}
				r.Dispatch[it.n] = true
			} else if it.value {
				if r.Value == nil {
					r.Value = map[int]bool{}
				}
				r.Value[it.n] = true
			}
		}
		if it.ref && g.Nodes[it.n].Kind == Class {
			// A function the class holds (a table in its body, a
			// special method, a Go method the standard library calls
			// back) runs once there is an instance: it is reached by
			// whoever constructs one (its constructor), else, for a
			// class without one (Go types), through its own methods.
			if ctor, ok := g.constructorOf(it.n); ok {
				push(ctor, it.dispatch, false, it.value, it.via)
			} else {
				for _, d := range g.Descendants(it.n) {
					push(d, it.dispatch, false, it.value, it.via)
				}
			}
		}
		for _, ei := range g.In(it.n) {
			e := g.edges.at(ei)
			// A function named as a value (a callback, a method value,
			// a table entry) runs when its holder calls it: the tests
			// that reach the place it is named reach it too.
			if (e.typ == Call || e.typ == Ref) && e.conf >= f.MinConfidence {
				push(int(e.from), it.dispatch, e.typ == Ref, it.value, it.via)
			} else if e.typ == Contains && g.Nodes[it.n].Anonymous() {
				// An anonymous function runs as part of the code that
				// defines it (see Slice).
				push(int(e.from), it.dispatch, false, it.value, it.via)
			}
		}
		ms := impls[it.n]
		if head < nseeds {
			// The node asked about: through interfaces with many
			// implementations too (pflag's Value), each test checked by
			// the values it makes. Deeper in the closure only narrow
			// interfaces are followed: the wide ones would pull in most
			// of a large tree for every query.
			ms = append(ms[:len(ms):len(ms)], g.dispatch.wide[it.n]...)
		}
		if len(ms) > 0 {
			via := it.via
			if via == direct {
				via = int32(g.dispatch.owner[it.n])
			}
			for _, m := range ms {
				push(m, true, false, it.value, via)
			}
		}
	}
	sort.Slice(r.Tests, func(a, b int) bool { return g.Nodes[r.Tests[a]].ID < g.Nodes[r.Tests[b]].ID })
	return r
}

// narrowDispatch is the most implementations (outside test files) an
// interface may have for the callers of its methods to count as reaching
// each of them anywhere in a search; maxDispatch the most for the node
// searched from itself (see TestsOf).
const (
	narrowDispatch = 4
	maxDispatch    = 64
)

func countOutsideTests(g *Graph, types []int) int {
	n := 0
	for _, t := range types {
		if !IsTestFile(g.Nodes[t].Path) {
			n++
		}
	}
	return n
}

// dispatchIndex is built once per graph.
type dispatchIndex struct {
	once sync.Once
	m    map[int][]int
	// wide holds, likewise, the methods of interfaces with more than
	// narrowDispatch implementations (up to maxDispatch).
	wide map[int][]int
	// owner maps each method in m and wide to its concrete type.
	owner map[int]int
}

// implements maps each Go method of a concrete type to the interface
// methods it implements: those of every interface of the workspace whose
// method names the type's methods cover (by name; embedded interfaces are
// not followed, so an interface counts with its own methods), for
// interfaces with at most maxDispatch implementations.
func (g *Graph) implements() map[int][]int {
	g.dispatch.once.Do(func() {
		g.dispatch.m = map[int][]int{}
		g.dispatch.wide = map[int][]int{}
		g.dispatch.owner = map[int]int{}
		ifaceMethods := map[int]map[string]int{} // interface → method name → node
		typeMethods := map[int]map[string]int{}  // concrete type → method name → node
		byID := map[string]int{}
		for i, n := range g.Nodes {
			if n.Lang == "go" && n.Kind == Class {
				byID[n.ID] = i
			}
		}
		for i, n := range g.Nodes {
			if n.Lang != "go" || n.Kind != Func {
				continue
			}
			owner := n.Owner
			if owner == "" {
				if k := strings.LastIndexByte(n.ID, '.'); k > 0 && strings.Contains(n.ID, "::") {
					owner = n.ID[:k]
				}
			}
			t, ok := byID[owner]
			if !ok {
				continue
			}
			set := typeMethods
			if strings.HasSuffix(g.Nodes[t].Signature, " interface") {
				set = ifaceMethods
			}
			if set[t] == nil {
				set[t] = map[string]int{}
			}
			set[t][n.Name] = i
		}
		// Candidate types per method name, for the interfaces' first name.
		byName := map[string][]int{}
		for t, ms := range typeMethods {
			for name := range ms {
				byName[name] = append(byName[name], t)
			}
		}
		for _, ims := range ifaceMethods {
			var first string
			for name := range ims {
				if first == "" || len(byName[name]) < len(byName[first]) {
					first = name
				}
			}
			var impls []int
			for _, t := range byName[first] {
				ms := typeMethods[t]
				all := true
				for name := range ims {
					if _, ok := ms[name]; !ok {
						all = false
						break
					}
				}
				if all {
					impls = append(impls, t)
				}
			}
			// An interface with many implementations (pflag's Value has
			// dozens) says nothing about which one a call reaches: every
			// test through it would be named for each of them.
			n := countOutsideTests(g, impls)
			if n > maxDispatch {
				continue
			}
			into := g.dispatch.m
			if n > narrowDispatch {
				into = g.dispatch.wide
			}
			for _, t := range impls {
				ms := typeMethods[t]
				for name, im := range ims {
					m := ms[name]
					into[m] = append(into[m], im)
					g.dispatch.owner[m] = t
				}
			}
		}
		for m := range g.dispatch.m {
			sort.Ints(g.dispatch.m[m])
		}
		for m := range g.dispatch.wide {
			sort.Ints(g.dispatch.wide[m])
		}
	})
	return g.dispatch.m
}

// Implements returns the interface methods a Go method of a concrete
// type implements, as far as the graph knows (method names covered, for
// interfaces with few implementations), in node order.
func (g *Graph) Implements(i int) []int {
	m := g.implements()
	return slices.Concat(m[i], g.dispatch.wide[i])
}

// constructorOf returns the constructor method of class c (Python
// __init__ or __new__, JavaScript/TypeScript constructor), if it has one.
func (g *Graph) constructorOf(c int) (int, bool) {
	for _, k := range g.Children(c) {
		if n := g.Nodes[k]; n.Kind == Func {
			switch n.Name {
			case "__init__", "__new__", "constructor":
				return k, true
			}
		}
	}
	return 0, false
}

// madeIndex caches, per Go type, the tests that make a value of it.
type madeIndex struct {
	mu sync.Mutex
	m  map[int]map[int]bool // type → tests; nil: any test may (see makes)
}

// makes reports whether test may run with a value of type t: whether it
// reaches a function that makes one (a reference edge from an
// instantiation: T{}, &T{}, new(T), (*T)(x), var x T). It answers yes
// when nothing in the graph makes one (values made by other modules, by
// reflection) or when one is made at package level (during
// initialisation, before every test).
func (g *Graph) makes(t, test int) bool {
	g.made.mu.Lock()
	defer g.made.mu.Unlock()
	if g.made.m == nil {
		g.made.m = map[int]map[int]bool{}
	}
	tests, ok := g.made.m[t]
	if !ok {
		tests = g.testsMaking(t)
		g.made.m[t] = tests
	}
	return tests == nil || tests[test]
}

// testsMaking returns the tests that reach a function making a value of
// type t, or nil when every test may have one.
func (g *Graph) testsMaking(t int) map[int]bool {
	var queue []int
	seen := map[int]bool{}
	for _, ei := range g.In(t) {
		e := g.edges.at(ei)
		if e.typ != Ref {
			continue
		}
		from := int(e.from)
		if k := g.Nodes[from].Kind; k != Func {
			return nil // made at package level
		}
		if !seen[from] {
			seen[from] = true
			queue = append(queue, from)
		}
	}
	if len(queue) == 0 {
		return nil
	}
	impls := g.implements()
	tests := map[int]bool{}
	for head := 0; head < len(queue) && head < TestBudget; head++ {
		n := queue[head]
		if g.Nodes[n].Test {
			tests[n] = true
		}
		next := func(m int) {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
		for _, ei := range g.In(n) {
			if e := g.edges.at(ei); e.typ == Call || e.typ == Ref {
				next(int(e.from))
			}
		}
		for _, m := range impls[n] {
			next(m)
		}
	}
	if len(queue) >= TestBudget {
		return nil // cut by the budget: proves nothing
	}
	return tests
}
