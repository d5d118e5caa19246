package graph_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// nbString renders a neighbour as "id calls=N conf lines@path".
func nbString(g *graph.Graph, nb graph.Neighbor) string {
	return fmt.Sprintf("%s calls=%d %s %v@%s", g.Nodes[nb.Node].ID, nb.Calls, nb.Confidence, nb.Lines, nb.Path)
}

func nbStrings(g *graph.Graph, nbs []graph.Neighbor) []string {
	out := []string{}
	for _, nb := range nbs {
		out = append(out, nbString(g, nb))
	}
	return out
}

// neighborGraph: class Target called from two methods of class Other, from
// free functions, and calling a helper and another class's method.
func neighborGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("target.py"),
		cls("target.py", "Target", 1, 30),
		fn("target.py", "Target.a", 2, 10),
		fn("target.py", "Target.b", 12, 20),
		mod("other.py"),
		cls("other.py", "Other", 1, 20),
		fn("other.py", "Other.m1", 3, 8),
		fn("other.py", "Other.m2", 10, 15),
		cls("other.py", "Other.Nested", 16, 20),
		fn("other.py", "Other.Nested.deep", 17, 19),
		mod("free.py"),
		fn("free.py", "one", 1, 5),
		fn("free.py", "two", 18, 25),
		fn("free.py", "three", 30, 35),
		mod("util.py"),
		fn("util.py", "log", 1, 3),
	},
		call("other.py::Other.m1", "target.py::Target.a", graph.Resolved, 5),
		call("other.py::Other.m2", "target.py::Target.b", graph.Inferred, 12),
		call("free.py::one", "target.py::Target.a", graph.Resolved, 3),
		call("free.py::two", "target.py::Target.a", graph.Inferred, 20),
		call("free.py::two", "target.py::Target.b", graph.Inferred, 22),
		call("free.py::two", "target.py::Target.b", graph.NameMatch, 20),
		call("free.py::three", "target.py::Target.b", graph.Resolved, 31),
		call("target.py::Target.a", "target.py::Target.b", graph.Resolved, 4),  // inside the target
		call("target.py::Target.b", "target.py::Target.b", graph.Resolved, 14), // recursion
		call("target.py::Target.b", "util.py::log", graph.Resolved, 15),
		call("target.py::Target.a", "util.py::log", graph.Inferred, 4),
		call("target.py::Target.a", "other.py::Other.m2", graph.NameMatch, 6),
		call("target.py::Target.b", "other.py::Other.Nested.deep", graph.Inferred, 16),
	)
}

func TestNeighbors(t *testing.T) {
	g := neighborGraph()
	tests := []struct {
		name   string
		target string
		dir    graph.Direction
		f      graph.Filter
		want   []string
	}{
		{
			name:   "class callers aggregated per class, ordered by confidence, calls, id",
			target: "target.py::Target", dir: graph.In,
			want: []string{
				"other.py::Other calls=2 resolved [5 12]@other.py",
				"free.py::one calls=1 resolved [3]@free.py",
				"free.py::three calls=1 resolved [31]@free.py",
				"free.py::two calls=2 inferred [20 22]@free.py",
			},
		},
		{
			name:   "min confidence drops weaker calls before counting",
			target: "target.py::Target", dir: graph.In, f: graph.Filter{MinConfidence: graph.Resolved},
			want: []string{
				"free.py::one calls=1 resolved [3]@free.py",
				"free.py::three calls=1 resolved [31]@free.py",
				"other.py::Other calls=1 resolved [5]@other.py",
			},
		},
		{
			name:   "class callees: internal and recursive calls left out, nested classes aggregate to the outermost",
			target: "target.py::Target", dir: graph.Out,
			want: []string{
				"util.py::log calls=2 resolved [4 15]@target.py",
				"other.py::Other calls=2 inferred [6 16]@target.py",
			},
		},
		{
			name:   "function callers are not aggregated",
			target: "target.py::Target.b", dir: graph.In,
			want: []string{
				"free.py::three calls=1 resolved [31]@free.py",
				"target.py::Target.a calls=1 resolved [4]@target.py",
				"free.py::two calls=2 inferred [20 22]@free.py",
				"other.py::Other.m2 calls=1 inferred [12]@other.py",
			},
		},
		{
			name:   "function callees",
			target: "target.py::Target.b", dir: graph.Out,
			want: []string{
				"util.py::log calls=1 resolved [15]@target.py",
				"other.py::Other.Nested.deep calls=1 inferred [16]@target.py",
			},
		},
		{
			name:   "module target aggregates like a class",
			target: "other.py", dir: graph.Out,
			want: []string{
				"target.py::Target calls=2 resolved [5 12]@other.py",
			},
		},
		{
			name:   "no neighbours",
			target: "util.py::log", dir: graph.Out,
			want: []string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := nbStrings(g, g.Neighbors(idx(t, g, tc.target), tc.dir, tc.f))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Neighbors(%s) =\n%q\nwant\n%q", tc.target, got, tc.want)
			}
		})
	}
}

