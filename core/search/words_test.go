package search

import (
	"fmt"
	"strings"
	"testing"
)

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
		{"select", "selector", "selectors"},
		{"collect", "collector", "collectors"},
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
	for _, p := range [][2]string{{"status", "state"}, {"fill", "file"}, {"pass", "pas"}, {"read", "ready"}, {"author", "auth"}, {"factor", "fact"}} {
		if lightStem(p[0]) == lightStem(p[1]) {
			t.Errorf("%q and %q share the stem %q", p[0], p[1], lightStem(p[0]))
		}
	}
}

func TestRankingPriors(t *testing.T) {
	fx := build(t, unpack(t, "ranking.txtar"))
	for _, c := range []struct {
		pattern, first string
		within         int
	}{
		{"io.ReadFull", "io/io.go", 1},
		{"ReadFull", "io/io.go", 1},
		// The xcoff parser names two of the words; the gzip path lifts
		// gunzip.go beside it.
		{"parse gzip member header", "compress/gzip/gunzip.go", 2},
		{"how are cookies parsed from a request header", "net/http/cookie.go", 1},
		{"tests parsing cookies", "net/http/cookie_test.go", 1},
	} {
		r, err := fx.ix.Query(QueryParams{Pattern: c.pattern}, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i := 0; i < c.within && i < len(r.Handles); i++ {
			found = found || r.Handles[i].FilePath == c.first
		}
		if !found {
			t.Errorf("%q: got %v, want %s within the first %d", c.pattern, labels(r.Handles), c.first, c.within)
		}
	}
}

// A pack is less sure when its best handle sits in a test file the query
// did not ask about, or when another file scores nearly as high.
func TestGuidanceDoubts(t *testing.T) {
	fx := build(t, unpack(t, "ranking.txtar"))
	for _, c := range []struct {
		pattern string
		band    string
		why     string
	}{
		{"TestReadCookies", BandMedium, "test file"},
		{"readCookies", BandHigh, ""},
		// Two files nearly tie: refine.
		{"header", BandLow, "another file scores nearly as high"},
	} {
		p, err := fx.ix.EvidencePack(PackRequest{QueryParams: QueryParams{Pattern: c.pattern}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := p.Guidance
		if g.ConfidenceBand != c.band || (c.why != "" && !strings.Contains(g.NextStep, c.why)) {
			t.Errorf("%q: %s %.2f: %s (want %s, %q)", c.pattern, g.ConfidenceBand, g.Confidence, g.NextStep, c.band, c.why)
		}
	}
}

func TestCompact(t *testing.T) {
	ix := New()
	for i := 0; i < 300; i++ {
		ix.Update(fmt.Sprintf("f%03d.txt", i), []byte(fmt.Sprintf("shared words here and a unique%d word\n", i)), "", nil)
	}
	before, _ := ix.Query(QueryParams{Pattern: "shared words", Limit: 50}, nil)
	size := ix.Status().IndexSizeBytes
	ix.Compact()
	after, _ := ix.Query(QueryParams{Pattern: "shared words", Limit: 50}, nil)
	if fmt.Sprint(labels(before.Handles)) != fmt.Sprint(labels(after.Handles)) {
		t.Errorf("Compact changed an answer:\n%v\n%v", labels(before.Handles), labels(after.Handles))
	}
	if now := ix.Status().IndexSizeBytes; now >= size {
		t.Errorf("index size %d after Compact, %d before", now, size)
	}
	for i := range ix.terms {
		if p := ix.terms[i].post; cap(p) > len(p)+len(p)/4+4 {
			t.Fatalf("term %q: %d postings in room for %d", ix.terms[i].text, len(p), cap(p))
		}
	}
}
