package board

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// clock returns a fixed clock that advances one second per call.
func clock() func() time.Time {
	t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func newBoard() *Board {
	b := New()
	b.SetClock(clock())
	return b
}

func ref(id string) Ref {
	label := id
	if _, l, ok := strings.Cut(id, "::"); ok {
		label = l
	}
	return Ref{ID: id, Label: label}
}

func project() Project {
	return Project{Root: "/src/shop", Generation: 1, Files: 9, Parsed: 8, Languages: map[string]int{"python": 8}}
}

var archMetrics = map[string]int{"modules": 9, "classes": 5, "funcs": 20, "call_edges": 12, "import_edges": 7}

// impactOf records an impact of target with the given callers.
func impactOf(b *Board, gen uint64, target string, callers ...string) (Evidence, bool, View) {
	var aff []Ref
	for _, c := range callers {
		aff = append(aff, ref(c))
	}
	return b.AddImpact(ImpactSpec{Target: ref(target), Generation: gen, Affected: aff,
		Metrics: map[string]int{"callers": len(callers), "callees": 1, "blast_radius": len(callers) + 1, "tests": 1, "depth": 2}})
}

func mustCode(t *testing.T, err error, code string) {
	t.Helper()
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("error %v: want *board.Error with code %s", err, code)
	}
	if be.Code != code {
		t.Fatalf("error code %s (%v), want %s", be.Code, err, code)
	}
	if be.Hint == "" || be.Message == "" {
		t.Fatalf("error %+v lacks message or hint", be)
	}
}

