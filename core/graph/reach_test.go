package graph

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTestsOf: tests are found through the whole reverse call closure (not
// a display depth), through interface methods a Go type implements
// (marked), and a search cut by its budget says so.
func TestTestsOf(t *testing.T) {
	nodes := []*Node{
		{ID: "n.go::Notifier", Kind: Class, Name: "Notifier", Path: "n.go", Lang: "go", Signature: "Notifier interface"},
		{ID: "n.go::Notifier.Notify", Kind: Func, Name: "Notify", Path: "n.go", Lang: "go"},
		{ID: "n.go::Notifier.Close", Kind: Func, Name: "Close", Path: "n.go", Lang: "go"},
		{ID: "e.go::Email", Kind: Class, Name: "Email", Path: "e.go", Lang: "go", Signature: "Email struct"},
		{ID: "e.go::Email.Notify", Kind: Func, Name: "Notify", Path: "e.go", Lang: "go", Owner: "e.go::Email"},
		{ID: "e.go::Email.Close", Kind: Func, Name: "Close", Path: "e.go", Lang: "go", Owner: "e.go::Email"},
		{ID: "h.go::Half", Kind: Class, Name: "Half", Path: "h.go", Lang: "go", Signature: "Half struct"},
		{ID: "h.go::Half.Notify", Kind: Func, Name: "Notify", Path: "h.go", Lang: "go", Owner: "h.go::Half"},
		{ID: "a.go::run", Kind: Func, Name: "run", Path: "a.go", Lang: "go"},
		{ID: "a.go::deep1", Kind: Func, Name: "deep1", Path: "a.go", Lang: "go"},
		{ID: "a.go::deep2", Kind: Func, Name: "deep2", Path: "a.go", Lang: "go"},
		{ID: "a.go::deep3", Kind: Func, Name: "deep3", Path: "a.go", Lang: "go"},
		{ID: "a_test.go::TestRun", Kind: Func, Name: "TestRun", Path: "a_test.go", Lang: "go", Test: true},
		{ID: "a_test.go::TestDeep", Kind: Func, Name: "TestDeep", Path: "a_test.go", Lang: "go", Test: true},
		{ID: "a_test.go::TestEmail", Kind: Func, Name: "TestEmail", Path: "a_test.go", Lang: "go", Test: true},
	}
	call := func(from, to string) EdgeSpec {
		return EdgeSpec{From: from, To: to, Type: Call, Confidence: Resolved, Line: 1}
	}
	g := New(nodes, []EdgeSpec{
		call("a.go::run", "n.go::Notifier.Notify"), // through the interface
		call("a_test.go::TestRun", "a.go::run"),
		call("a_test.go::TestEmail", "e.go::Email.Notify"), // directly
		// four hops deep
		call("a.go::deep1", "e.go::Email.Close"),
		call("a.go::deep2", "a.go::deep1"),
		call("a.go::deep3", "a.go::deep2"),
		call("a_test.go::TestDeep", "a.go::deep3"),
	})
	tests := func(id string, budget int) string {
		i, _ := g.Index(id)
		r := g.TestsOf(i, Filter{}, budget)
		var out []string
		for _, t := range r.Tests {
			s := g.Nodes[t].Name
			if r.Dispatch[t] {
				s += "(interface)"
			}
			out = append(out, s)
		}
		return fmt.Sprintf("%v complete=%v", out, r.Complete)
	}
	for _, c := range []struct {
		id     string
		budget int
		want   string
	}{
		{"e.go::Email.Notify", 0, "[TestEmail TestRun(interface)] complete=true"},
		{"e.go::Email.Close", 0, "[TestDeep] complete=true"},    // four hops, past a depth of 3
		{"h.go::Half.Notify", 0, "[] complete=true"},            // Half lacks Close: not a Notifier
		{"n.go::Notifier.Notify", 0, "[TestRun] complete=true"}, // the interface method itself
		{"e.go::Email.Close", 2, "[] complete=false"},           // cut by the budget
	} {
		if got := tests(c.id, c.budget); got != c.want {
			t.Errorf("TestsOf(%s, budget %d) = %s, want %s", c.id, c.budget, got, c.want)
		}
	}
}

// TestTestsOfReferences: a function named as a value is reached by the
// tests that reach where it is named, marked as found through a value; a
// function named in a class body is reached through the class's methods.
func TestTestsOfReferences(t *testing.T) {
	nodes := []*Node{
		{ID: "lex.go::lexText", Kind: Func, Name: "lexText", Path: "lex.go", Lang: "go"},
		{ID: "lex.go::lex", Kind: Func, Name: "lex", Path: "lex.go", Lang: "go"},
		{ID: "lex_test.go::TestLex", Kind: Func, Name: "TestLex", Path: "lex_test.go", Lang: "go", Test: true},
		{ID: "p.py::P", Kind: Class, Name: "P", Path: "p.py", Lang: "python"},
		{ID: "p.py::P.format", Kind: Func, Name: "format", Path: "p.py", Lang: "python"},
		{ID: "p.py::P._pprint_dict", Kind: Func, Name: "_pprint_dict", Path: "p.py", Lang: "python"},
		{ID: "test_p.py::test_dict", Kind: Func, Name: "test_dict", Path: "test_p.py", Lang: "python", Test: true},
		{ID: "lex.go::unused", Kind: Func, Name: "unused", Path: "lex.go", Lang: "go"},
	}
	g := New(nodes, []EdgeSpec{
		{From: "lex.go::lex", To: "lex.go::lexText", Type: Ref, Confidence: Resolved, Line: 3},
		{From: "lex_test.go::TestLex", To: "lex.go::lex", Type: Call, Confidence: Resolved, Line: 5},
		{From: "p.py::P", To: "p.py::P._pprint_dict", Type: Ref, Confidence: Resolved, Line: 9},
		{From: "p.py::P", To: "p.py::P.format", Type: Contains},
		{From: "p.py::P", To: "p.py::P._pprint_dict", Type: Contains},
		{From: "test_p.py::test_dict", To: "p.py::P.format", Type: Call, Confidence: Resolved, Line: 2},
	})
	for _, c := range []struct{ target, want string }{
		{"lex.go::lexText", "TestLex(value)"},
		{"lex.go::lex", "TestLex"},
		{"p.py::P._pprint_dict", "test_dict(value)"},
		{"lex.go::unused", ""},
	} {
		i, _ := g.Index(c.target)
		if got := testNames(g, g.TestsOf(i, Filter{}, 0)); got != c.want {
			t.Errorf("tests of %s = %q, want %q", c.target, got, c.want)
		}
	}
	// Impact slices follow calls only unless asked.
	i, _ := g.Index("lex.go::lexText")
	if hs := g.Slice(i, In, 0, Filter{}); len(hs) != 0 {
		t.Errorf("a call slice follows a reference: %v", hs)
	}
	if hs := g.Slice(i, In, 0, Filter{Refs: true}); len(hs) != 2 {
		t.Errorf("a slice with Refs: %d hits, want 2 (lex, TestLex)", len(hs))
	}
}

// TestTestsOfDispatchNeedsAValue: a test reaches a method through an
// interface only if it makes a value of the method's type (rapid type
// analysis per test), so interfaces with many implementations (pflag's
// Value) name the tests that can really run each one. A type nothing makes
// (values from elsewhere) or one made at package level is not filtered; a
// direct call needs no value check.
func TestTestsOfDispatchNeedsAValue(t *testing.T) {
	nodes := []*Node{
		{ID: "v.go", Kind: Module, Name: "v.go", Path: "v.go", Lang: "go"},
		{ID: "v.go::Value", Kind: Class, Name: "Value", Path: "v.go", Lang: "go", Signature: "Value interface"},
		{ID: "v.go::Value.String", Kind: Func, Name: "String", Path: "v.go", Lang: "go"},
		{ID: "v.go::use", Kind: Func, Name: "use", Path: "v.go", Lang: "go"},
		{ID: "t_test.go::TestA", Kind: Func, Name: "TestA", Path: "t_test.go", Lang: "go", Test: true},
		{ID: "t_test.go::TestB", Kind: Func, Name: "TestB", Path: "t_test.go", Lang: "go", Test: true},
		{ID: "t_test.go::TestC", Kind: Func, Name: "TestC", Path: "t_test.go", Lang: "go", Test: true},
		{ID: "t_test.go::TestD", Kind: Func, Name: "TestD", Path: "t_test.go", Lang: "go", Test: true},
	}
	call := func(from, to string) EdgeSpec {
		return EdgeSpec{From: from, To: to, Type: Call, Confidence: Resolved, Line: 1}
	}
	makes := func(from, to string) EdgeSpec {
		return EdgeSpec{From: from, To: to, Type: Ref, Confidence: Resolved, Line: 1}
	}
	edges := []EdgeSpec{
		call("v.go::use", "v.go::Value.String"),
		call("t_test.go::TestA", "v.go::use"),
		call("t_test.go::TestB", "v.go::use"),
		call("t_test.go::TestC", "v.go::use"),
		call("t_test.go::TestA", "v.go::newV0"),
		call("t_test.go::TestB", "v.go::newV1"),
		call("t_test.go::TestD", "v.go::V2.String"), // directly, no value made
		makes("v.go::V3", "v.go::V3.String"),        // a callback table: not a value made
		makes("v.go", "v.go::V3"),                   // made at package level
		// V5: nothing makes one here
	}
	// Six implementations: more than an interface used to be allowed.
	for k := 0; k < 6; k++ {
		typ := fmt.Sprintf("v.go::V%d", k)
		nodes = append(nodes,
			&Node{ID: typ, Kind: Class, Name: fmt.Sprintf("V%d", k), Path: "v.go", Lang: "go", Signature: fmt.Sprintf("V%d struct", k)},
			&Node{ID: typ + ".String", Kind: Func, Name: "String", Path: "v.go", Lang: "go", Owner: typ})
		if k <= 2 || k == 4 {
			ctor := fmt.Sprintf("v.go::newV%d", k)
			nodes = append(nodes, &Node{ID: ctor, Kind: Func, Name: fmt.Sprintf("newV%d", k), Path: "v.go", Lang: "go"})
			edges = append(edges, makes(ctor, typ))
		}
	}
	g := New(nodes, edges)
	for _, c := range []struct{ target, want string }{
		{"v.go::V0.String", "TestA(interface)"},
		{"v.go::V1.String", "TestB(interface)"},
		{"v.go::V2.String", "TestD"},                                              // newV2 is never called by a test
		{"v.go::V3.String", "TestA(interface) TestB(interface) TestC(interface)"}, // made at initialisation
		{"v.go::V4.String", ""},                                                   // made, but by no test
		{"v.go::V5.String", "TestA(interface) TestB(interface) TestC(interface)"}, // made elsewhere: unknown
	} {
		i, ok := g.Index(c.target)
		if !ok {
			t.Fatalf("no node %s", c.target)
		}
		if got := testNames(g, g.TestsOf(i, Filter{}, 0)); got != c.want {
			t.Errorf("tests of %s = %q, want %q", c.target, got, c.want)
		}
	}
}

// testNames renders a search's tests by name, marking those found only
// through an interface "(interface)" and only through a reference
// "(value)".
func testNames(g *Graph, r TestReach) string {
	var got []string
	for _, x := range r.Tests {
		s := g.Nodes[x].Name
		switch {
		case r.Dispatch[x]:
			s += "(interface)"
		case r.Value[x]:
			s += "(value)"
		}
		got = append(got, s)
	}
	return strings.Join(got, " ")
}

// fakeRuns is a recording: function id -> tests seen running it.
type fakeRuns struct {
	ran   map[string][]string
	tests []string
}

func (f fakeRuns) TestsRan(id string) ([]string, bool) { ts, ok := f.ran[id]; return ts, ok }
func (f fakeRuns) Recorded(id string) bool             { return slices.Contains(f.tests, id) }

// TestTestsOfWithRuns: a recording that knows a function replaces the
// graph's tests by those it saw running it, keeps the tests it did not
// run, adds tests the graph cannot see, and says nothing of functions it
// does not know.
func TestTestsOfWithRuns(t *testing.T) {
	nodes := []*Node{
		{ID: "p.py::P", Kind: Class, Name: "P", Path: "p.py", Lang: "python"},
		{ID: "p.py::P.wrap", Kind: Func, Name: "wrap", Path: "p.py", Lang: "python"},
		{ID: "p.py::P.fill", Kind: Func, Name: "fill", Path: "p.py", Lang: "python"},
		{ID: "p.py::P.fresh", Kind: Func, Name: "fresh", Path: "p.py", Lang: "python"},
		{ID: "p.py::hook", Kind: Func, Name: "hook", Path: "p.py", Lang: "python"},
		{ID: "test_p.py::test_wrap", Kind: Func, Name: "test_wrap", Path: "test_p.py", Lang: "python", Test: true},
		{ID: "test_p.py::test_fill", Kind: Func, Name: "test_fill", Path: "test_p.py", Lang: "python", Test: true},
		{ID: "test_p.py::test_new", Kind: Func, Name: "test_new", Path: "test_p.py", Lang: "python", Test: true},
		{ID: "test_p.py::test_hook", Kind: Func, Name: "test_hook", Path: "test_p.py", Lang: "python", Test: true},
	}
	call := func(from, to string) EdgeSpec {
		return EdgeSpec{From: from, To: to, Type: Call, Confidence: Resolved, Line: 1}
	}
	g := New(nodes, []EdgeSpec{
		{From: "p.py::P", To: "p.py::P.wrap", Type: Contains},
		{From: "p.py::P", To: "p.py::P.fill", Type: Contains},
		{From: "p.py::P", To: "p.py::P.fresh", Type: Contains},
		call("p.py::P.fill", "p.py::P.wrap"),
		call("test_p.py::test_wrap", "p.py::P.wrap"),
		call("test_p.py::test_fill", "p.py::P.fill"),
		call("test_p.py::test_new", "p.py::P.fill"),
		call("test_p.py::test_fill", "p.py::P.fresh"),
	})
	runs := fakeRuns{
		tests: []string{"test_p.py::test_wrap", "test_p.py::test_fill", "test_p.py::test_hook"},
		ran: map[string][]string{
			// test_fill calls fill, which takes a branch without wrap.
			"p.py::P.wrap": {"test_p.py::test_wrap"},
			"p.py::P.fill": {"test_p.py::test_fill"},
			// called back by the standard library: no edge in the graph.
			"p.py::hook": {"test_p.py::test_hook"},
		},
	}
	for _, c := range []struct {
		id          string
		tests, ran  []string
		unrun       int
		fromRecords bool
	}{
		// test_fill reaches wrap in the graph but did not run it;
		// test_new did not run in the recording: the graph's word.
		{"p.py::P.wrap", []string{"test_p.py::test_new", "test_p.py::test_wrap"}, []string{"test_p.py::test_wrap"}, 1, true},
		{"p.py::P.fill", []string{"test_p.py::test_fill", "test_p.py::test_new"}, []string{"test_p.py::test_fill"}, 0, true},
		{"p.py::hook", []string{"test_p.py::test_hook"}, []string{"test_p.py::test_hook"}, 0, true},
		// Unknown to the recording (added since): the graph's tests.
		{"p.py::P.fresh", []string{"test_p.py::test_fill"}, nil, 0, false},
		// A class is known when all its functions are; fresh is not.
		{"p.py::P", []string{"test_p.py::test_fill", "test_p.py::test_new", "test_p.py::test_wrap"}, nil, 0, false},
	} {
		i, _ := g.Index(c.id)
		tr := g.TestsOf(i, Filter{Runs: runs}, 0)
		var got, ran []string
		for _, t := range tr.Tests {
			got = append(got, g.Nodes[t].ID)
			if tr.Ran[t] {
				ran = append(ran, g.Nodes[t].ID)
			}
		}
		slices.Sort(ran)
		if !slices.Equal(got, c.tests) || !slices.Equal(ran, c.ran) || tr.Unrun != c.unrun || (tr.Ran != nil) != c.fromRecords {
			t.Errorf("%s: tests %q ran %q unrun %d recorded %v; want %q %q %d %v", c.id, got, ran, tr.Unrun, tr.Ran != nil, c.tests, c.ran, c.unrun, c.fromRecords)
		}
	}
}
