package daemon

import (
	"maps"
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
)

// TestMarkPending: every content change between two results is recorded
// for re-refinement whenever a refinement exists or is being made (edits
// during a run must not be lost), and a run is started only when a
// refinement exists and none is scheduled.
func TestMarkPending(t *testing.T) {
	a := &facts.File{Path: "a.go", Hash: "1"}
	b := &facts.File{Path: "b.go", Hash: "1"}
	c := &facts.File{Path: "c.go", Hash: "1"}
	b2 := &facts.File{Path: "b.go", Hash: "2"}
	bTouched := &facts.File{Path: "b.go", Hash: "1"} // parsed again, same content
	d := &facts.File{Path: "d.go", Hash: "1"}
	prev := &index.Result{Files: []*facts.File{a, b, c}}
	cases := []struct {
		name     string
		state    string
		ref      bool
		rerun    bool
		next     []*facts.File
		pending  []string
		schedule bool
	}{
		{"done: an edit starts a run", LSPDone, true, false, []*facts.File{a, b2, c}, []string{"b.go"}, true},
		{"done: a new file and a removed one", LSPDone, true, false, []*facts.File{a, b, d}, []string{"d.go"}, true},
		{"done: same content is no change", LSPDone, true, false, []*facts.File{a, bTouched, c}, nil, false},
		{"a run is scheduled: recorded for it", LSPDone, true, true, []*facts.File{a, b2, c}, []string{"b.go"}, false},
		{"a re-refinement runs: recorded, another run", LSPRefining, true, false, []*facts.File{a, b2, c}, []string{"b.go"}, true},
		{"the first refinement runs: recorded for its end", LSPRefining, false, false, []*facts.File{a, b2, c}, []string{"b.go"}, false},
		{"failed: nothing to keep up", LSPFailed, false, false, []*facts.File{a, b2, c}, nil, false},
		{"not started", "", false, false, []*facts.File{a, b2, c}, nil, false},
	}
	r := &registry{lspm: lsp.NewManager(lsp.Options{})}
	defer r.lspm.Close()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := &workspace{}
			ws.lsp.state, ws.lsp.rerun = tc.state, tc.rerun
			if tc.ref {
				ws.lsp.ref = &lsp.Refinement{}
			}
			got := r.markPending(ws, prev, &index.Result{Files: tc.next})
			pending := slices.Sorted(maps.Keys(ws.lsp.pending))
			if got != tc.schedule || !slices.Equal(pending, tc.pending) {
				t.Errorf("schedule %v, pending %v; want %v, %v", got, pending, tc.schedule, tc.pending)
			}
		})
	}
}