func TestNeighborsIgnoresImports(t *testing.T) {
	g := build([]*graph.Node{mod("a.py"), mod("b.py"), fn("b.py", "g", 1, 2)},
		imp("a.py", "b.py", graph.Resolved, 1, "b"))
	for _, target := range []string{"a.py", "b.py"} {
		for _, dir := range []graph.Direction{graph.In, graph.Out} {
			if got := g.Neighbors(idx(t, g, target), dir, graph.Filter{Imports: true}); len(got) != 0 {
				t.Errorf("Neighbors(%s, %d) = %q, want none (imports are not calls)", target, dir, nbStrings(g, got))
			}
		}
	}
}

func TestNeighborsOwnedMethods(t *testing.T) {
	// Go: type T in t.go, its methods in other files; callers of any
	// method aggregate to T when T is the target, and callers that are
	// methods of another type aggregate to that type through Owner.
	g := build([]*graph.Node{
		mod("t.go"), cls("t.go", "T", 3, 5),
		mod("t_a.go"),
		{ID: "t_a.go::T.A", Kind: graph.Func, Name: "A", Qual: "T.A", Path: "t_a.go", StartLine: 3, EndLine: 9, Owner: "t.go::T"},
		mod("u.go"), cls("u.go", "U", 1, 2),
		mod("u_x.go"),
		{ID: "u_x.go::U.X", Kind: graph.Func, Name: "X", Qual: "U.X", Path: "u_x.go", StartLine: 3, EndLine: 9, Owner: "u.go::U"},
		{ID: "u_x.go::U.Y", Kind: graph.Func, Name: "Y", Qual: "U.Y", Path: "u_x.go", StartLine: 11, EndLine: 19, Owner: "u.go::U"},
		fn("u_x.go", "U.Y.func1", 12, 14),
	},
		call("u_x.go::U.X", "t_a.go::T.A", graph.Resolved, 5),
		call("u_x.go::U.Y.func1", "t_a.go::T.A", graph.Inferred, 13),
	)
	got := nbStrings(g, g.Neighbors(idx(t, g, "t.go::T"), graph.In, graph.Filter{}))
	want := []string{"u.go::U calls=2 resolved [5 13]@u_x.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Neighbors(T, In) = %q, want %q", got, want)
	}
	got = nbStrings(g, g.Neighbors(idx(t, g, "t_a.go::T.A"), graph.In, graph.Filter{}))
	want = []string{"u_x.go::U.X calls=1 resolved [5]@u_x.go", "u_x.go::U.Y.func1 calls=1 inferred [13]@u_x.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Neighbors(T.A, In) = %q, want %q", got, want)
	}
}

