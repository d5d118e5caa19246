package graph_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

func TestNewSortsNodesByID(t *testing.T) {
	nodes := []*graph.Node{
		fn("b.py", "g", 1, 2),
		mod("b.py"),
		fn("a.py", "f", 1, 2),
		mod("a.py"),
		cls("a.py", "C", 4, 9),
		fn("a.py", "C.m", 5, 6),
	}
	g := graph.New(nodes, nil)
	want := []string{"a.py", "a.py::C", "a.py::C.m", "a.py::f", "b.py", "b.py::g"}
	got := []string{}
	for i, n := range g.Nodes {
		got = append(got, n.ID)
		if j, ok := g.Index(n.ID); !ok || j != i {
			t.Errorf("Index(%q) = %d, %v; want %d, true", n.ID, j, ok, i)
		}
		if g.Node(n.ID) != n {
			t.Errorf("Node(%q) returned a different node", n.ID)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("node order = %q, want %q", got, want)
	}
	if _, ok := g.Index("missing.py"); ok {
		t.Error("Index(missing) reported ok")
	}
	if n := g.Node("missing.py"); n != nil {
		t.Errorf("Node(missing) = %+v, want nil", n)
	}
}

func TestNewMergesDuplicateEdges(t *testing.T) {
	nodes := func() []*graph.Node {
		return []*graph.Node{mod("a.py"), fn("a.py", "f", 1, 20), mod("b.py"), fn("b.py", "g", 1, 5)}
	}
	tests := []struct {
		name     string
		edges    []graph.EdgeSpec
		wantConf graph.Confidence
		wantLine []int
		wantSpec string
	}{
		{
			name: "strongest confidence, lines sorted and unique",
			edges: []graph.EdgeSpec{
				call("a.py::f", "b.py::g", graph.NameMatch, 9),
				call("a.py::f", "b.py::g", graph.Resolved, 3),
				call("a.py::f", "b.py::g", graph.Inferred, 9),
				call("a.py::f", "b.py::g", graph.NameMatch, 0),
				call("a.py::f", "b.py::g", graph.Inferred, 7),
			},
			wantConf: graph.Resolved,
			wantLine: []int{3, 7, 9},
		},
		{
			name: "lsp beats resolved regardless of order",
			edges: []graph.EdgeSpec{
				call("a.py::f", "b.py::g", graph.LSP, 5),
				call("a.py::f", "b.py::g", graph.Resolved, 4),
			},
			wantConf: graph.LSP,
			wantLine: []int{4, 5},
		},
		{
			name:     "no lines",
			edges:    []graph.EdgeSpec{call("a.py::f", "b.py::g", graph.Inferred, 0), call("a.py::f", "b.py::g", graph.Inferred, 0)},
			wantConf: graph.Inferred,
			wantLine: nil,
		},
		{
			name: "import spec kept from the spec that has one",
			edges: []graph.EdgeSpec{
				imp("a.py", "b.py", graph.Inferred, 2, ""),
				imp("a.py", "b.py", graph.Resolved, 4, "b"),
				imp("a.py", "b.py", graph.Inferred, 4, ""),
			},
			wantConf: graph.Resolved,
			wantLine: []int{2, 4},
			wantSpec: "b",
		},
		{
			name: "first spec in line order kept when specs differ",
			edges: []graph.EdgeSpec{
				imp("a.py", "b.py", graph.Resolved, 9, "pkg.b"),
				imp("a.py", "b.py", graph.Resolved, 3, "b"),
			},
			wantConf: graph.Resolved,
			wantLine: []int{3, 9},
			wantSpec: "b",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := graph.New(nodes(), tc.edges)
			if g.NumEdges() != 1 {
				t.Fatalf("got %d edges %q, want 1", g.NumEdges(), edgeStrings(g, allEdges(g)))
			}
			e := g.Edge(0)
			if e.Confidence != tc.wantConf {
				t.Errorf("confidence = %v, want %v", e.Confidence, tc.wantConf)
			}
			if !slices.Equal(e.Lines, tc.wantLine) {
				t.Errorf("lines = %v, want %v", e.Lines, tc.wantLine)
			}
			if e.Spec != tc.wantSpec {
				t.Errorf("spec = %q, want %q", e.Spec, tc.wantSpec)
			}
		})
	}
}

