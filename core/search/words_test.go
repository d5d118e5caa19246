package search

import "testing"

func TestLightStem(t *testing.T) {
	groups := [][]string{
		{"parse", "parsed", "parses", "parsing", "parser", "parsers"},
		{"connection", "connections", "connect", "connected", "connecting"},
		{"cookie", "cookies"},
		{"stop", "stopped", "stopping"},
		{"query", "queries", "queried"},
		{"compress", "compression", "compressed"},
		{"match", "matches", "matched", "matching"},
		{"class", "classes"},
	}
	for _, g := range groups {
		want := lightStem(g[0])
		for _, w := range g[1:] {
			if got := lightStem(w); got != want {
				t.Errorf("lightStem(%q) = %q, lightStem(%q) = %q: want the same", w, got, g[0], want)
			}
		}
	}
	// Different words keep different stems.
	for _, p := range [][2]string{{"status", "state"}, {"fill", "file"}, {"pass", "pas"}, {"read", "ready"}} {
		if lightStem(p[0]) == lightStem(p[1]) {
			t.Errorf("%q and %q share the stem %q", p[0], p[1], lightStem(p[0]))
		}
	}
}
