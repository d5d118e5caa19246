package graph_test

import (
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

func findGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("shop/models.py"),
		cls("shop/models.py", "Cart", 5, 40),
		fn("shop/models.py", "Cart.add", 10, 20),
		fn("shop/models.py", "Cart.add.inner", 12, 14),
		fn("shop/models.py", "Cart.total", 22, 30),
		fn("shop/models.py", "helper", 42, 50),
		mod("shop/legacy.py"),
		cls("shop/legacy.py", "Old", 1, 20),
		cls("shop/legacy.py", "Old.Cart", 2, 19),
		fn("shop/legacy.py", "Old.Cart.add", 3, 9),
		mod("shop/cli.py"),
		fn("shop/cli.py", "main", 1, 10),
		fn("shop/cli.py", "Run", 12, 14),
		fn("shop/cli.py", "run", 16, 18),
		mod("pkg/util/strings.go"),
		fn("pkg/util/strings.go", "Reverse", 1, 5),
		mod("pkg/other/x.go"),
		fn("pkg/other/x.go", "Reverse", 1, 5),
		mod("cfg/config.py"),
		cls("cfg/config.py", "Config", 1, 9),
		mod("cfg/factory.go"),
		fn("cfg/factory.go", "Config", 1, 9),
	},
		call("shop/cli.py::main", "shop/models.py::Cart.add", graph.Resolved, 5),
		call("shop/cli.py::main", "shop/models.py::helper", graph.Resolved, 6),
		call("shop/cli.py::main", "shop/cli.py::run", graph.Resolved, 7),
		call("shop/cli.py::main", "pkg/other/x.go::Reverse", graph.Resolved, 8),
		call("shop/cli.py::main", "cfg/config.py::Config", graph.Resolved, 9),
	)
}

func TestFind(t *testing.T) {
	g := findGraph()
	tests := []struct {
		name, q string
		want    []string
	}{
		{"node id", "shop/models.py::Cart.add", []string{"shop/models.py::Cart.add"}},
		{"node id with spaces", "  shop/models.py::Cart.add\t", []string{"shop/models.py::Cart.add"}},
		{"file path gives the module", "shop/models.py", []string{"shop/models.py"}},
		{"path:line innermost", "shop/models.py:13", []string{"shop/models.py::Cart.add.inner"}},
		{"path:line method", "shop/models.py:11", []string{"shop/models.py::Cart.add"}},
		{"path:line class body", "shop/models.py:35", []string{"shop/models.py::Cart"}},
		{"path:line first line", "shop/models.py:22", []string{"shop/models.py::Cart.total"}},
		{"path:line last line", "shop/models.py:50", []string{"shop/models.py::helper"}},
		{"path:line between symbols", "shop/models.py:41", []string{}},
		{"path:line unknown file", "nope.py:3", []string{}},
		{"path:Name", "shop/models.py:helper", []string{"shop/models.py::helper"}},
		{"path:Qual", "shop/models.py:Cart.total", []string{"shop/models.py::Cart.total"}},
		{"path:Name case-insensitive", "shop/models.py:HELPER", []string{"shop/models.py::helper"}},
		{"path:Qual case-insensitive", "shop/models.py:cart.TOTAL", []string{"shop/models.py::Cart.total"}},
		{"path:Name only in that file", "shop/cli.py:helper", []string{}},
		{"path:Name prefers exact case", "shop/cli.py:run", []string{"shop/cli.py::run"}},
		{"qualified", "Cart.total", []string{"shop/models.py::Cart.total"}},
		{"qualified C++ style", "Cart::total", []string{"shop/models.py::Cart.total"}},
		{"qualified with ()", "Cart.total()", []string{"shop/models.py::Cart.total"}},
		{"bare name with ()", "helper()", []string{"shop/models.py::helper"}},
		{"qualified tail", "add.inner", []string{"shop/models.py::Cart.add.inner"}},
		// Both Cart.add and Old.Cart.add end in Cart.add; the called one
		// ranks first.
		{"qualified suffix ranked by degree", "Cart.add", []string{"shop/models.py::Cart.add", "shop/legacy.py::Old.Cart.add"}},
		{"qualified nested class", "Old.Cart", []string{"shop/legacy.py::Old.Cart"}},
		{"pkg.Func by directory", "util.Reverse", []string{"pkg/util/strings.go::Reverse"}},
		{"pkg.Func by directory (other)", "other.Reverse", []string{"pkg/other/x.go::Reverse"}},
		{"pkg.Func by file stem", "strings.Reverse", []string{"pkg/util/strings.go::Reverse"}},
		{"module.func by file stem", "models.helper", []string{"shop/models.py::helper"}},
		{"pkg.Func only the immediate directory", "pkg.Reverse", []string{}},
		{"pkg.Func name is case-sensitive", "util.reverse", []string{}},
		{"bare name", "helper", []string{"shop/models.py::helper"}},
		{"bare name, several, by degree", "Reverse", []string{"pkg/other/x.go::Reverse", "pkg/util/strings.go::Reverse"}},
		{"bare name case-insensitive", "HELPER", []string{"shop/models.py::helper"}},
		{"case-sensitive preferred", "run", []string{"shop/cli.py::run"}},
		{"case-sensitive preferred (upper)", "Run", []string{"shop/cli.py::Run"}},
		{"case-insensitive ranked by degree", "RUN", []string{"shop/cli.py::run", "shop/cli.py::Run"}},
		{"functions before classes", "Config", []string{"cfg/factory.go::Config", "cfg/config.py::Config"}},
		{"functions before classes (folded)", "config", []string{"cfg/factory.go::Config", "cfg/config.py::Config"}},
		{"bare class", "Old", []string{"shop/legacy.py::Old"}},
		{"module basename is not a symbol", "models.py", []string{}},
		{"typo: no exact match", "helpr", []string{}},
		{"prefix: no exact match", "Cart.ad", []string{}},
		{"unknown qualified", "Nope.add", []string{}},
		{"empty", "", []string{}},
		{"blank", "   ", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(g, g.Find(tc.q)); !slices.Equal(got, tc.want) {
				t.Errorf("Find(%q) = %q, want %q", tc.q, got, tc.want)
			}
		})
	}
}