func TestNewKeepsDistinctEdgesApart(t *testing.T) {
	g := graph.New([]*graph.Node{mod("a.py"), mod("b.py"), fn("b.py", "g", 1, 2), fn("b.py", "h", 3, 4)}, []graph.EdgeSpec{
		call("a.py", "b.py::h", graph.Resolved, 3),
		imp("a.py", "b.py", graph.Resolved, 1, "b"),
		call("a.py", "b.py", graph.Inferred, 2), // same pair as the import, other type
		call("a.py", "b.py::g", graph.Resolved, 3),
		contains("b.py", "b.py::h"),
		contains("b.py", "b.py::g"),
	})
	// Canonical order: by From, then type (contains, import, call), then To.
	want := []string{
		"import a.py->b.py",
		"call a.py->b.py",
		"call a.py->b.py::g",
		"call a.py->b.py::h",
		"contains b.py->b.py::g",
		"contains b.py->b.py::h",
	}
	if got := edgeStrings(g, allEdges(g)); !slices.Equal(got, want) {
		t.Fatalf("edges = %q\nwant %q", got, want)
	}
	if g.Edge(0).Spec != "b" || g.Edge(1).Spec != "" {
		t.Errorf("specs = %q, %q; want \"b\", \"\"", g.Edge(0).Spec, g.Edge(1).Spec)
	}
}

func TestNewDropsInvalidEdges(t *testing.T) {
	nodes := []*graph.Node{mod("a.py"), fn("a.py", "f", 1, 9)}
	tests := []struct {
		name string
		edge graph.EdgeSpec
		keep bool
	}{
		{"unknown from", call("x.py::nope", "a.py::f", graph.Resolved, 1), false},
		{"unknown to", call("a.py::f", "x.py::nope", graph.Resolved, 1), false},
		{"unknown both", imp("x.py", "y.py", graph.Resolved, 1, "y"), false},
		{"self contains", contains("a.py", "a.py"), false},
		{"self import", imp("a.py", "a.py", graph.Resolved, 1, "a"), false},
		{"self call (recursion)", call("a.py::f", "a.py::f", graph.Resolved, 4), true},
		{"valid contains", contains("a.py", "a.py::f"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := graph.New(slices.Clone(nodes), []graph.EdgeSpec{tc.edge})
			if got := g.NumEdges() == 1; got != tc.keep {
				t.Fatalf("kept = %v (%q), want %v", got, edgeStrings(g, allEdges(g)), tc.keep)
			}
			if !tc.keep {
				return
			}
			e := g.Edge(0)
			if g.Nodes[e.From].ID != tc.edge.From || g.Nodes[e.To].ID != tc.edge.To || e.Type != tc.edge.Type {
				t.Errorf("edge = %q, want %s %s->%s", edgeStrings(g, []int{0}), tc.edge.Type, tc.edge.From, tc.edge.To)
			}
		})
	}
	// The recursive edge is indexed both ways on the same node.
	g := graph.New(slices.Clone(nodes), []graph.EdgeSpec{call("a.py::f", "a.py::f", graph.Resolved, 4)})
	f := idx(t, g, "a.py::f")
	if !slices.Equal(g.Out(f), []int{0}) || !slices.Equal(g.In(f), []int{0}) {
		t.Errorf("Out/In of recursive f = %v/%v, want [0]/[0]", g.Out(f), g.In(f))
	}
	if !slices.Equal(g.Edge(0).Lines, []int{4}) {
		t.Errorf("recursive call lines = %v, want [4]", g.Edge(0).Lines)
	}
}

