package board

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/board")

// sample builds a board that uses every feature.
func sample() *Board {
	b := newBoard()
	b.Init(project(), archMetrics)
	b.SetImage("E1", "architecture.png")
	impactOf(b, 1, "shop/pricing.py::total", "shop/pricing.py::render", "tests/test_pricing.py::test_total")
	b.Claim(Hypothesis, "Changing total may break render")
	b.Claim(Question, "Does discount ever return non-zero?")
	b.Resolve("C2", Answered, "No: it always returns 0")
	b.Decide(Plan, "Apply the discount inside total, then update render's test", nil)
	b.Mark(MarkSpec{Node: ref("shop/pricing.py::total"), Text: "unit tests pass"})
	b.Skip(MarkSpec{Node: ref("tests/test_pricing.py::test_total"), Text: "test only"})
	b.SetTasks([]Task{{ID: "T1", Title: "Apply the discount", Description: "10% over 100", Symbols: []string{"discount"}, Files: []string{"shop/pricing.py"}},
		{ID: "T2", Title: "Cart.add rejects negatives"}})
	b.SelectTask("T1", []Ref{ref("shop/pricing.py::discount"), {ID: "shop/pricing.py", Label: "shop/pricing.py"}})
	b.Mark(MarkSpec{Node: ref("shop/pricing.py::total")}) // in the older impact analysis: focus moves back
	return b
}

func TestMarshalRoundTrip(t *testing.T) {
	b := sample()
	data, err := b.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(`{"format":"ccd-board","version":1,`)) {
		t.Fatalf("marshalled bytes start %.60s", data)
	}
	b2, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := b.Snapshot(), b2.Snapshot()
	if !reflect.DeepEqual(s1, s2) {
		t.Fatalf("round trip differs:\n%+v\n%+v", s1, s2)
	}
	data2, _ := b2.Marshal()
	if !bytes.Equal(data, data2) {
		t.Fatal("marshal(unmarshal(x)) != x")
	}
	// New ids continue after the loaded ones.
	b2.SetClock(clock())
	c, _, _ := b2.Claim(Finding, "after reload")
	d, _, _ := b2.Decide(Test, "after reload", nil)
	e, _, _ := impactOf(b2, 3, "x.py::y")
	if c.ID != "C3" || d.ID != "D5" || e.ID != "E3" {
		t.Fatalf("ids after reload: %s %s %s", c.ID, d.ID, e.ID)
	}
}

func TestUnmarshalRaisesCounters(t *testing.T) {
	// A board whose counters lag behind its items (hand-edited, or written
	// by a buggy version) must not reissue ids.
	data := []byte(`{"format":"ccd-board","version":1,"claims":[{"id":"C7","kind":"finding","text":"x","status":"open"}],"seq":{"E":0,"C":2,"D":0},` +
		`"analyses":[null,{"key":"a.py::f","label":"f","nodes":null}],"focus":{"kind":"symbol","label":"g","analysis":"gone"}}`)
	b, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	c, v, _ := b.Claim(Finding, "y")
	if c.ID != "C8" {
		t.Fatalf("new claim %s, want C8", c.ID)
	}
	if v.Progress != nil || v.Focus.Analysis != "" {
		t.Fatalf("focus on a missing analysis survived: %+v", v.Focus)
	}
	if _, _, err := b.Mark(MarkSpec{Node: ref("a.py::f")}); err != nil {
		t.Fatalf("mark on an analysis loaded with null maps: %v", err)
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"garbage", "not json", "decode board"},
		{"empty", "", "decode board"},
		{"other format", `{"format":"x","version":1}`, `format "x"`},
		{"newer", `{"format":"ccd-board","version":2}`, "version 2 is newer"},
		{"zero version", `{"format":"ccd-board","version":0}`, "bad version 0"},
		{"bad id", `{"format":"ccd-board","version":1,"evidence":[{"id":"X1"}]}`, `bad id "X1"`},
		{"bad number", `{"format":"ccd-board","version":1,"decisions":[{"id":"D0"}]}`, `bad id "D0"`},
		{"duplicate", `{"format":"ccd-board","version":1,"claims":[{"id":"C1"},{"id":"C1"}]}`, `duplicate id "C1"`},
		{"wrong type", `{"format":"ccd-board","version":1,"claims":{}}`, "decode board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tc.in))
			mustCode(t, err, CodeBadState)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want %q", err, tc.want)
			}
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := "../../testdata/board/" + name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./core/board -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (go test ./core/board -update after review):\n--- got ---\n%s", path, got)
	}
}

func TestStateGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	var probe map[string]any
	if err := json.Unmarshal(buf.Bytes(), &probe); err != nil {
		t.Fatalf("state.json is not JSON: %v", err)
	}
	for _, k := range []string{"schema", "summary", "project", "focus", "progress", "evidence", "claims", "decisions", "analyses", "tasks", "rev", "updated"} {
		if _, ok := probe[k]; !ok {
			t.Errorf("state.json lacks %q", k)
		}
	}
	golden(t, "state.golden.json", buf.Bytes())

	// An empty board writes empty lists, not nulls.
	buf.Reset()
	New().WriteState(&buf)
	if bytes.Contains(buf.Bytes(), []byte("null,")) && !bytes.Contains(buf.Bytes(), []byte(`"progress": null,`)) {
		t.Fatalf("empty state.json has nulls:\n%s", buf.Bytes())
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"claims": [],`)) {
		t.Fatalf("empty state.json:\n%s", buf.Bytes())
	}
}

func TestReadTextGolden(t *testing.T) {
	var buf bytes.Buffer
	sample().Snapshot().WriteText(&buf, 0)
	golden(t, "read.golden.txt", buf.Bytes())
}

func TestReadTextLimit(t *testing.T) {
	b := newBoard()
	for i := range 30 {
		b.Claim(Finding, fmt.Sprintf("finding %d %s", i, strings.Repeat("long ", 200)))
	}
	var buf bytes.Buffer
	b.Snapshot().WriteText(&buf, 5)
	out := buf.String()
	if !strings.Contains(out, "… 25 older claims not shown") || strings.Contains(out, "finding 24 ") || !strings.Contains(out, "finding 29 ") {
		t.Fatalf("limited dump:\n%s", out)
	}
	if len(out) > 5*320+400 {
		t.Fatalf("dump of 5 claims is %d bytes", len(out))
	}
}

// TestConcurrent applies actions from many goroutines (sessions) to one
// board: nothing is lost, ids are unique and dense. Run with -race.
func TestConcurrent(t *testing.T) {
	b := New()
	b.Init(project(), archMetrics)
	impactOf(b, 1, "a.py::f", "a.py::g", "a.py::h")
	const workers, each = 8, 40
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				switch i % 5 {
				case 0:
					b.Claim(Hypothesis, fmt.Sprintf("w%d i%d", w, i))
				case 1:
					b.Decide(Plan, fmt.Sprintf("w%d i%d", w, i), nil)
				case 2:
					b.Mark(MarkSpec{Node: ref("a.py::g")})
				case 3:
					impactOf(b, uint64(w*100+i), fmt.Sprintf("w%d.py::f", w), "a.py::g")
				case 4:
					b.Snapshot()
					b.Marshal()
					var buf bytes.Buffer
					b.WriteState(&buf)
				}
			}
		}()
	}
	wg.Wait()
	s := b.Snapshot()
	n := workers * each / 5
	if len(s.Claims) != n || len(s.Decisions) != 2*n || len(s.Evidence) != 2+n {
		t.Fatalf("lost items: %d claims, %d decisions, %d evidence", len(s.Claims), len(s.Decisions), len(s.Evidence))
	}
	seen := map[string]bool{}
	for i, c := range s.Claims {
		if c.ID != fmt.Sprintf("C%d", i+1) || seen[c.ID] {
			t.Fatalf("claim %d has id %s", i, c.ID)
		}
		seen[c.ID] = true
	}
	for i, d := range s.Decisions {
		if d.ID != fmt.Sprintf("D%d", i+1) {
			t.Fatalf("decision %d has id %s", i, d.ID)
		}
	}
	for i, e := range s.Evidence {
		if e.ID != fmt.Sprintf("E%d", i+1) {
			t.Fatalf("evidence %d has id %s", i, e.ID)
		}
	}
}
