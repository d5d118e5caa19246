package oracle

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// graph builds a ccd export from a compact description.
func graph(t *testing.T, js string) *Graph {
	t.Helper()
	var g Graph
	if err := json.Unmarshal([]byte(js), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

const pyGraph = `{"nodes":[
{"id":"pkg/a.py","kind":"module","path":"pkg/a.py"},
{"id":"pkg/a.py::A","kind":"class","label":"A","qual":"A","path":"pkg/a.py","start_line":6,"end_line":16},
{"id":"pkg/a.py::A.__init__","kind":"func","label":"__init__","qual":"A.__init__","path":"pkg/a.py","start_line":7,"end_line":8},
{"id":"pkg/a.py::A.m","kind":"func","label":"m","qual":"A.m","path":"pkg/a.py","start_line":11,"end_line":12},
{"id":"pkg/a.py::helper","kind":"func","label":"helper","qual":"helper","path":"pkg/a.py","start_line":18,"end_line":19},
{"id":"pkg/a.py::use","kind":"func","label":"use","qual":"use","path":"pkg/a.py","start_line":30,"end_line":40},
{"id":"pkg/b.py","kind":"module","path":"pkg/b.py"},
{"id":"pkg/b.py::f","kind":"func","label":"f","qual":"f","path":"pkg/b.py","start_line":3,"end_line":9},
{"id":"gen/c.py","kind":"module","path":"gen/c.py"},
{"id":"gen/c.py::g","kind":"func","label":"g","qual":"g","path":"gen/c.py","start_line":1,"end_line":2}
],"edges":[
{"from":"pkg/a.py","to":"pkg/a.py::A","type":"contains"},
{"from":"pkg/a.py::A.m","to":"pkg/a.py::helper","type":"call","confidence":"resolved","lines":[12]},
{"from":"pkg/a.py::use","to":"pkg/a.py::A.__init__","type":"call","confidence":"resolved","lines":[31,35]},
{"from":"pkg/a.py::use","to":"pkg/a.py::A.m","type":"call","confidence":"inferred","lines":[33]},
{"from":"pkg/a.py::use","to":"pkg/b.py::f","type":"call","confidence":"name-match","lines":[36]},
{"from":"pkg/a.py::use","to":"pkg/a.py::helper","type":"call","confidence":"name-match","lines":[38]},
{"from":"pkg/b.py::f","to":"pkg/a.py::helper","type":"call","confidence":"resolved","lines":[5]},
{"from":"pkg/b.py::f","to":"gen/c.py::g","type":"call","confidence":"resolved","lines":[6]},
{"from":"pkg/b.py","to":"pkg/a.py","type":"import","confidence":"resolved","lines":[1]}
]}`

func pyOracle() *Oracle {
	return &Oracle{
		Tool:  "test",
		Files: []string{"pkg/a.py", "pkg/b.py"},
		Edges: []OEdge{
			// exact
			{File: "pkg/a.py", Line: 12, CalleeFile: "pkg/a.py", CalleeLine: 18, CalleeName: "helper", Kind: "goto"},
			// the callee's definition reported on its name line, ccd's node
			// starts earlier (a decorator): snapped by name
			{File: "pkg/a.py", Line: 31, CalleeFile: "pkg/a.py", CalleeLine: 8, CalleeName: "__init__", Kind: "goto"},
			// a chained call: the oracle's primary line is the name's line,
			// ccd's the line the expression starts on
			{File: "pkg/a.py", Line: 34, Alt: []int{33}, CalleeFile: "pkg/a.py", CalleeLine: 11, CalleeName: "m", Kind: "goto"},
			// wrong target: ccd says b.f on line 36
			{File: "pkg/a.py", Line: 36, CalleeFile: "pkg/a.py", CalleeLine: 18, CalleeName: "helper", Kind: "infer"},
			// missed, callee ccd has no node for (a lambda bound to a name)
			{File: "pkg/a.py", Line: 39, CalleeFile: "pkg/a.py", CalleeLine: 25, CalleeName: "lam", Kind: "infer"},
			// exact, second file; duplicate kinds collapse into one site
			{File: "pkg/b.py", Line: 5, CalleeFile: "pkg/a.py", CalleeLine: 18, CalleeName: "helper", Kind: "goto"},
			{File: "pkg/b.py", Line: 5, CalleeFile: "pkg/a.py", CalleeLine: 18, CalleeName: "helper", Kind: "infer"},
			// a file outside ccd's view is ignored
			{File: "other/x.py", Line: 1, CalleeFile: "pkg/a.py", CalleeLine: 18, CalleeName: "helper", Kind: "goto"},
		},
		// line 35 (ccd: A.__init__) and 38 (ccd: helper): the oracle could
		// not resolve 38, and says nothing about 35
		Unresolved: []OSite{{File: "pkg/a.py", Line: 38, Name: "helper"}, {File: "pkg/a.py", Line: 35, Name: "B"}},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScoreSites(t *testing.T) {
	r := Score(graph(t, pyGraph), pyOracle(), Options{})
	// ccd: 12, 31, 35, 33, 36, 38, b:5 = 7 sites (gen/c.py is outside the
	// oracle's files); oracle: 12, 31, 34, 36, 39, b:5 = 6 sites.
	want := Counts{CCD: 7, Oracle: 6, Matched: 4, Confirmed: 4}
	if r.Sites != want {
		t.Fatalf("sites = %+v, want %+v", r.Sites, want)
	}
	if !near(r.Sites.Precision(), 4.0/7) || !near(r.Sites.Recall(), 4.0/6) {
		t.Errorf("P %v R %v", r.Sites.Precision(), r.Sites.Recall())
	}
	if r.Ignored != 1 || r.OracleIgnored != 1 {
		t.Errorf("ignored ccd %d oracle %d, want 1 1", r.Ignored, r.OracleIgnored)
	}
	if r.NoNode != 1 {
		t.Errorf("no node = %d, want 1", r.NoNode)
	}
	if len(r.Missed) != 2 || len(r.Spurious) != 3 {
		t.Fatalf("missed %v spurious %v", r.Missed, r.Spurious)
	}
	if r.MissedWrong != 1 || r.SpuriousWrong != 1 {
		t.Errorf("wrong target: missed %d spurious %d, want 1 1", r.MissedWrong, r.SpuriousWrong)
	}
	m := r.Missed[0]
	if m.Line != 36 || m.Other != "pkg/b.py::f" || m.Callee != "pkg/a.py::helper" {
		t.Errorf("missed[0] = %+v", m)
	}
	if !r.Missed[1].NoNode || r.Missed[1].Callee != "pkg/a.py:25 lam" {
		t.Errorf("missed[1] = %+v", r.Missed[1])
	}
	if r.Unverified != 1 {
		t.Errorf("unverified = %d, want 1", r.Unverified)
	}
	for _, s := range r.Spurious {
		if (s.Line == 38) != s.Unverified {
			t.Errorf("spurious %d unverified = %v", s.Line, s.Unverified)
		}
	}
	if !near(r.VerifiablePrecision(), 4.0/6) {
		t.Errorf("verifiable precision %v", r.VerifiablePrecision())
	}
	// per confidence
	if c := r.ByConfidence["resolved"]; c == nil || c.CCD != 4 || c.Confirmed != 3 {
		t.Errorf("resolved = %+v", c)
	}
	if c := r.ByConfidence["inferred"]; c == nil || c.CCD != 1 || c.Confirmed != 1 {
		t.Errorf("inferred = %+v", c)
	}
	if c := r.ByConfidence["name-match"]; c == nil || c.CCD != 2 || c.Confirmed != 0 {
		t.Errorf("name-match = %+v", c)
	}
	if c := r.ByKind["goto"]; c == nil || c.Oracle != 4 || c.Matched != 4 {
		t.Errorf("goto = %+v", c)
	}
	if c := r.ByKind["infer"]; c == nil || c.Oracle != 2 || c.Matched != 0 {
		t.Errorf("infer = %+v", c)
	}
}

func TestScorePairs(t *testing.T) {
	r := Score(graph(t, pyGraph), pyOracle(), Options{})
	// ccd pairs: m>helper, use>A.__init__, use>m, use>f, use>helper,
	// f>helper = 6. Oracle pairs (callers from ccd's ranges): m>helper,
	// use>A.__init__, use>m, use>helper (line 36), use>lam, f>helper = 6.
	// use>helper is a pair both have (ccd's from line 38, the oracle's
	// from line 36): pairs forgive a wrong line.
	want := Counts{CCD: 6, Oracle: 6, Matched: 5, Confirmed: 5}
	if r.Pairs != want {
		t.Errorf("pairs = %+v, want %+v", r.Pairs, want)
	}
}

func TestScoreAltLineUsedOnce(t *testing.T) {
	// Two oracle calls of m whose alternatives both name line 33 (a chain
	// split over lines): ccd's one site on 33 matches only one of them.
	g := graph(t, pyGraph)
	o := pyOracle()
	o.Edges = append(o.Edges, OEdge{File: "pkg/a.py", Line: 37, Alt: []int{33}, CalleeFile: "pkg/a.py", CalleeLine: 11, CalleeName: "m", Kind: "goto"})
	r := Score(g, o, Options{})
	if r.Sites.Matched != 4 || r.Sites.Oracle != 7 {
		t.Errorf("sites = %+v", r.Sites)
	}
}

const goGraph = `{"nodes":[
{"id":"a.go","kind":"module","path":"a.go"},
{"id":"a.go::Shape","kind":"class","label":"Shape","path":"a.go","start_line":5,"end_line":7},
{"id":"a.go::Shape.Area","kind":"func","label":"Area","path":"a.go","start_line":6,"end_line":6},
{"id":"a.go::Sq.Area","kind":"func","label":"Area","path":"a.go","start_line":11,"end_line":11},
{"id":"a.go::Total","kind":"func","label":"Total","path":"a.go","start_line":15,"end_line":21},
{"id":"a.go::Use","kind":"func","label":"Use","path":"a.go","start_line":32,"end_line":45}
],"edges":[
{"from":"a.go::Total","to":"a.go::Sq.Area","type":"call","confidence":"inferred","lines":[18]},
{"from":"a.go::Use","to":"a.go::Shape.Area","type":"call","confidence":"resolved","lines":[34]},
{"from":"a.go::Use","to":"a.go::Sq.Area","type":"call","confidence":"name-match","lines":[40]}
]}`

func TestScoreExtraKinds(t *testing.T) {
	o := &Oracle{
		Files: []string{"a.go"},
		Edges: []OEdge{
			// a call through an interface: the abstract method, and what VTA
			// finds behind it; ccd binds the implementation
			{File: "a.go", Line: 18, CalleeFile: "a.go", CalleeLine: 6, CalleeName: "Area", Kind: "interface"},
			{File: "a.go", Line: 18, CalleeFile: "a.go", CalleeLine: 11, CalleeName: "Area", Kind: "dynamic"},
			// ccd binds the interface method
			{File: "a.go", Line: 34, CalleeFile: "a.go", CalleeLine: 6, CalleeName: "Area", Kind: "interface"},
			// VTA only: not a miss
			{File: "a.go", Line: 38, CalleeFile: "a.go", CalleeLine: 11, CalleeName: "Area", Kind: "dynamic"},
		},
	}
	g := graph(t, goGraph)

	// Without the stand-in rule the implementation confirms ccd's edge
	// (precision) but the interface site is a miss.
	r := Score(g, o, Options{Extra: []string{"dynamic"}})
	if want := (Counts{CCD: 3, Oracle: 2, Matched: 1, Confirmed: 2}); r.Sites != want {
		t.Errorf("sites = %+v, want %+v", r.Sites, want)
	}
	// With it (the Go options) the interface site is found.
	r = Score(g, o, OptionsFor("go"))
	if want := (Counts{CCD: 3, Oracle: 2, Matched: 2, Confirmed: 2}); r.Sites != want {
		t.Errorf("go sites = %+v, want %+v", r.Sites, want)
	}
	if c := r.ByKind["dynamic"]; c == nil || c.Oracle != 2 || c.Matched != 1 {
		t.Errorf("dynamic = %+v", c)
	}
	if len(r.Missed) != 0 || len(r.Spurious) != 1 || r.Spurious[0].Line != 40 {
		t.Errorf("missed %v spurious %v", r.Missed, r.Spurious)
	}
	if r.Pairs.Matched != r.Pairs.Oracle {
		t.Errorf("pairs = %+v", r.Pairs)
	}
}

func TestSnap(t *testing.T) {
	g := graph(t, pyGraph)
	idx := map[string]*fileIndex{}
	for _, n := range g.Nodes {
		if n.Kind == "func" || n.Kind == "class" {
			if idx[n.Path] == nil {
				idx[n.Path] = &fileIndex{}
			}
			idx[n.Path].defs = append(idx[n.Path].defs, n)
		}
	}
	cases := []struct {
		line int
		name string
		want string
	}{
		{11, "m", "pkg/a.py::A.m"}, // starts there
		{12, "m", "pkg/a.py::A.m"}, // inside, same name
		{8, "__init__", "pkg/a.py::A.__init__"},
		{9, "x", ""}, // inside A, another name: no node
		{25, "lam", ""},
	}
	for _, c := range cases {
		n, ok := snap(idx, "pkg/a.py", c.line, c.name)
		if got := map[bool]string{true: n.ID, false: ""}[ok]; got != c.want {
			t.Errorf("snap(%d, %s) = %q, want %q", c.line, c.name, got, c.want)
		}
	}
}

func TestCountsEmpty(t *testing.T) {
	var c Counts
	if c.Precision() != 1 || c.Recall() != 1 || c.F1() != 1 {
		t.Errorf("empty counts: %v %v %v", c.Precision(), c.Recall(), c.F1())
	}
	c = Counts{CCD: 2, Oracle: 2}
	if c.F1() != 0 {
		t.Errorf("F1 = %v", c.F1())
	}
}

func TestSample(t *testing.T) {
	var s []Site
	for i := 0; i < 100; i++ {
		s = append(s, Site{Line: i})
	}
	got := sample(s, 20)
	if len(got) != 20 || got[0].Line != 0 || got[1].Line != 5 || got[19].Line != 95 {
		t.Errorf("sample = %v", got)
	}
	if len(sample(s[:3], 20)) != 3 {
		t.Error("short lists are kept whole")
	}
}

func TestMarkdown(t *testing.T) {
	r := Score(graph(t, pyGraph), pyOracle(), Options{Source: func(file string, line int) string {
		return "x = a | b `c`"
	}})
	r.Package, r.Lang, r.Version = "demo", "python", "1.0"
	rep := &Report{Results: []*Result{r}, Commit: "abc"}
	md := rep.Markdown()
	for _, want := range []string{
		"| Python | demo | 7 | 6 | 0.571 | 0.667 | **0.615** |",
		"## Precision per ccd confidence",
		"| Python | demo | 3/4 (0.750) | 1/1 (1.000) | 0/2 (0.000) | – |",
		"`` x = a \\| b `c` ``",
		"could not resolve",
		"(no ccd node)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestScoreImplicit: ccd's sites of special methods run without a call
// (`with x:`, `for v in x:`) are left out, as the oracle sees only call
// expressions; a call written with the name still counts.
func TestScoreImplicit(t *testing.T) {
	g := graph(t, `{"nodes":[
{"id":"a.py","kind":"module","path":"a.py"},
{"id":"a.py::L","kind":"class","label":"L","qual":"L","path":"a.py","start_line":1,"end_line":5},
{"id":"a.py::L.__enter__","kind":"func","label":"__enter__","qual":"L.__enter__","path":"a.py","start_line":2,"end_line":3},
{"id":"a.py::use","kind":"func","label":"use","qual":"use","path":"a.py","start_line":7,"end_line":12}
],"edges":[
{"from":"a.py::use","to":"a.py::L.__enter__","type":"call","confidence":"inferred","lines":[8,10]}
]}`)
	o := &Oracle{Tool: "test", Files: []string{"a.py"}, Edges: []OEdge{
		{File: "a.py", Line: 10, CalleeFile: "a.py", CalleeLine: 2, CalleeName: "__enter__", Kind: "goto"},
	}}
	src := map[int]string{8: "    with L() as l:", 10: "    l.__enter__()"}
	for _, tc := range []struct {
		name         string
		implicit     []string
		ccd, ignored int
	}{
		{"python", []string{"__enter__"}, 1, 1},
		{"none", nil, 2, 0},
	} {
		opt := Options{Implicit: tc.implicit, Source: func(file string, line int) string { return src[line] }}
		r := Score(g, o, opt)
		if r.Sites.CCD != tc.ccd || r.Ignored != tc.ignored || r.Sites.Matched != 1 {
			t.Errorf("%s: sites %+v, ignored %d; want %d ccd sites, %d ignored, 1 matched", tc.name, r.Sites, r.Ignored, tc.ccd, tc.ignored)
		}
	}
}

// TestScoreDispatch: ccd's inferred edge to an override of the method the
// oracle binds the call to is unverified (dispatch), still counted as
// spurious in plain precision; a resolved one, or one to a method of
// another name, is not.
func TestScoreDispatch(t *testing.T) {
	g := graph(t, `{"nodes":[
{"id":"a.py","kind":"module","path":"a.py"},
{"id":"a.py::H","kind":"class","label":"H","qual":"H","path":"a.py","start_line":1,"end_line":6},
{"id":"a.py::H.handle","kind":"func","label":"handle","qual":"H.handle","path":"a.py","start_line":2,"end_line":3},
{"id":"a.py::H.emit","kind":"func","label":"emit","qual":"H.emit","path":"a.py","start_line":5,"end_line":6},
{"id":"a.py::S","kind":"class","label":"S","qual":"S","path":"a.py","start_line":8,"end_line":12},
{"id":"a.py::S.emit","kind":"func","label":"emit","qual":"S.emit","path":"a.py","start_line":9,"end_line":10},
{"id":"a.py::S.flush","kind":"func","label":"flush","qual":"S.flush","path":"a.py","start_line":11,"end_line":12}
],"edges":[
{"from":"a.py::H.handle","to":"a.py::H.emit","type":"call","confidence":"resolved","lines":[3]},
{"from":"a.py::H.handle","to":"a.py::S.emit","type":"call","confidence":"inferred","lines":[3]},
{"from":"a.py::H.handle","to":"a.py::S.flush","type":"call","confidence":"inferred","lines":[3]}
]}`)
	o := &Oracle{Tool: "test", Files: []string{"a.py"}, Edges: []OEdge{
		{File: "a.py", Line: 3, CalleeFile: "a.py", CalleeLine: 5, CalleeName: "emit", Kind: "goto"},
	}}
	r := Score(g, o, Options{})
	if r.Sites.CCD != 3 || r.Sites.Confirmed != 1 || r.Dispatch != 1 || r.Unverified != 1 {
		t.Fatalf("sites %+v, dispatch %d, unverified %d; want 3 ccd sites, 1 confirmed, 1 dispatch", r.Sites, r.Dispatch, r.Unverified)
	}
	for _, s := range r.Spurious {
		if s.Dispatch != (s.Callee == "a.py::S.emit") {
			t.Errorf("%s: dispatch %v", s.Callee, s.Dispatch)
		}
	}
}