// Find's doc promises case-insensitive matching after case-sensitive
// matching, and "path:Qual" honours it, but a bare qualified name does not.
func TestFindQualifiedCaseInsensitive(t *testing.T) {
	g := findGraph()
	for _, q := range []string{"cart.total", "CART.TOTAL", "cart::total"} {
		got := ids(g, g.Find(q))
		want := []string{"shop/models.py::Cart.total"}
		if !slices.Equal(got, want) {
			t.Fatalf("regression: Find(%q) = %q, want %q: qualified names only match case-sensitively "+
				"(the fold fallback looks up byName[%q], which holds short names, never qualified ones), "+
				"while Find(\"shop/models.py:%s\") does fold", q, got, want, q, q)
		}
	}
}

// "Cls::m" is accepted on its own but not after "path:": matchIn compares
// the raw "Cls::m" with Qual "Cls.m".
func TestFindPathQualifiedCPPStyle(t *testing.T) {
	g := findGraph()
	q := "shop/models.py:Cart::total"
	got := ids(g, g.Find(q))
	if want := []string{"shop/models.py::Cart.total"}; !slices.Equal(got, want) {
		t.Fatalf("regression: Find(%q) = %q, want %q (Find(\"Cart::total\") works; the path:Name branch "+
			"does not turn :: into .)", q, got, want)
	}
}