// A caller class whose methods live in two files: Calls counts both call
// edges, but Neighbor has a single Path, so only the call sites in the
// first file seen are kept. This pins the current behaviour.
func TestNeighborsCallSitesInSeveralFiles(t *testing.T) {
	g := build([]*graph.Node{
		mod("t.go"), fn("t.go", "F", 1, 5),
		mod("u.go"), cls("u.go", "U", 1, 2),
		mod("u_x.go"),
		{ID: "u_x.go::U.X", Kind: graph.Func, Name: "X", Qual: "U.X", Path: "u_x.go", StartLine: 3, EndLine: 9, Owner: "u.go::U"},
		mod("u_z.go"),
		{ID: "u_z.go::U.Z", Kind: graph.Func, Name: "Z", Qual: "U.Z", Path: "u_z.go", StartLine: 3, EndLine: 9, Owner: "u.go::U"},
		mod("v.go"), cls("v.go", "V", 1, 9),
		fn("v.go", "V.m", 2, 8),
	},
		call("u_x.go::U.X", "t.go::F", graph.Resolved, 5),
		call("u_z.go::U.Z", "t.go::F", graph.Resolved, 7),
		call("v.go::V.m", "u_x.go::U.X", graph.Resolved, 3),
		call("v.go::V.m", "u_z.go::U.Z", graph.Resolved, 4),
	)
	// A module target aggregates callers per class; call sites are kept
	// per file (Path/Lines are the first site).
	nbs := g.Neighbors(idx(t, g, "t.go"), graph.In, graph.Filter{})
	got := nbStrings(g, nbs)
	want := []string{"u.go::U calls=2 resolved [5]@u_x.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Neighbors(t.go, In) = %q, want %q", got, want)
	}
	if len(nbs) != 1 || fmt.Sprint(nbs[0].Sites) != "[{u_x.go [5]} {u_z.go [7]}]" {
		t.Errorf("sites of U: %+v, want both files", nbs)
	}
	// Class target: its callees in two files.
	got = nbStrings(g, g.Neighbors(idx(t, g, "u.go::U"), graph.Out, graph.Filter{}))
	want = []string{"t.go::F calls=2 resolved [5]@u_x.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Neighbors(U, Out) = %q, want %q", got, want)
	}
	got = nbStrings(g, g.Neighbors(idx(t, g, "u.go::U"), graph.In, graph.Filter{}))
	want = []string{"v.go::V calls=2 resolved [3 4]@v.go"}
	if !slices.Equal(got, want) {
		t.Errorf("Neighbors(U, In) = %q, want %q", got, want)
	}
}

// testsGraph: lib.core is called by wrap, by a test helper and a test; wrap
// is called by main and another test; a test module imports lib.py.
func testsGraph() *graph.Graph {
	nodes := []*graph.Node{
		mod("app.py"),
		fn("app.py", "main", 1, 5),
		mod("lib.py"),
		fn("lib.py", "core", 1, 5),
		fn("lib.py", "wrap", 7, 10),
		mod("tests/test_lib.py"),
		fn("tests/test_lib.py", "helper", 1, 3),
		fn("tests/test_lib.py", "test_core", 5, 8),
		fn("tests/test_lib.py", "test_wrap", 10, 14),
		mod("tests/test_imports.py"),
	}
	for _, n := range nodes {
		if n.Path != "app.py" && n.Path != "lib.py" {
			n.Test = n.Kind == graph.Module || n.Name != "helper"
		}
	}
	return build(nodes,
		call("lib.py::wrap", "lib.py::core", graph.Resolved, 8),
		call("tests/test_lib.py::helper", "lib.py::core", graph.Inferred, 2),
		call("tests/test_lib.py::test_core", "lib.py::core", graph.Resolved, 6),
		call("tests/test_lib.py::test_core", "lib.py::core", graph.Resolved, 7),
		call("tests/test_lib.py::test_wrap", "lib.py::wrap", graph.NameMatch, 11),
		call("app.py::main", "lib.py::wrap", graph.Resolved, 2),
		imp("tests/test_imports.py", "lib.py", graph.Resolved, 1, "lib"),
	)
}

