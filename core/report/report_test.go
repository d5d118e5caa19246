package report

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// A class whose methods live in two files calls the target from both: the
// report keeps every file's call sites.
func TestImpactSitesInSeveralFiles(t *testing.T) {
	nodes := []*graph.Node{
		{ID: "t.go", Kind: graph.Module, Path: "t.go"},
		{ID: "t.go::F", Kind: graph.Func, Name: "F", Qual: "F", Path: "t.go", StartLine: 1, EndLine: 5},
		{ID: "u.go", Kind: graph.Module, Path: "u.go"},
		{ID: "u.go::U", Kind: graph.Class, Name: "U", Qual: "U", Path: "u.go", StartLine: 1, EndLine: 2},
		{ID: "u_x.go", Kind: graph.Module, Path: "u_x.go"},
		{ID: "u_x.go::U.X", Kind: graph.Func, Name: "X", Qual: "U.X", Path: "u_x.go", StartLine: 3, EndLine: 9, Owner: "u.go::U"},
		{ID: "u_z.go", Kind: graph.Module, Path: "u_z.go"},
		{ID: "u_z.go::U.Z", Kind: graph.Func, Name: "Z", Qual: "U.Z", Path: "u_z.go", StartLine: 3, EndLine: 9, Owner: "u.go::U"},
	}
	g := graph.New(nodes, []graph.EdgeSpec{
		{From: "t.go", To: "t.go::F", Type: graph.Contains},
		{From: "u_x.go::U.X", To: "t.go::F", Type: graph.Call, Confidence: graph.Resolved, Line: 5},
		{From: "u_z.go::U.Z", To: "t.go::F", Type: graph.Call, Confidence: graph.Resolved, Line: 7},
	})
	i, _ := g.Index("t.go")
	r := NewImpact(g, g.Impact(i, 1, graph.Filter{}), nil)
	if len(r.Callers) != 1 || len(r.Callers[0].AllSites) != 2 || r.Callers[0].AllSites[1].Path != "u_z.go" ||
		r.Callers[0].SitePath != "u_x.go" || r.Callers[0].Calls != 2 {
		t.Fatalf("callers: %+v", r.Callers)
	}
	var b bytes.Buffer
	r.WriteText(&b)
	if !strings.Contains(b.String(), "u_x.go:5; u_z.go:7 ") {
		t.Errorf("text does not list both files' call sites:\n%s", b.String())
	}
}

func TestSiteLoc(t *testing.T) {
	lines := func(n int) []int {
		var out []int
		for i := range n {
			out = append(out, 10+i)
		}
		return out
	}
	for _, c := range []struct {
		nb   Neighbor
		want string
	}{
		{Neighbor{SitePath: "decode.go", Sites: []int{756, 760, 779}}, "decode.go:756,760,779"},
		{Neighbor{SitePath: "a.go"}, "a.go"},
		{Neighbor{SitePath: "a.go", Sites: lines(10)}, "a.go:10,11,12,13,14,15,16,17 +2 more"},
		{Neighbor{SitePath: "a.go", Sites: []int{1}, AllSites: []Site{{"a.go", []int{1}}, {"b.go", []int{2, 3}}}}, "a.go:1; b.go:2,3"},
		{Neighbor{SitePath: "a.go", AllSites: []Site{{"a.go", lines(8)}, {"b.go", []int{2, 3}}}}, "a.go:10,11,12,13,14,15,16,17 +2 more"},
	} {
		if got := siteLoc(c.nb); got != c.want {
			t.Errorf("siteLoc(%+v) = %q, want %q", c.nb, got, c.want)
		}
	}
}

func TestLanguages(t *testing.T) {
	cases := []struct {
		m    map[string]int
		n    int
		want string
	}{
		{nil, 4, "no known language"},
		{map[string]int{"go": 1380, "python": 32}, 4, "go 1,380, python 32"},
		{map[string]int{"a": 1, "b": 1, "c": 5}, 2, "c 5, a 1, +1 more"},
	}
	for _, c := range cases {
		if got := Languages(c.m, c.n); got != c.want {
			t.Errorf("Languages(%v, %d) = %q, want %q", c.m, c.n, got, c.want)
		}
	}
	if got := Thousands(1234567); got != "1,234,567" {
		t.Errorf("Thousands = %q", got)
	}
}

// TestImpactOf: one lookup for every answer: a symbol found gives its
// report (carrying the precise index's line only when one of its edges
// is precise), one not found gives suggestions.
func TestImpactOf(t *testing.T) {
	nodes := []*graph.Node{
		{ID: "a.go", Kind: graph.Module, Path: "a.go"},
		{ID: "a.go::Load", Kind: graph.Func, Name: "Load", Qual: "Load", Path: "a.go", StartLine: 1, EndLine: 3},
		{ID: "a.go::Save", Kind: graph.Func, Name: "Save", Qual: "Save", Path: "a.go", StartLine: 5, EndLine: 9},
		{ID: "a.go::Sync", Kind: graph.Func, Name: "Sync", Qual: "Sync", Path: "a.go", StartLine: 11, EndLine: 15},
	}
	g := graph.New(nodes, []graph.EdgeSpec{
		{From: "a.go::Save", To: "a.go::Load", Type: graph.Call, Confidence: graph.Resolved, Line: 6},
		{From: "a.go::Sync", To: "a.go::Save", Type: graph.Call, Confidence: graph.Precise, Line: 12},
	})
	cases := []struct {
		sym, precise string
		depth        int
		callers      int
		wantPrecise  string
		notFound     bool
	}{
		{"Load", "index.scip (scip-go)", 1, 1, "", false},
		{"Load", "index.scip (scip-go)", 3, 1, "index.scip (scip-go)", false}, // Sync calls Save precisely, two hops up
		{"Save", "index.scip (scip-go)", 3, 1, "index.scip (scip-go)", false},
		{"a.go::Save", "", 3, 1, "", false},
		{"Lod", "", 3, 0, "", true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s depth %d", c.sym, c.depth), func(t *testing.T) {
			r, im, err := ImpactOf(g, c.sym, c.depth, graph.Filter{}, c.precise)
			if c.notFound {
				var nf *NotFoundError
				if !errors.As(err, &nf) || len(nf.Suggestions) == 0 {
					t.Fatalf("err %v, want a NotFoundError with suggestions", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Nodes[im.Target].ID != r.Target.ID || len(r.Callers) != c.callers || r.Precise != c.wantPrecise {
				t.Errorf("target %s, %d callers, precise %q; want %d callers, precise %q", r.Target.ID, len(r.Callers), r.Precise, c.callers, c.wantPrecise)
			}
		})
	}
}
