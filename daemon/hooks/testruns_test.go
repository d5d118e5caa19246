package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/testmap"
)

// runsOf is a recording: function id -> tests seen running it.
type runsOf map[string][]string

func (r runsOf) TestsRan(id string) ([]string, bool) { ts, ok := r[id]; return ts, ok }
func (r runsOf) Recorded(id string) bool {
	for _, ts := range r {
		if slices.Contains(ts, id) {
			return true
		}
	}
	return id == "tests/test_cart.py::test_total" || id == "tests/test_cart.py::test_discount"
}

// TestEditCardReadsRecording: with a recording of the test suite, the
// edit card's tests are those seen running the changed code; when none
// ran it, the card says so and where that comes from.
func TestEditCardReadsRecording(t *testing.T) {
	h := shopRepo(t)
	before := h.res.Graph
	// The real recorder on the shop's suite (plain pytest-style tests).
	rec, err := testmap.Record(context.Background(), h.root, before, testmap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(h.root, "shop", "pricing.py")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "return item.price", "return round(item.price, 2)", 1)), 0o644)
	_, after, err := h.Apply(context.Background(), h.root, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	lc := lineChanges{known: true}
	lc.add(10) // base_price's return
	lc.del(10)
	cs := diffFile(before, after, "shop/pricing.py", lc)
	for _, c := range []struct {
		name       string
		runs       graph.TestRuns
		want, lack []string
	}{
		{"recorded", rec, []string{"Tests to run (seen running it, recorded ", " ago): python -m pytest tests/test_cart.py::test_discount tests/test_cart.py::test_total"}, nil},
		{"only test_total ran it", runsOf{"shop/pricing.py::base_price": {"tests/test_cart.py::test_total"}},
			[]string{"Tests to run (seen running it): python -m pytest tests/test_cart.py::test_total"}, []string{"test_discount"}},
		{"no test ran it", runsOf{"shop/pricing.py::base_price": {}},
			[]string{"no test ran the changed code when the suite was recorded (ccd tests record)"}, []string{"Tests to run"}},
		{"no recording", nil, []string{"Tests to run: python -m pytest tests/test_cart.py::test_discount tests/test_cart.py::test_total"}, nil},
	} {
		text, _ := editCard(before, after, "shop/pricing.py", cs, 2000, nil, c.runs)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: card lacks %q:\n%s", c.name, w, text)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(text, l) {
				t.Errorf("%s: card has %q:\n%s", c.name, l, text)
			}
		}
	}
}
