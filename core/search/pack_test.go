package search

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestGuidanceBands(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	spread := New()
	named := New()
	for i := 0; i < 10; i++ {
		spread.Update(fmt.Sprintf("t%d.txt", i), []byte("the gizmo is mentioned here once\n"), "", nil)
		src := fmt.Sprintf("def make_widget_%d():\n    return %d\n", i, i)
		named.Update(fmt.Sprintf("w%d.py", i), []byte(src), "python", defsPy(fmt.Sprintf("make_widget_%d", i), 0, len(src), 1, 2))
	}
	cases := []struct {
		name    string
		ix      *Index
		req     PackRequest
		band    string
		action  string
		stop    bool
		expand  int
		more    int
		minConf float64
		maxConf float64
	}{
		{"exact definition", fx.ix, PackRequest{QueryParams: QueryParams{Symbol: "AuthController", Kind: "definition"}}, BandHigh, ActionExpand, true, 1, 0, 1, 1},
		{"named and focused", fx.ix, PackRequest{QueryParams: QueryParams{Pattern: "ServeHTTP"}}, BandHigh, ActionExpand, true, 1, 0, 0.75, 1},
		// Ten files answer alike: no one of them is the answer.
		{"named but spread", named, PackRequest{QueryParams: QueryParams{Pattern: "widget"}}, BandLow, ActionRefine, false, 1, 2, 0, 0.5},
		// One file holds the word, nothing else does.
		{"focused body match", fx.ix, PackRequest{QueryParams: QueryParams{Pattern: "quartermaster"}}, BandHigh, ActionExpand, true, 1, 0, 0.75, 1},
		{"partial words", fx.ix, PackRequest{QueryParams: QueryParams{Pattern: "authenticate token nonexistentword"}}, BandMedium, ActionExpand, true, 1, 1, 0.5, 0.75},
		{"spread body matches", spread, PackRequest{QueryParams: QueryParams{Pattern: "gizmo"}}, BandLow, ActionRefine, false, 1, 2, 0, 0.5},
		{"nothing", fx.ix, PackRequest{QueryParams: QueryParams{Pattern: "nonexistentword"}}, BandLow, ActionRefine, false, 0, 2, 0, 0},
	}
	for _, c := range cases {
		p, err := c.ix.EvidencePack(c.req, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g := p.Guidance
		if g.ConfidenceBand != c.band || g.RecommendedAction != c.action || g.StopQuerying != c.stop ||
			g.SuggestedExpandCount != c.expand || g.MaxAdditionalQueries != c.more ||
			g.Confidence < c.minConf || g.Confidence > c.maxConf || g.NextStep == "" {
			t.Errorf("%s: guidance %+v", c.name, g)
		}
		if len(p.ExpandSuggestion) != min(c.expand, len(p.Handles)) {
			t.Errorf("%s: %d suggestions for suggested_expand_count %d", c.name, len(p.ExpandSuggestion), c.expand)
		}
	}
}

func TestPackSelection(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	p, err := fx.ix.EvidencePack(PackRequest{QueryParams: QueryParams{Pattern: "authenticate"}, MaxHandles: 3, MaxPerFile: 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, h := range p.Handles {
		per[h.FilePath]++
	}
	if len(p.Handles) != 2 || per["auth/auth.py"] != 1 || per["auth/routes.py"] != 1 {
		t.Errorf("max_per_file 1: %s", mustJSON(t, p.Handles))
	}
	if p.Handles[0].Score != 1 || p.Handles[1].Score >= 1 || p.Handles[1].Score <= 0 {
		t.Errorf("scores relative to the best: %v, %v", p.Handles[0].Score, p.Handles[1].Score)
	}
	if !p.Truncated || p.TotalMatches <= len(p.Handles) {
		t.Errorf("total %d truncated %v", p.TotalMatches, p.Truncated)
	}
	if len(p.Files) != 2 || p.Files[0].FilePath != p.Handles[0].FilePath || p.Files[0].HandleIDs[0] != p.Handles[0].ID {
		t.Errorf("files grouping: %s", mustJSON(t, p.Files))
	}
	// Every key of Canopy's evidence pack JSON is there.
	var m map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, p)), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"handles", "files", "expand_suggestion", "guidance"} {
		if _, ok := m[k]; !ok {
			t.Errorf("pack JSON lacks %q", k)
		}
	}
	for _, k := range []string{"stop_querying", "recommended_action", "suggested_expand_count", "max_additional_queries", "confidence", "confidence_band", "next_step"} {
		if _, ok := m["guidance"].(map[string]any)[k]; !ok {
			t.Errorf("guidance JSON lacks %q", k)
		}
	}
	h0 := m["handles"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "file_path", "line_range", "token_count", "score"} {
		if _, ok := h0[k]; !ok {
			t.Errorf("pack handle JSON lacks %q", k)
		}
	}
	if _, ok := h0["preview"]; ok {
		t.Error("pack handles carry no snippets")
	}
}

// TestSessionDeprioritisesExpanded: after the best handle is expanded, the
// next pack marks it and suggests the next one instead.
func TestSessionDeprioritisesExpanded(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	s := NewSession()
	req := PackRequest{QueryParams: QueryParams{Symbol: "authenticate"}, MaxHandles: 4}
	p1, err := fx.ix.EvidencePack(req, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p1.ExpandSuggestion) == 0 {
		t.Fatalf("no suggestion: %s", mustJSON(t, p1))
	}
	first := p1.ExpandSuggestion[0]
	if r := fx.ix.Expand([]string{first}, s, nil); len(r.Contents) != 1 {
		t.Fatalf("expand: %s", mustJSON(t, r))
	}
	p2, err := fx.ix.EvidencePack(req, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Handles[0].ID != first || !p2.Handles[0].RecentlyExpanded {
		t.Errorf("the expanded handle should stay ranked first and be marked: %s", mustJSON(t, p2.Handles))
	}
	if contains(p2.ExpandSuggestion, first) {
		t.Errorf("suggestion %v repeats the expanded handle %s", p2.ExpandSuggestion, first)
	}
	if len(p2.ExpandSuggestion) == 0 && !strings.Contains(p2.Guidance.NextStep, "already expanded") {
		t.Errorf("next step should say the best handles were expanded: %q", p2.Guidance.NextStep)
	}
	if !s.RecentlyExpanded(first) || s.ExpandedCount() != 1 {
		t.Errorf("session state: recently %v, count %d", s.RecentlyExpanded(first), s.ExpandedCount())
	}
	// Old expansions fall out of the window.
	for i := 0; i < RecentWindow; i++ {
		s.MarkExpanded(fmt.Sprintf("h%024x", i))
	}
	if s.RecentlyExpanded(first) {
		t.Error("an expansion older than the window still counts as recent")
	}
}