// indexGraph: two Python files and a Go type with a method in another file.
func indexGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("a.py"),
		cls("a.py", "C", 1, 20),
		fn("a.py", "C.m", 2, 5),
		fn("a.py", "C.n", 6, 9),
		fn("a.py", "top", 22, 30),
		mod("b.py"),
		fn("b.py", "g", 1, 4),
		mod("t.go"),
		cls("t.go", "T", 3, 5),
		mod("t_methods.go"),
		{ID: "t_methods.go::T.M", Kind: graph.Func, Name: "M", Qual: "T.M", Path: "t_methods.go", StartLine: 3, EndLine: 9, Owner: "t.go::T"},
		fn("t_methods.go", "T.M.func1", 4, 6),
	},
		imp("a.py", "b.py", graph.Resolved, 1, "b"),
		call("a.py::top", "b.py::g", graph.Resolved, 24),
		call("a.py::C.m", "b.py::g", graph.Inferred, 3),
		call("a.py::C.n", "a.py::C.m", graph.Resolved, 7),
		call("b.py::g", "t_methods.go::T.M", graph.NameMatch, 2),
	)
}

func TestIndexes(t *testing.T) {
	g := indexGraph()
	id := func(s string) int { return idx(t, g, s) }

	if got, want := g.Files(), []string{"a.py", "b.py", "t.go", "t_methods.go"}; !slices.Equal(got, want) {
		t.Errorf("Files() = %q, want %q", got, want)
	}
	counts := []struct {
		k    graph.Kind
		want int
	}{{0, 12}, {graph.Module, 4}, {graph.Class, 2}, {graph.Func, 6}}
	for _, c := range counts {
		if got := g.Count(c.k); got != c.want {
			t.Errorf("Count(%v) = %d, want %d", c.k, got, c.want)
		}
	}
	ecounts := []struct {
		t    graph.EdgeType
		want int
	}{{0, 13}, {graph.Contains, 8}, {graph.Import, 1}, {graph.Call, 4}}
	for _, c := range ecounts {
		if got := g.CountEdges(c.t); got != c.want {
			t.Errorf("CountEdges(%v) = %d, want %d", c.t, got, c.want)
		}
	}

	if got, want := ids(g, g.InFile("a.py")), []string{"a.py", "a.py::C", "a.py::C.m", "a.py::C.n", "a.py::top"}; !reflect.DeepEqual(got, want) {
		t.Errorf("InFile(a.py) = %q, want %q", got, want)
	}
	if got := g.InFile("nope.py"); len(got) != 0 {
		t.Errorf("InFile(nope.py) = %v, want empty", got)
	}

	outs := map[string][]string{
		"a.py":      {"contains a.py->a.py::C", "contains a.py->a.py::top", "import a.py->b.py"},
		"a.py::C":   {"contains a.py::C->a.py::C.m", "contains a.py::C->a.py::C.n"},
		"a.py::C.n": {"call a.py::C.n->a.py::C.m"},
		"b.py::g":   {"call b.py::g->t_methods.go::T.M"},
		"t.go::T":   {},
	}
	for n, want := range outs {
		if got := edgeStrings(g, g.Out(id(n))); !slices.Equal(got, want) {
			t.Errorf("Out(%s) = %q, want %q", n, got, want)
		}
	}
	ins := map[string][]string{
		"b.py::g":           {"call a.py::C.m->b.py::g", "call a.py::top->b.py::g", "contains b.py->b.py::g"},
		"a.py::C.m":         {"contains a.py::C->a.py::C.m", "call a.py::C.n->a.py::C.m"},
		"t_methods.go::T.M": {"call b.py::g->t_methods.go::T.M", "contains t_methods.go->t_methods.go::T.M"},
		"a.py":              {},
	}
	for n, want := range ins {
		if got := edgeStrings(g, g.In(id(n))); !slices.Equal(got, want) {
			t.Errorf("In(%s) = %q, want %q", n, got, want)
		}
	}

	children := map[string][]string{
		"a.py":              {"a.py::C", "a.py::top"}, // not b.py: imports are not containment
		"a.py::C":           {"a.py::C.m", "a.py::C.n"},
		"t.go::T":           {}, // owned methods are not children
		"t_methods.go::T.M": {"t_methods.go::T.M.func1"},
		"b.py::g":           {},
	}
	for n, want := range children {
		if got := ids(g, g.Children(id(n))); !slices.Equal(got, want) {
			t.Errorf("Children(%s) = %q, want %q", n, got, want)
		}
	}
	parents := map[string]string{
		"a.py::C.m":               "a.py::C",
		"a.py::top":               "a.py",
		"t_methods.go::T.M":       "t_methods.go", // syntactic parent, not the owner
		"t_methods.go::T.M.func1": "t_methods.go::T.M",
	}
	for n, want := range parents {
		p := g.Parent(id(n))
		if p < 0 || g.Nodes[p].ID != want {
			t.Errorf("Parent(%s) = %d, want %s", n, p, want)
		}
	}
	for _, n := range []string{"a.py", "b.py"} {
		if p := g.Parent(id(n)); p != -1 {
			t.Errorf("Parent(%s) = %d, want -1", n, p)
		}
	}

	degrees := map[string]int{"a.py": 1, "b.py::g": 3, "a.py::C": 0, "a.py::C.m": 2, "t_methods.go::T.M": 1}
	for n, want := range degrees {
		if got := g.Degree(id(n)); got != want {
			t.Errorf("Degree(%s) = %d, want %d", n, got, want)
		}
	}
}

