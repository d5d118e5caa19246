package graph

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	n := func(id string, k Kind, p string, start int) *Node {
		return &Node{ID: id, Kind: k, Name: id, Path: p, StartLine: start, EndLine: start + 1}
	}
	g := New([]*Node{
		n("m", Module, "m.py", 0),
		n("c", Class, "c.py", 1),
		n("f", Func, "f.py", 1),
		n("hot", Func, "f.py", 3),       // degree 2
		n("parent", Func, "f.py", 5),    // one child
		n("child", Func, "f.py", 6),     // contained in parent
		n("hdr", Func, "x.h", 1),        // header
		n("src", Func, "x.c", 1),        // source
		n("norange", Func, "x.c", 0),    // no range
		n("a_tie", Func, "t.py", 1),     // ties broken by id
		n("b_tie", Func, "t.py", 1),     // ties broken by id
		n("hotclass", Class, "c.py", 5), // degree 3, still after functions
	}, []EdgeSpec{
		{From: "m", To: "hot", Type: Call, Confidence: Resolved},
		{From: "c", To: "hot", Type: Call, Confidence: Resolved},
		{From: "parent", To: "child", Type: Contains},
		{From: "m", To: "hotclass", Type: Call, Confidence: Resolved},
		{From: "f", To: "hotclass", Type: Call, Confidence: Resolved},
		{From: "hotclass", To: "c", Type: Import, Confidence: Resolved},
	})
	id := func(s string) int { i, _ := g.Index(s); return i }
	tests := []struct {
		cands []string
		want  []string
	}{
		{[]string{"m", "c", "f"}, []string{"f", "c", "m"}},
		{[]string{"hotclass", "f"}, []string{"f", "hotclass"}},
		{[]string{"c", "hotclass"}, []string{"hotclass", "c"}},
		{[]string{"f", "hot"}, []string{"hot", "f"}},
		{[]string{"child", "parent"}, []string{"parent", "child"}},
		{[]string{"hdr", "src"}, []string{"src", "hdr"}},
		{[]string{"norange", "src"}, []string{"src", "norange"}},
		{[]string{"b_tie", "a_tie"}, []string{"a_tie", "b_tie"}},
		// degree beats children beats source beats range.
		{[]string{"norange", "hdr", "parent", "hot"}, []string{"hot", "parent", "norange", "hdr"}},
	}
	for _, tc := range tests {
		var cands []int
		for _, c := range tc.cands {
			cands = append(cands, id(c))
		}
		g.rank(cands)
		var got []string
		for _, c := range cands {
			got = append(got, g.Nodes[c].ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("rank(%q) = %q, want %q", tc.cands, got, tc.want)
		}
	}
}

func TestIsHeader(t *testing.T) {
	tests := map[string]bool{
		"a.h": true, "a.hh": true, "a.hpp": true, "a.hxx": true, "a.h++": true, "A.H": true,
		"types.d.ts": true, "stub.pyi": true,
		"a.c": false, "a.cc": false, "a.ts": false, "a.py": false, "h": false, "a.html": false,
	}
	for p, want := range tests {
		if got := isHeader(p); got != want {
			t.Errorf("isHeader(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestAtoi(t *testing.T) {
	tests := map[string]int{"": 0, "0": 0, "7": 7, "42": 42, "123456789": 123456789, "1234567890": 0,
		"-1": 0, "+1": 0, "1a": 0, "a1": 0, " 1": 0, "Name": 0, "٣": 0}
	for s, want := range tests {
		if got := atoi(s); got != want {
			t.Errorf("atoi(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestEditDistanceAndLCS(t *testing.T) {
	tests := []struct {
		a, b      string
		edit, lcs int
	}{
		{"", "", 0, 0},
		{"abc", "", 3, 0},
		{"", "abc", 3, 0},
		{"abc", "abc", 0, 3},
		{"kitten", "sitting", 3, 4},
		{"proces_data", "process_data", 1, 11},
		{"handlr", "handler", 1, 6},
		{"hnadler", "handler", 2, 6},
		{"hdlrequest", "handle_request", 4, 10},
		{"abc", "xyz", 3, 0},
	}
	for _, tc := range tests {
		if got := editDistance(tc.a, tc.b); got != tc.edit {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.edit)
		}
		if got := editDistance(tc.b, tc.a); got != tc.edit {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.edit)
		}
		if got := lcsLen(tc.a, tc.b); got != tc.lcs {
			t.Errorf("lcsLen(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.lcs)
		}
	}
	long := string(make([]byte, 65))
	if got := editDistance(long, "a"); got != 99 {
		t.Errorf("editDistance(65 bytes) = %d, want 99", got)
	}
	if got := lcsLen(long, long); got != 0 {
		t.Errorf("lcsLen(65 bytes) = %d, want 0", got)
	}
}

func TestSortedUnique(t *testing.T) {
	tests := []struct{ in, want []int }{
		{nil, nil},
		{[]int{3}, []int{3}},
		{[]int{3, 1, 2}, []int{1, 2, 3}},
		{[]int{5, 5, 1, 5, 1}, []int{1, 5}},
	}
	for _, tc := range tests {
		if got := sortedUnique(slices.Clone(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("sortedUnique(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestEditDistanceMaxAndCommonBytes(t *testing.T) {
	cases := []struct {
		a, b      string
		max, want int
	}{
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 1, 2}, // gives up: max+1
		{"serve", "serve", 0, 0},
		{"handlerequst", "handlerequest", 3, 1},
		{"abc", "xyz", 1, 2},
	}
	for _, c := range cases {
		if got := editDistanceMax(c.a, c.b, c.max); got != c.want {
			t.Errorf("editDistanceMax(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
		// Within the bound it agrees with the full distance.
		if full := editDistance(c.a, c.b); full <= c.max && full != editDistanceMax(c.a, c.b, c.max) {
			t.Errorf("editDistanceMax(%q, %q) disagrees with editDistance %d", c.a, c.b, full)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"abc", "cab", 3}, {"aab", "abb", 2}, {"serve", "xyz", 0}} {
		if got := commonBytes(c.a, c.b); got != c.want || got < lcsLen(c.a, c.b) {
			t.Errorf("commonBytes(%q, %q) = %d, want %d (and at least the LCS %d)", c.a, c.b, got, c.want, lcsLen(c.a, c.b))
		}
	}
}