func TestFindFilePathWhenModuleIDDiffers(t *testing.T) {
	g := graph.New([]*graph.Node{
		{ID: "mod:lib/x.py", Kind: graph.Module, Name: "x.py", Path: "lib/x.py"},
		fn("lib/x.py", "f", 1, 3),
		fn("orphan.py", "g", 1, 3), // a file without a module node
	}, nil)
	tests := []struct {
		q    string
		want []string
	}{
		{"lib/x.py", []string{"mod:lib/x.py"}},
		{"lib/x.py()", []string{"mod:lib/x.py"}},
		{"mod:lib/x.py", []string{"mod:lib/x.py"}},
		{"orphan.py", []string{}},
		{"orphan.py:2", []string{"orphan.py::g"}},
	}
	for _, tc := range tests {
		if got := ids(g, g.Find(tc.q)); !slices.Equal(got, tc.want) {
			t.Errorf("Find(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestFindPathLineCanReturnNothingButModule(t *testing.T) {
	// A file that defines nothing: path:line finds nothing, the path finds
	// the module.
	g := build([]*graph.Node{mod("empty.py")})
	if got := g.Find("empty.py:1"); len(got) != 0 {
		t.Errorf("Find(empty.py:1) = %q, want none", ids(g, got))
	}
	if got := ids(g, g.Find("empty.py")); !slices.Equal(got, []string{"empty.py"}) {
		t.Errorf("Find(empty.py) = %q", got)
	}
}

type sugg struct {
	id    string
	score float64
}

func suggestions(g *graph.Graph, ss []graph.Suggestion) []sugg {
	out := []sugg{}
	for _, s := range ss {
		out = append(out, sugg{g.Nodes[s.Node].ID, s.Score})
	}
	return out
}

func TestSimilarTiers(t *testing.T) {
	tests := []struct {
		name  string
		funcs []string // names defined in s.py, no edges
		q     string
		want  []sugg
	}{
		{"exact, case-insensitive", []string{"Parse"}, "parse", []sugg{{"s.py::Parse", 1000}}},
		{"prefix", []string{"parse_args"}, "parse", []sugg{{"s.py::parse_args", 795}}},
		{"contains", []string{"do_parse"}, "PARSE", []sugg{{"s.py::do_parse", 597}}},
		{"query contains name", []string{"parse"}, "parse_all", []sugg{{"s.py::parse", 296}}},
		{"query contains name needs 3 chars", []string{"pa"}, "parse_all", []sugg{}},
		{"edit distance 1", []string{"handler"}, "handlr", []sugg{{"s.py::handler", 350}}},
		{"edit distance 2", []string{"handler"}, "hnadler", []sugg{{"s.py::handler", 300}}},
		{"edit distance 3", []string{"process_request"}, "prcess_rquet", []sugg{{"s.py::process_request", 250}}},
		{"edit distance within len/3", []string{"abd"}, "abc", []sugg{{"s.py::abd", 350}}},
		{"edit distance above len/3", []string{"ax"}, "ab", []sugg{}},
		// Distance 4 is within len/3 = 5 but above the cap of 3, so only
		// the subsequence tier fires: 100 + 100*12/16 - (16-12) = 171.
		{"edit distance capped at 3", []string{"abcdefghijklmnop"}, "abcdWXYZijklmnop", []sugg{{"s.py::abcdefghijklmnop", 171}}},
		// lcs 10 of 10, name 14 long: 100 + 100 - 4 = 196.
		{"subsequence", []string{"handle_request"}, "hdlrequest", []sugg{{"s.py::handle_request", 196}}},
		{"subsequence needs 3/4 of the query", []string{"handle_request"}, "hxxlxxquxxt", []sugg{}},
		{"subsequence needs half the name", []string{"a_very_long_function_name_here"}, "afnh", []sugg{}},
		{"subsequence needs a 4-char query", []string{"xaybz"}, "abz", []sugg{}},
		{"unrelated", []string{"zzz"}, "parse", []sugg{}},
		{"qualifier scored", []string{"Cart.add"}, "Cart.ad", []sugg{{"s.py::Cart.add", 899}}},
		{"C++ qualifier scored", []string{"Cart.add"}, "Cart::ad", []sugg{{"s.py::Cart.add", 899}}},
		{"() stripped", []string{"parse"}, "parse()", []sugg{{"s.py::parse", 1000}}},
		{"empty query", []string{"parse"}, "", []sugg{}},
		{"trailing dot only", []string{"parse"}, ".", []sugg{}},
		{
			"tiers ordered",
			[]string{"handlr", "handler_x", "a_handler", "handler", "hndler", "hand"},
			"handler",
			[]sugg{
				{"s.py::handler", 1000},
				{"s.py::handler_x", 798},
				{"s.py::a_handler", 598},
				{"s.py::handlr", 350},
				{"s.py::hndler", 350},
				{"s.py::hand", 297},
			},
		},
		{
			"shorter names first within a tier",
			[]string{"load_all_things", "load_all", "load_al"},
			"load",
			[]sugg{{"s.py::load_al", 797}, {"s.py::load_all", 796}, {"s.py::load_all_things", 789}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []*graph.Node{mod("s.py")}
			for i, n := range tc.funcs {
				nodes = append(nodes, fn("s.py", n, i*10+1, i*10+5))
			}
			g := build(nodes)
			got := suggestions(g, g.Similar(tc.q, 0))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Similar(%q) = %v, want %v", tc.q, got, tc.want)
			}
		})
	}
}

func similarGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("process.py"), // modules are never suggested
		mod("etl/pipeline.py"),
		fn("etl/pipeline.py", "process_data", 1, 10),
		fn("etl/pipeline.py", "process_item", 12, 20),
		fn("etl/pipeline.py", "load_data", 22, 30),
		fn("etl/pipeline.py", "parse_date", 32, 40),
		cls("etl/pipeline.py", "Processor", 42, 60),
		fn("etl/pipeline.py", "Processor.process", 43, 50),
		mod("etl/c.c"),
		// A C declaration and definition of the same function: one label.
		fn("etl/c.c", "process", 1, 1),
		{ID: "etl/c.c::process#2", Kind: graph.Func, Name: "process", Qual: "process", Path: "etl/c.c", StartLine: 5, EndLine: 9},
		mod("etl/main.py"),
		fn("etl/main.py", "main", 1, 9),
	},
		call("etl/main.py::main", "etl/pipeline.py::process_data", graph.Resolved, 2),
		call("etl/main.py::main", "etl/c.c::process#2", graph.Resolved, 3),
		call("etl/main.py::main", "etl/pipeline.py::Processor.process", graph.Resolved, 4),
	)
}