func TestTests(t *testing.T) {
	g := testsGraph()
	tests := []struct {
		target string
		depth  int
		f      graph.Filter
		want   []string
	}{
		{"lib.py::core", 0, graph.Filter{}, []string{"tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}},
		{"lib.py::core", 1, graph.Filter{}, []string{"tests/test_lib.py::test_core"}},
		{"lib.py::core", 2, graph.Filter{}, []string{"tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}},
		{"lib.py::core", 0, graph.Filter{MinConfidence: graph.Inferred}, []string{"tests/test_lib.py::test_core"}},
		{"lib.py::wrap", 0, graph.Filter{}, []string{"tests/test_lib.py::test_wrap"}},
		{"app.py::main", 0, graph.Filter{}, []string{}},
		// A test is among its own tests (seed), a test module adds its
		// test functions.
		{"tests/test_lib.py::test_core", 0, graph.Filter{}, []string{"tests/test_lib.py::test_core"}},
		{"tests/test_lib.py", 0, graph.Filter{}, []string{"tests/test_lib.py", "tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}},
		// Test modules are reached through imports when asked.
		{"lib.py", 0, graph.Filter{}, []string{"tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}},
		{"lib.py", 0, graph.Filter{Imports: true}, []string{"tests/test_imports.py", "tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d/%+v", tc.target, tc.depth, tc.f), func(t *testing.T) {
			if got := ids(g, g.Tests(idx(t, g, tc.target), tc.depth, tc.f)); !slices.Equal(got, tc.want) {
				t.Errorf("Tests = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestImpact(t *testing.T) {
	g := testsGraph()
	core := idx(t, g, "lib.py::core")
	im := g.Impact(core, 0, graph.Filter{})
	if im.Target != core || im.Depth != 0 {
		t.Errorf("Target, Depth = %d, %d; want %d, 0", im.Target, im.Depth, core)
	}
	// test_core's two call sites are one merged edge but two calls (the
	// picture labels its arrow ×2); more calls rank first, ties on
	// confidence and calls fall back to id order.
	wantCallers := []string{
		"tests/test_lib.py::test_core calls=2 resolved [6 7]@tests/test_lib.py",
		"lib.py::wrap calls=1 resolved [8]@lib.py",
		"tests/test_lib.py::helper calls=1 inferred [2]@tests/test_lib.py",
	}
	if got := nbStrings(g, im.Callers); !slices.Equal(got, wantCallers) {
		t.Errorf("Callers = %q\nwant %q", got, wantCallers)
	}
	if len(im.Callees) != 0 {
		t.Errorf("Callees = %q, want none", nbStrings(g, im.Callees))
	}
	wantUp := []string{
		"lib.py::wrap@1", "tests/test_lib.py::helper@1", "tests/test_lib.py::test_core@1",
		"app.py::main@2", "tests/test_lib.py::test_wrap@2",
	}
	if got := hitStrings(g, im.Upstream); !slices.Equal(got, wantUp) {
		t.Errorf("Upstream = %q, want %q", got, wantUp)
	}
	if got, want := ids(g, im.Tests), []string{"tests/test_lib.py::test_core", "tests/test_lib.py::test_wrap"}; !slices.Equal(got, want) {
		t.Errorf("Tests = %q, want %q", got, want)
	}
	if got, want := im.Files(g), []string{"lib.py", "tests/test_lib.py", "app.py"}; !slices.Equal(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}

	im = g.Impact(core, 1, graph.Filter{MinConfidence: graph.Resolved})
	if got, want := hitStrings(g, im.Upstream), []string{"lib.py::wrap@1", "tests/test_lib.py::test_core@1"}; !slices.Equal(got, want) {
		t.Errorf("depth 1 resolved Upstream = %q, want %q", got, want)
	}
	if got, want := ids(g, im.Tests), []string{"tests/test_lib.py::test_core"}; !slices.Equal(got, want) {
		t.Errorf("depth 1 resolved Tests = %q, want %q", got, want)
	}
	if got, want := im.Files(g), []string{"lib.py", "tests/test_lib.py"}; !slices.Equal(got, want) {
		t.Errorf("depth 1 resolved Files = %q, want %q", got, want)
	}
	if len(im.Callers) != 2 || im.Depth != 1 {
		t.Errorf("depth 1 resolved Callers = %q, Depth = %d; want 2 callers, depth 1", nbStrings(g, im.Callers), im.Depth)
	}

	wrap := g.Impact(idx(t, g, "lib.py::wrap"), 0, graph.Filter{})
	if got, want := nbStrings(g, wrap.Callees), []string{"lib.py::core calls=1 resolved [8]@lib.py"}; !slices.Equal(got, want) {
		t.Errorf("wrap Callees = %q, want %q", got, want)
	}
	if got := (graph.Impact{}).Files(g); len(got) != 0 {
		t.Errorf("empty impact Files = %q", got)
	}
}

func TestDescribe(t *testing.T) {
	g := build([]*graph.Node{mod("shop/models.py"), cls("shop/models.py", "Cart", 30, 60), fn("shop/models.py", "Cart.add", 39, 43)})
	tests := map[string]string{
		"shop/models.py::Cart.add": "Cart.add (func) shop/models.py:39",
		"shop/models.py::Cart":     "Cart (class) shop/models.py:30",
		"shop/models.py":           "shop/models.py (module) shop/models.py",
	}
	for id, want := range tests {
		if got := g.Describe(idx(t, g, id)); got != want {
			t.Errorf("Describe(%s) = %q, want %q", id, got, want)
		}
	}
}