func TestIDSequenceAndAutoLink(t *testing.T) {
	b := newBoard()
	c0, _, err := b.Claim(Question, "before any evidence?")
	if err != nil {
		t.Fatal(err)
	}
	if c0.ID != "C1" || c0.Evidence != "" || c0.Status != Open {
		t.Fatalf("first claim %+v", c0)
	}
	e1, created, _ := b.Init(project(), archMetrics)
	if e1.ID != "E1" || !created || e1.Kind != Architecture {
		t.Fatalf("init evidence %+v created=%v", e1, created)
	}
	e2, _, _ := impactOf(b, 1, "shop/pricing.py::total", "shop/pricing.py::render")
	if e2.ID != "E2" || e2.Symbol != "total" || e2.Node != "shop/pricing.py::total" {
		t.Fatalf("impact evidence %+v", e2)
	}
	c2, _, _ := b.Claim(Hypothesis, "total may break render")
	d1, _, _ := b.Decide(Plan, "change total", nil)
	e3, _, _ := impactOf(b, 1, "shop/models.py::Cart.add", "shop/cli.py::main")
	d2, _, _ := b.Decide(Edit, "add a check", &Ref{ID: "shop/models.py::Cart.add", Label: "Cart.add"})
	tests := []struct{ got, wantID, wantEv string }{
		{c2.ID + c2.Evidence, "C2", "E2"},
		{d1.ID + d1.Evidence, "D1", "E2"},
		{d2.ID + d2.Evidence, "D2", "E3"},
	}
	for _, tc := range tests {
		if tc.got != tc.wantID+tc.wantEv {
			t.Errorf("got %s, want %s linked to %s", tc.got, tc.wantID, tc.wantEv)
		}
	}
	if e3.ID != "E3" || d2.Symbol != "Cart.add" || d2.Node != "shop/models.py::Cart.add" {
		t.Errorf("e3 %+v d2 %+v", e3, d2)
	}
	// Marking a node of the older analysis links to that analysis's
	// evidence, not the newest.
	res, v, err := b.Mark(MarkSpec{Node: ref("shop/pricing.py::render"), Text: "tests pass"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision.ID != "D3" || res.Decision.Evidence != "E2" || res.Analysis != "total" {
		t.Errorf("mark %+v", res)
	}
	if v.Focus.Label != "total" || v.Progress == nil || v.Progress.Done != 1 || v.Progress.Total != 2 {
		t.Errorf("after mark focus %+v progress %+v", v.Focus, v.Progress)
	}
	if got := b.Rev(); got != 8 {
		t.Errorf("rev %d after 8 changes", got)
	}
}

func TestClaim(t *testing.T) {
	tests := []struct {
		name string
		kind ClaimKind
		text string
		code string
	}{
		{"hypothesis", Hypothesis, "changing X may break Y", ""},
		{"finding", Finding, "X depends on Y", ""},
		{"question", Question, "does X handle nil?", ""},
		{"trimmed", Finding, "  spaced  ", ""},
		{"no text", Hypothesis, "   ", CodeMissingText},
		{"bad kind", ClaimKind("plan"), "x", CodeBadKind},
		{"empty kind", ClaimKind(""), "x", CodeBadKind},
		{"too long", Finding, strings.Repeat("é", MaxText+1), CodeTextTooLong},
		{"at limit", Finding, strings.Repeat("é", MaxText), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard()
			c, v, err := b.Claim(tc.kind, tc.text)
			if tc.code != "" {
				mustCode(t, err, tc.code)
				if b.View("status").Claims != 0 {
					t.Fatal("a refused claim was recorded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tc.kind || c.Text != strings.TrimSpace(tc.text) || c.Status != Open || v.Claims != 1 || v.OpenClaims != 1 {
				t.Fatalf("claim %+v view %+v", c, v)
			}
		})
	}
}

func TestParseKinds(t *testing.T) {
	claims := []struct {
		in   string
		want ClaimKind
		ok   bool
	}{{"", Hypothesis, true}, {"Finding", Finding, true}, {" question ", Question, true}, {"plan", "", false}, {"confirmed", "", false}}
	for _, tc := range claims {
		k, err := ParseClaimKind(tc.in)
		if (err == nil) != tc.ok || k != tc.want {
			t.Errorf("ParseClaimKind(%q) = %q, %v", tc.in, k, err)
		}
	}
	decide := []struct {
		in   string
		want DecisionKind
		code string
	}{{"", Plan, ""}, {"TEST", Test, ""}, {"edit", Edit, ""}, {"mark", "", CodeBadKind}, {"skip", "", CodeBadKind}, {"hypothesis", "", CodeBadKind}}
	for _, tc := range decide {
		k, err := ParseDecideKind(tc.in)
		if tc.code != "" {
			mustCode(t, err, tc.code)
			continue
		}
		if err != nil || k != tc.want {
			t.Errorf("ParseDecideKind(%q) = %q, %v", tc.in, k, err)
		}
	}
	statuses := []struct {
		in   string
		want ClaimStatus
		ok   bool
	}{{"confirmed", Confirmed, true}, {"Refuted", Refuted, true}, {"answered", Answered, true}, {"open", "", false}, {"", "", false}}
	for _, tc := range statuses {
		s, ok := ParseClaimStatus(tc.in)
		if ok != tc.ok || s != tc.want {
			t.Errorf("ParseClaimStatus(%q) = %q, %v", tc.in, s, ok)
		}
	}
}

func TestSplitClaimRef(t *testing.T) {
	tests := []struct{ in, id, rest string }{
		{"C1: tests fail", "C1", "tests fail"},
		{"c12 - yes", "C12", "yes"},
		{"[C3] answered by the docs", "C3", "answered by the docs"},
		{"C4", "C4", ""},
		{"no id here", "", "no id here"},
		{"Cart is fine", "", "Cart is fine"},
	}
	for _, tc := range tests {
		id, rest, ok := SplitClaimRef(tc.in)
		if ok != (tc.id != "") || id != tc.id || rest != tc.rest {
			t.Errorf("SplitClaimRef(%q) = %q, %q, %v", tc.in, id, rest, ok)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name   string
		kind   ClaimKind
		id     string
		status ClaimStatus
		code   string
	}{
		{"confirm hypothesis", Hypothesis, "C1", Confirmed, ""},
		{"refute finding", Finding, "c1", Refuted, ""},
		{"answer question", Question, "C1", Answered, ""},
		{"answer hypothesis", Hypothesis, "C1", Answered, CodeBadStatus},
		{"confirm question", Question, "C1", Confirmed, CodeBadStatus},
		{"reopen", Hypothesis, "C1", Open, CodeBadStatus},
		{"unknown id", Hypothesis, "C9", Confirmed, CodeUnknownClaim},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard()
			if _, _, err := b.Claim(tc.kind, "claim"); err != nil {
				t.Fatal(err)
			}
			c, v, err := b.Resolve(tc.id, tc.status, "because")
			if tc.code != "" {
				mustCode(t, err, tc.code)
				if b.View("status").OpenClaims != 1 {
					t.Fatal("refused resolve changed the claim")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Status != tc.status || c.Resolution != "because" || c.Resolved.IsZero() || v.OpenClaims != 0 || v.Claims != 1 {
				t.Fatalf("resolved %+v view %+v", c, v)
			}
		})
	}
	// Settling twice: the latest word counts.
	b := newBoard()
	b.Claim(Hypothesis, "x")
	b.Resolve("C1", Confirmed, "first")
	c, _, err := b.Resolve("C1", Refuted, "second look")
	if err != nil || c.Status != Refuted || c.Resolution != "second look" {
		t.Fatalf("re-resolve %+v %v", c, err)
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		kind DecisionKind
		text string
		code string
	}{
		{Plan, "refactor X", ""}, {Test, "run go test", ""}, {Edit, "rename", ""},
		{Mark, "x", CodeBadKind}, {Skip, "x", CodeBadKind}, {DecisionKind("nope"), "x", CodeBadKind},
		{Plan, "", CodeMissingText}, {Plan, strings.Repeat("x", MaxText+1), CodeTextTooLong},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind)+"/"+tc.code, func(t *testing.T) {
			b := newBoard()
			d, v, err := b.Decide(tc.kind, tc.text, nil)
			if tc.code != "" {
				mustCode(t, err, tc.code)
				return
			}
			if err != nil || d.Kind != tc.kind || d.ID != "D1" || v.Decisions != 1 {
				t.Fatalf("decide %+v %v", d, err)
			}
		})
	}
}

func TestInitKeepsBoard(t *testing.T) {
	b := newBoard()
	b.Init(project(), archMetrics)
	impactOf(b, 1, "a.py::f", "a.py::g")
	b.Claim(Finding, "f is pure")
	b.Decide(Plan, "edit f", nil)
	b.Mark(MarkSpec{Node: ref("a.py::g")})
	before := b.Snapshot()

	// Same generation and metrics: nothing new, nothing lost.
	ev, created, v := b.Init(project(), archMetrics)
	if created || ev.ID != "E1" {
		t.Fatalf("identical re-init made %+v (created=%v)", ev, created)
	}
	if v.Evidence != 2 || v.Claims != 1 || v.Decisions != 2 || v.Focus.Label != "f" || v.Progress.Done != 1 {
		t.Fatalf("re-init lost state: %s", v.Summary)
	}
	// A newer generation adds evidence and still keeps everything.
	p := project()
	p.Generation = 2
	ev, created, v = b.Init(p, archMetrics)
	if !created || ev.ID != "E3" || ev.Generation != 2 {
		t.Fatalf("re-init at a new generation: %+v created=%v", ev, created)
	}
	after := b.Snapshot()
	if len(after.Claims) != len(before.Claims) || len(after.Decisions) != len(before.Decisions) ||
		len(after.Analyses) != 1 || after.Focus != before.Focus || after.Project.Generation != 2 {
		t.Fatalf("re-init changed the board:\nbefore %+v\nafter  %+v", before, after)
	}
	if v.Summary != "Board: 3 evidence, 1 claims, 2 decisions | Focus: f | Progress: 1/2 addressed" {
		t.Fatalf("summary %q", v.Summary)
	}
}

func TestImpactReuseAndRefresh(t *testing.T) {
	b := newBoard()
	e1, c1, _ := impactOf(b, 1, "a.py::f", "a.py::g", "b.py::h")
	e2, c2, _ := impactOf(b, 1, "a.py::f", "a.py::g", "b.py::h")
	if !c1 || c2 || e1.ID != e2.ID {
		t.Fatalf("identical impact: %s (%v) then %s (%v)", e1.ID, c1, e2.ID, c2)
	}
	b.Mark(MarkSpec{Node: ref("a.py::g")})
	b.Skip(MarkSpec{Node: ref("b.py::h")})
	// The graph changed: h no longer calls f, k does. What was addressed
	// and is still affected stays addressed.
	e3, c3, v := impactOf(b, 2, "a.py::f", "a.py::g", "c.py::k")
	if !c3 || e3.ID != "E2" {
		t.Fatalf("new generation impact %+v %v", e3, c3)
	}
	p := v.Progress
	if p.Done != 1 || p.Total != 3 || p.Marked != 1 || p.Skipped != 0 || len(p.Remaining) != 2 ||
		p.Remaining[0].ID != "a.py::f" || p.Remaining[1].ID != "c.py::k" {
		t.Fatalf("progress %+v", p)
	}
	if n := len(b.Snapshot().Analyses); n != 1 {
		t.Fatalf("%d analyses, want 1", n)
	}
}

func TestMarkSkipProgress(t *testing.T) {
	type step struct {
		kind      DecisionKind
		node      string
		enclosing []string
		// want
		as, analysis, focus, prev string
		done, total               int
		progress                  bool
	}
	tests := []struct {
		name  string
		setup func(b *Board)
		steps []step
	}{
		{
			name:  "target and callers",
			setup: func(b *Board) { impactOf(b, 1, "m.py::f", "m.py::g", "n.py::h") },
			steps: []step{
				{kind: Mark, node: "m.py::f", as: "m.py::f", analysis: "f", focus: "f", done: 1, total: 3, progress: true},
				{kind: Skip, node: "n.py::h", as: "n.py::h", analysis: "f", focus: "f", done: 2, total: 3, progress: true},
				// Marking again does not count twice; it records the change.
				{kind: Mark, node: "n.py::h", as: "n.py::h", analysis: "f", focus: "f", prev: "skip", done: 2, total: 3, progress: true},
				{kind: Mark, node: "m.py::g", as: "m.py::g", analysis: "f", focus: "f", done: 3, total: 3, progress: true},
			},
		},
		{
			name:  "method counts for its aggregated class",
			setup: func(b *Board) { impactOf(b, 1, "m.py::C", "n.py::D") },
			steps: []step{
				{kind: Mark, node: "n.py::D.run", enclosing: []string{"n.py::D", "n.py"}, as: "n.py::D", analysis: "C", focus: "C", done: 1, total: 2, progress: true},
			},
		},
		{
			name: "node of an older analysis moves the focus",
			setup: func(b *Board) {
				impactOf(b, 1, "m.py::f", "m.py::g")
				impactOf(b, 1, "x.py::p", "x.py::q")
			},
			steps: []step{
				{kind: Mark, node: "m.py::g", as: "m.py::g", analysis: "f", focus: "f", done: 1, total: 2, progress: true},
				{kind: Mark, node: "x.py::q", as: "x.py::q", analysis: "p", focus: "p", done: 1, total: 2, progress: true},
			},
		},
		{
			name:  "node in no analysis keeps the active one",
			setup: func(b *Board) { impactOf(b, 1, "m.py::f", "m.py::g") },
			steps: []step{
				{kind: Mark, node: "z.py::zz", as: "z.py::zz", analysis: "", focus: "f", done: 0, total: 2, progress: true},
			},
		},
		{
			name:  "node in no analysis and none active becomes the focus",
			setup: func(b *Board) { b.Init(project(), archMetrics) },
			steps: []step{
				{kind: Skip, node: "z.py::zz", as: "z.py::zz", analysis: "", focus: "zz"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard()
			tc.setup(b)
			for i, s := range tc.steps {
				spec := MarkSpec{Node: ref(s.node), Enclosing: s.enclosing, Text: "note"}
				var res MarkResult
				var v View
				var err error
				if s.kind == Mark {
					res, v, err = b.Mark(spec)
				} else {
					res, v, err = b.Skip(spec)
				}
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if res.As.ID != s.as || res.Analysis != s.analysis || string(res.Previous) != s.prev || v.Focus.Label != s.focus {
					t.Errorf("step %d: result %+v focus %q", i, res, v.Focus.Label)
				}
				if res.Decision.Kind != s.kind || res.Decision.Node != s.node || res.Decision.Text != "note" {
					t.Errorf("step %d: decision %+v", i, res.Decision)
				}
				if (v.Progress != nil) != s.progress {
					t.Fatalf("step %d: progress %+v, want present=%v", i, v.Progress, s.progress)
				}
				if v.Progress != nil && (v.Progress.Done != s.done || v.Progress.Total != s.total) {
					t.Errorf("step %d: progress %d/%d, want %d/%d", i, v.Progress.Done, v.Progress.Total, s.done, s.total)
				}
			}
		})
	}
}

func TestMarkErrors(t *testing.T) {
	b := newBoard()
	_, _, err := b.Mark(MarkSpec{})
	mustCode(t, err, CodeMissingSymbol)
	_, _, err = b.Skip(MarkSpec{Node: ref("a.py::f"), Text: strings.Repeat("x", MaxText+1)})
	mustCode(t, err, CodeTextTooLong)
	if v := b.View("status"); v.Decisions != 0 {
		t.Fatalf("refused marks were recorded: %s", v.Summary)
	}
}

func TestSummaryLine(t *testing.T) {
	tests := []struct {
		name  string
		setup func(b *Board)
		want  string
	}{
		{"empty", func(b *Board) {}, "Board: 0 evidence, 0 claims, 0 decisions | Focus: (none) | Progress: -"},
		{"after init", func(b *Board) { b.Init(project(), archMetrics) }, "Board: 1 evidence, 0 claims, 0 decisions | Focus: shop | Progress: -"},
		{"after impact", func(b *Board) {
			b.Init(project(), archMetrics)
			impactOf(b, 1, "a.py::f", "a.py::g", "a.py::h", "a.py::i", "a.py::j")
		}, "Board: 2 evidence, 0 claims, 0 decisions | Focus: f | Progress: 0/5 addressed"},
		{"claims of every status count", func(b *Board) {
			b.Claim(Hypothesis, "x")
			b.Claim(Question, "y")
			b.Resolve("C2", Answered, "z")
			b.Decide(Test, "t", nil)
		}, "Board: 0 evidence, 2 claims, 1 decisions | Focus: (none) | Progress: -"},
		{"task without symbols", func(b *Board) {
			b.SetTasks([]Task{{ID: "T1", Title: "t"}})
			b.SelectTask("t1", nil)
		}, "Board: 0 evidence, 0 claims, 0 decisions | Focus: task T1 | Progress: -"},
		{"task with symbols", func(b *Board) {
			b.SetTasks([]Task{{ID: "T1", Title: "t"}})
			b.SelectTask("T1", []Ref{ref("a.py::f"), ref("a.py")})
			b.Mark(MarkSpec{Node: ref("a.py::f")})
		}, "Board: 0 evidence, 0 claims, 1 decisions | Focus: task T1 | Progress: 1/2 addressed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard()
			tc.setup(b)
			if got := b.View("status").Summary; got != tc.want {
				t.Fatalf("summary\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestNextHints(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(b *Board)
		action string
		want   string // substring
	}{
		{"init", func(b *Board) {}, "init", `canvas(action="impact", symbol="<target>")`},
		{"impact single", func(b *Board) { impactOf(b, 1, "a.py::f") }, "impact", `canvas(action="claim", text="...")`},
		{"impact many", func(b *Board) { impactOf(b, 1, "a.py::f", "a.py::g") }, "impact", "each of the 2 affected nodes"},
		{"impact huge", func(b *Board) {
			var cs []string
			for i := range 30 {
				cs = append(cs, fmt.Sprintf("a.py::c%d", i))
			}
			impactOf(b, 1, "a.py::f", cs...)
		}, "impact", "run the affected tests and mark or skip the callers you check (31 affected nodes)"},
		{"claim", func(b *Board) {}, "claim", `canvas(action="decide", text="...")`},
		{"resolve", func(b *Board) {}, "resolve", "Record what follows"},
		{"decide left", func(b *Board) { impactOf(b, 1, "a.py::f", "a.py::g") }, "decide", "(2 affected nodes left, e.g. f)"},
		{"decide none", func(b *Board) {}, "decide", `canvas(action="mark", symbol="...") each node you verified.`},
		{"mark left", func(b *Board) {
			impactOf(b, 1, "a.py::f", "a.py::g", "a.py::h")
			b.Mark(MarkSpec{Node: ref("a.py::f")})
		}, "mark", "Next: 2 affected nodes of f left: g, h. Mark or skip each"},
		{"skip done", func(b *Board) {
			impactOf(b, 1, "a.py::f")
			b.Skip(MarkSpec{Node: ref("a.py::f")})
		}, "skip", "All 1 affected nodes of f are addressed"},
		{"mark no analysis", func(b *Board) {}, "mark", "Continue with the remaining affected nodes"},
		{"task with symbols", func(b *Board) {
			b.SetTasks([]Task{{ID: "T1", Title: "t"}})
			b.SelectTask("T1", []Ref{{ID: "a.py::Cart.add", Label: "Cart.add"}})
		}, "task_select", `canvas(action="impact", symbol="Cart.add")`},
		{"task bare", func(b *Board) {}, "task_select", `symbol="<target>") to begin`},
		{"status empty", func(b *Board) {}, "status", `canvas(action="init")`},
		{"status remaining", func(b *Board) { impactOf(b, 1, "a.py::f", "a.py::g") }, "status", "2 affected nodes of f left: f, g"},
		{"read open claim", func(b *Board) {
			b.Init(project(), archMetrics)
			b.Claim(Hypothesis, "x")
			b.Claim(Question, "y")
		}, "read", `text="C2: why"`},
		{"status settled", func(b *Board) { b.Init(project(), archMetrics) }, "status", `canvas(action="impact"`},
		{"unknown action", func(b *Board) {}, "bogus", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBoard()
			tc.setup(b)
			got := b.View(tc.action).Next
			if tc.want == "" {
				if got != "" {
					t.Fatalf("hint %q, want none", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "Next: ") {
				t.Fatalf("hint\n got %q\nwant it to contain %q", got, tc.want)
			}
		})
	}
}

func TestManyRemainingHintIsShort(t *testing.T) {
	b := newBoard()
	var callers []string
	for i := range 500 {
		callers = append(callers, "a.py::caller"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"_"+strings.Repeat("y", i/26))
	}
	impactOf(b, 1, "a.py::f", callers...)
	next := b.View("status").Next
	if len(next) > 400 || !strings.Contains(next, "more)") {
		t.Fatalf("hint for 500 remaining nodes is %d chars: %q", len(next), next)
	}
}

func TestSelectTask(t *testing.T) {
	b := newBoard()
	_, _, err := b.SelectTask("T1", nil)
	mustCode(t, err, CodeNoTasks)
	b.SetTasks([]Task{{ID: "T1", Title: "one", Symbols: []string{"f"}}, {ID: "fix-login", Title: "two"}})
	_, _, err = b.SelectTask("T9", nil)
	mustCode(t, err, CodeUnknownTask)
	if !strings.Contains(err.Error(), "T1, fix-login") {
		t.Errorf("unknown task error does not list ids: %v", err)
	}
	task, v, err := b.SelectTask("FIX-LOGIN", nil)
	if err != nil || task.ID != "fix-login" || v.Focus.Kind != FocusTask || v.Progress != nil {
		t.Fatalf("select %+v %+v %v", task, v, err)
	}
	task, v, err = b.SelectTask("T1", []Ref{ref("a.py::f"), ref("a.py::f"), ref("a.py")})
	if err != nil || task.Symbols[0] != "f" || v.Progress == nil || v.Progress.Total != 2 {
		t.Fatalf("select with nodes %+v %+v %v", task, v.Progress, err)
	}
	// The returned task is a copy.
	task.Symbols[0] = "changed"
	if b.Snapshot().Tasks[0].Symbols[0] != "f" {
		t.Fatal("SelectTask returned shared slices")
	}
	if s := b.Snapshot(); s.ActiveTask != "T1" {
		t.Fatalf("active task %q", s.ActiveTask)
	}
}

func TestSetImage(t *testing.T) {
	b := newBoard()
	b.Init(project(), archMetrics)
	if !b.SetImage("E1", "architecture.png") || b.SetImage("E7", "x.png") {
		t.Fatal("SetImage found the wrong evidence")
	}
	if got := b.Snapshot().Evidence[0].Image; got != "architecture.png" {
		t.Fatalf("image %q", got)
	}
}

func TestSnapshotIsDeep(t *testing.T) {
	b := newBoard()
	impactOf(b, 1, "a.py::f", "a.py::g")
	s := b.Snapshot()
	s.Evidence[0].Metrics["callers"] = 99
	s.Analyses[0].Nodes[0].Label = "x"
	s.Analyses[0].Addressed["a.py::f"] = Address{Status: Mark}
	s2 := b.Snapshot()
	if s2.Evidence[0].Metrics["callers"] != 1 || s2.Analyses[0].Nodes[0].Label != "f" || len(s2.Analyses[0].Addressed) != 0 {
		t.Fatal("snapshot shares memory with the board")
	}
}

func TestLinksToEvidenceLookedAtLast(t *testing.T) {
	b := newBoard()
	impactOf(b, 1, "a.py::f", "a.py::g")
	impactOf(b, 1, "b.py::p")
	e, created, _ := impactOf(b, 1, "a.py::f", "a.py::g") // reused
	if created || e.ID != "E1" {
		t.Fatalf("reused impact %+v %v", e, created)
	}
	c, _, _ := b.Claim(Finding, "f is pure")
	d, _, _ := b.Decide(Plan, "edit f", nil)
	if c.Evidence != "E1" || d.Evidence != "E1" {
		t.Fatalf("claim linked to %s, decision to %s; want E1 (looked at last)", c.Evidence, d.Evidence)
	}
	data, _ := b.Marshal()
	b2, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	c2, _, _ := b2.Claim(Finding, "after reload")
	if c2.Evidence != "E1" {
		t.Fatalf("after reload linked to %s", c2.Evidence)
	}
}