func TestSimilar(t *testing.T) {
	g := similarGraph()
	tests := []struct {
		q     string
		limit int
		want  []string
	}{
		{"proces_data", 1, []string{"etl/pipeline.py::process_data"}},
		// Equal scores, degree first: process#2 (called) before its
		// declaration, which is then collapsed as the same label and file.
		{"process", 0, []string{
			"etl/c.c::process#2",
			"etl/pipeline.py::Processor.process",
			"etl/pipeline.py::Processor",
			"etl/pipeline.py::process_data",
			"etl/pipeline.py::process_item",
		}},
		{"process", 2, []string{"etl/c.c::process#2", "etl/pipeline.py::Processor.process"}},
		{"process", -1, []string{
			"etl/c.c::process#2",
			"etl/pipeline.py::Processor.process",
			"etl/pipeline.py::Processor",
			"etl/pipeline.py::process_data",
			"etl/pipeline.py::process_item",
		}},
		{"pipeline", 0, []string{}},
		{"data", 0, []string{"etl/pipeline.py::load_data", "etl/pipeline.py::process_data"}},
	}
	for _, tc := range tests {
		got := ids(g, nodesOf(g.Similar(tc.q, tc.limit)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("Similar(%q, %d) = %q, want %q", tc.q, tc.limit, got, tc.want)
		}
	}
	// The typo's best suggestion, with all candidates scored.
	all := suggestions(g, g.Similar("proces_data", 0))
	if len(all) == 0 || all[0].id != "etl/pipeline.py::process_data" || all[0].score != 350.01 {
		t.Errorf("Similar(proces_data) = %v, want process_data first with 350.01", all)
	}
	for _, s := range all {
		if g.Node(s.id).Kind == graph.Module {
			t.Errorf("module %s suggested", s.id)
		}
	}
}

// A typo should suggest the name it misspells before an unrelated short name
// that happens to occur in it. The documented tiers put "query contains the
// name" above "small edit distance", so any function called data, proc or
// get wins over the intended one.
func TestSimilarTypoBeatsShortSubstring(t *testing.T) {
	g := build([]*graph.Node{
		mod("m.py"),
		fn("m.py", "process_data", 1, 5),
		fn("m.py", "data", 7, 9),
		fn("m.py", "get_user", 11, 15),
		fn("m.py", "get", 17, 19),
	})
	for _, tc := range []struct{ q, want string }{
		{"proces_data", "m.py::process_data"},
		{"get_usr", "m.py::get_user"},
	} {
		got := suggestions(g, g.Similar(tc.q, 0))
		if len(got) == 0 || got[0].id != tc.want {
			t.Fatalf("regression: Similar(%q) = %v, want %s first: the query-contains-name tier (500 - diff) "+
				"outranks edit distance 1 (350)", tc.q, got, tc.want)
		}
	}
}

func nodesOf(ss []graph.Suggestion) []int {
	out := []int{}
	for _, s := range ss {
		out = append(out, s.Node)
	}
	return out
}

func bestAtGraph() *graph.Graph {
	return build([]*graph.Node{
		mod("m.py"),
		cls("m.py", "Cls", 1, 50),
		fn("m.py", "Cls.small", 10, 12),
		fn("m.py", "Cls.big", 14, 40),
		fn("m.py", "Cls.big.inner", 20, 22),
		fn("m.py", "top", 52, 60),
		mod("c.py"),
		fn("c.py", "x", 1, 3),
		fn("c.py", "y", 5, 9),
		fn("c.py", "z", 11, 19),
		mod("d.py"),
		fn("d.py", "w", 1, 3),
		mod("empty.py"),
	},
		call("d.py::w", "m.py::top", graph.Resolved, 2),
		call("m.py::Cls.big", "m.py::Cls.small", graph.Resolved, 15),
		call("m.py::Cls.big", "m.py::top", graph.Resolved, 16),
		call("c.py::x", "m.py::top", graph.Resolved, 2),
		call("c.py::y", "m.py::top", graph.Resolved, 6),
		call("c.py::z", "m.py::Cls.big", graph.Resolved, 12),
	)
}

func TestBestAt(t *testing.T) {
	g := bestAtGraph()
	tests := []struct {
		name     string
		p        string
		from, to int
		want     string // "" for none
	}{
		{"one line: innermost", "m.py", 21, 21, "m.py::Cls.big.inner"},
		{"3 lines (to-from=2): innermost", "m.py", 20, 22, "m.py::Cls.big.inner"},
		{"4 lines (to-from=3): best ranked", "m.py", 20, 23, "m.py::Cls.big"},
		{"wide: most connected function", "m.py", 18, 40, "m.py::Cls.big"},
		{"narrow on a method line", "m.py", 11, 11, "m.py::Cls.small"},
		{"narrow on a class line", "m.py", 45, 46, "m.py::Cls"},
		{"narrow across two methods", "m.py", 12, 14, "m.py::Cls.small"},
		{"whole file", "m.py", 1, 0, "m.py::top"},
		{"whole file (to < 0)", "m.py", 5, -1, "m.py::top"},
		{"all lines explicitly", "m.py", 1, 60, "m.py::top"},
		{"whole file, degree then id", "c.py", 1, 0, "c.py::x"},
		{"edge of a range", "m.py", 60, 60, "m.py::top"},
		{"gap between symbols", "m.py", 51, 51, ""},
		{"past the end", "m.py", 61, 70, ""},
		{"module only", "empty.py", 1, 0, ""},
		{"unknown file", "nope.py", 1, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i, ok := g.BestAt(tc.p, tc.from, tc.to)
			switch {
			case tc.want == "" && (ok || i != -1):
				t.Errorf("BestAt(%s, %d, %d) = %d, %v; want -1, false", tc.p, tc.from, tc.to, i, ok)
			case tc.want != "" && (!ok || g.Nodes[i].ID != tc.want):
				got := "<none>"
				if i >= 0 {
					got = g.Nodes[i].ID
				}
				t.Errorf("BestAt(%s, %d, %d) = %s, %v; want %s", tc.p, tc.from, tc.to, got, ok, tc.want)
			}
		})
	}
}

// BestAt's doc: "among functions and classes that overlap, those with call
// edges rank first, then rank's order". rank puts kind first, so
// an unconnected function beats a class with call edges.
func TestBestAtCallEdgesFirst(t *testing.T) {
	g := build([]*graph.Node{
		mod("w.py"),
		cls("w.py", "Widget", 1, 10),
		fn("w.py", "unused", 12, 14),
		mod("app.py"),
		fn("app.py", "a", 1, 2),
		fn("app.py", "b", 3, 4),
	},
		call("app.py::a", "w.py::Widget", graph.Resolved, 1), // constructor calls
		call("app.py::b", "w.py::Widget", graph.Resolved, 3),
	)
	i, ok := g.BestAt("w.py", 1, 0)
	if !ok {
		t.Fatal("BestAt(w.py) found nothing")
	}
	if got := g.Nodes[i].ID; got != "w.py::Widget" {
		t.Fatalf("regression: BestAt(w.py, 1, 0) = %s, want w.py::Widget (the only symbol with call edges): "+
			"rank orders by kind before degree", got)
	}
}