func TestDescendants(t *testing.T) {
	g := build([]*graph.Node{
		mod("a.go"),
		cls("a.go", "T", 3, 5),
		fn("a.go", "NewT", 7, 9),
		mod("b.go"),
		{ID: "b.go::T.M", Kind: graph.Func, Name: "M", Qual: "T.M", Path: "b.go", StartLine: 3, EndLine: 9, Owner: "a.go::T"},
		fn("b.go", "T.M.func1", 4, 6),
		{ID: "b.go::U.N", Kind: graph.Func, Name: "N", Qual: "U.N", Path: "b.go", StartLine: 11, EndLine: 12, Owner: "missing.go::U"},
		mod("x.py"),
		cls("x.py", "Outer", 1, 30),
		cls("x.py", "Outer.Inner", 2, 10),
		fn("x.py", "Outer.Inner.deep", 3, 5),
		fn("x.py", "Outer.m", 12, 20),
		fn("x.py", "free", 32, 40),
	})
	tests := []struct {
		target string
		want   []string
	}{
		{"a.go::T", []string{"b.go::T.M", "b.go::T.M.func1"}},
		{"b.go::T.M", []string{"b.go::T.M.func1"}},
		{"x.py::Outer", []string{"x.py::Outer.Inner", "x.py::Outer.Inner.deep", "x.py::Outer.m"}},
		{"x.py::Outer.Inner", []string{"x.py::Outer.Inner.deep"}},
		{"x.py", []string{"x.py::Outer", "x.py::Outer.Inner", "x.py::Outer.Inner.deep", "x.py::Outer.m", "x.py::free"}},
		// A module walks through its classes, so it also reaches their
		// owned methods in other files.
		{"a.go", []string{"a.go::NewT", "a.go::T", "b.go::T.M", "b.go::T.M.func1"}},
		{"b.go", []string{"b.go::T.M", "b.go::T.M.func1", "b.go::U.N"}},
		{"x.py::free", []string{}},
		{"b.go::U.N", []string{}}, // owner id unknown: ignored
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			got := ids(g, g.Descendants(idx(t, g, tc.target)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Descendants(%s) = %q, want %q", tc.target, got, tc.want)
			}
		})
	}
	// Seeds: functions are their own only seed; classes and modules add
	// their descendants.
	seeds := []struct {
		target string
		want   []string
	}{
		{"x.py::free", []string{"x.py::free"}},
		{"a.go::T", []string{"a.go::T", "b.go::T.M", "b.go::T.M.func1"}},
		{"b.go::T.M", []string{"b.go::T.M"}},
	}
	for _, tc := range seeds {
		if got := ids(g, g.Seeds(idx(t, g, tc.target))); !slices.Equal(got, tc.want) {
			t.Errorf("Seeds(%s) = %q, want %q", tc.target, got, tc.want)
		}
	}
}

