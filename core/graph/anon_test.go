package graph_test

import (
	"reflect"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// anonGraph models a JavaScript file with callbacks:
//
//	function routes(app) { app.get('/', function (req, res) { render(req) }) }  // routes.fn@1
//	function load() { return retry(() => fetchData()) }                        // load.fn@1, called by retry
//	function Page() { return <Button onClick={() => save()} /> }               // Page.fn@1: no edge reaches it
//	describe('x', () => { it('y', () => { load() }) })                          // test file: fn@1, fn@1.fn@1
func anonGraph() *graph.Graph {
	lib, test := "lib/app.js", "test/app.test.js"
	tm := mod(test)
	tm.Test = true
	return build([]*graph.Node{
		mod(lib), tm,
		fn(lib, "render", 1, 1), fn(lib, "fetchData", 2, 2), fn(lib, "save", 3, 3),
		fn(lib, "routes", 5, 7), fn(lib, "routes.fn@1", 6, 6),
		fn(lib, "retry", 9, 9),
		fn(lib, "load", 10, 12), fn(lib, "load.fn@1", 11, 11),
		fn(lib, "Page", 14, 16), fn(lib, "Page.fn@1", 15, 15),
		fn(test, "fn@1", 1, 5), fn(test, "fn@1.fn@1", 2, 4),
	},
		call(lib+"::routes", lib+"::routes.fn@1", graph.Inferred, 6),
		call(lib+"::routes.fn@1", lib+"::render", graph.Resolved, 6),
		call(lib+"::load", lib+"::retry", graph.Resolved, 11),
		graph.EdgeSpec{From: lib + "::load", To: lib + "::load.fn@1", Type: graph.Ref, Confidence: graph.Resolved, Line: 11},
		call(lib+"::retry", lib+"::load.fn@1", graph.Inferred, 9),
		call(lib+"::load.fn@1", lib+"::fetchData", graph.Resolved, 11),
		call(lib+"::Page.fn@1", lib+"::save", graph.Resolved, 15),
		call(test, test+"::fn@1", graph.Inferred, 1),
		call(test+"::fn@1", test+"::fn@1.fn@1", graph.Inferred, 2),
		call(test+"::fn@1.fn@1", lib+"::load", graph.Resolved, 3),
	)
}

func TestAnonymousFunctionsAggregate(t *testing.T) {
	g := anonGraph()
	at := func(id string) int {
		i, ok := g.Index(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		return i
	}
	neighbours := func(id string, dir graph.Direction) []string {
		var out []string
		for _, nb := range g.Neighbors(at(id), dir, graph.Filter{}) {
			out = append(out, g.Nodes[nb.Node].ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		got  []string
		want []string
	}{
		// A callee called from a callback is called by the function
		// defining the callback.
		{"callers of render", neighbours("lib/app.js::render", graph.In), []string{"lib/app.js::routes"}},
		// A function's callees include its callbacks' callees; the
		// callback itself is not listed.
		{"callees of routes", neighbours("lib/app.js::routes", graph.Out), []string{"lib/app.js::render"}},
		{"callees of load", neighbours("lib/app.js::load", graph.Out), []string{"lib/app.js::fetchData", "lib/app.js::retry"}},
		// fetchData's caller is load (the callback's definer), whoever
		// runs the callback (retry).
		{"callers of fetchData", neighbours("lib/app.js::fetchData", graph.In), []string{"lib/app.js::load"}},
		// The test module reaches load through its describe and it
		// callbacks; retry calls load's callback, not load.
		{"callers of load", neighbours("lib/app.js::load", graph.In), []string{"test/app.test.js"}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}

	// Slices name the definers, once, and reach through a callback that no
	// edge enters (a JSX handler) to the function defining it.
	var up []string
	for _, h := range g.Slice(at("lib/app.js::fetchData"), graph.In, 0, graph.Filter{}) {
		up = append(up, g.Nodes[h.Node].ID)
	}
	if want := []string{"lib/app.js::load", "lib/app.js::retry", "test/app.test.js"}; !reflect.DeepEqual(up, want) {
		t.Errorf("slice of fetchData: %v, want %v", up, want)
	}
	up = nil
	for _, h := range g.Slice(at("lib/app.js::save"), graph.In, 0, graph.Filter{}) {
		up = append(up, g.Nodes[h.Node].ID)
	}
	if want := []string{"lib/app.js::Page"}; !reflect.DeepEqual(up, want) {
		t.Errorf("slice of save: %v, want %v", up, want)
	}

	// Tests reach through callbacks too, the JSX handler's included.
	if got, want := ids(g, g.TestsOf(at("lib/app.js::fetchData"), graph.Filter{}, 0).Tests), []string{"test/app.test.js"}; !reflect.DeepEqual(got, want) {
		t.Errorf("tests of fetchData: %v, want %v", got, want)
	}

	// A read or an edit of a callback's lines means the named function.
	if i, ok := g.BestAt("lib/app.js", 6, 6); !ok || g.Nodes[i].ID != "lib/app.js::routes" {
		t.Errorf("BestAt line 6: %v %v, want routes", ok, g.Nodes[i].ID)
	}
	if g.Named(at("test/app.test.js::fn@1.fn@1")) != at("test/app.test.js") {
		t.Errorf("Named of a nested test callback is not the test module")
	}
}