func TestStrings(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{graph.Module.String(), "module"},
		{graph.Class.String(), "class"},
		{graph.Func.String(), "func"},
		{graph.Kind(0).String(), "unknown"},
		{graph.Kind(9).String(), "unknown"},
		{graph.Contains.String(), "contains"},
		{graph.Import.String(), "import"},
		{graph.Call.String(), "call"},
		{graph.EdgeType(0).String(), "unknown"},
		{graph.EdgeType(7).String(), "unknown"},
		{graph.NameMatch.String(), "name-match"},
		{graph.Inferred.String(), "inferred"},
		{graph.Resolved.String(), "resolved"},
		{graph.LSP.String(), "lsp"},
		{graph.Precise.String(), "precise"},
		{graph.Confidence(6).String(), "unknown"},
		{graph.Confidence(255).String(), "unknown"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: String() = %q, want %q", i, tc.got, tc.want)
		}
	}
}

func TestParseConfidence(t *testing.T) {
	levels := []graph.Confidence{graph.NameMatch, graph.Inferred, graph.Resolved, graph.LSP, graph.Precise}
	for i, c := range levels {
		got, err := graph.ParseConfidence(c.String())
		if err != nil || got != c {
			t.Errorf("ParseConfidence(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
		if i > 0 && !(levels[i-1] < c) {
			t.Errorf("%v is not stronger than %v", c, levels[i-1])
		}
	}
	for _, s := range []string{"", "unknown", "Resolved", "RESOLVED", " lsp", "lsp ", "name_match", "namematch", "exact", "0", "3"} {
		c, err := graph.ParseConfidence(s)
		if err == nil {
			t.Errorf("ParseConfidence(%q) = %v, nil; want an error", s, c)
			continue
		}
		if c != 0 {
			t.Errorf("ParseConfidence(%q) returned %v with its error, want 0", s, c)
		}
	}
}

func TestLoc(t *testing.T) {
	if got := mod("pkg/a.py").Loc(); got != "pkg/a.py" {
		t.Errorf("module Loc = %q", got)
	}
	if got := fn("pkg/a.py", "C.m", 39, 43).Loc(); got != "pkg/a.py:39" {
		t.Errorf("func Loc = %q", got)
	}
}

// TestNewChunks: edges given file by file build the graph New builds from
// them all, whichever chunk holds the spec of an import, and the chunks
// are released.
func TestNewChunks(t *testing.T) {
	nodes := func() []*graph.Node {
		return []*graph.Node{mod("a.py"), mod("b.py"), mod("c.py"), fn("b.py", "g", 1, 2), fn("c.py", "h", 1, 2)}
	}
	chunks := [][]graph.EdgeSpec{
		{imp("a.py", "b.py", graph.Inferred, 2, ""), call("a.py", "b.py::g", graph.Inferred, 5)},
		nil,
		{contains("b.py", "b.py::g"), imp("a.py", "b.py", graph.Resolved, 4, "b"), call("b.py::g", "c.py::h", graph.Resolved, 1)},
		{contains("c.py", "c.py::h"), imp("b.py", "c.py", graph.Resolved, 1, "c"), call("a.py", "b.py::g", graph.Resolved, 6)},
	}
	var all []graph.EdgeSpec
	for _, c := range chunks {
		all = append(all, c...)
	}
	want := graph.New(nodes(), all)
	got := graph.NewChunks(nodes(), chunks)
	if w, g := edgeStrings(want, allEdges(want)), edgeStrings(got, allEdges(got)); !slices.Equal(w, g) {
		t.Errorf("edges from chunks:\n%s\nwant:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	for i := 0; i < got.NumEdges(); i++ {
		if w, g := want.Edge(i), got.Edge(i); w.Spec != g.Spec || !slices.Equal(w.Lines, g.Lines) || w.Confidence != g.Confidence {
			t.Errorf("edge %d: %+v, want %+v", i, g, w)
		}
	}
	specs := map[string]string{}
	for i := 0; i < got.NumEdges(); i++ {
		if e := got.Edge(i); e.Type == graph.Import {
			specs[got.Nodes[e.From].ID+"->"+got.Nodes[e.To].ID] = e.Spec
		}
	}
	if specs["a.py->b.py"] != "b" || specs["b.py->c.py"] != "c" {
		t.Errorf("import specs %v, want a.py->b.py b (from a later chunk) and b.py->c.py c", specs)
	}
	for i, c := range chunks {
		if c != nil {
			t.Errorf("chunk %d not released", i)
		}
	}
}
