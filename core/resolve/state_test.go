package resolve

import (
	"testing"
	"time"

	"github.com/ccd-dev/ccd/core/facts"
)

// TestUpdateWaitsForMentionsOnlyWhenNeeded: the files' mentions are
// computed in the background after a build; an edit that changes no
// surface (a moved call) must not wait for them, one that adds a name
// (whose dependents must be found) must.
func TestUpdateWaitsForMentionsOnlyWhenNeeded(t *testing.T) {
	a := &facts.File{Path: "a.py", Lang: "python", Defs: []facts.Def{
		{Name: "helper", Qual: "helper", Kind: facts.Func, Parent: -1, StartLine: 1, EndLine: 2}}}
	b := func(line int) *facts.File {
		return &facts.File{Path: "b.py", Lang: "python",
			Imports: []facts.Import{{Spec: "a", Name: "helper", Line: 1}},
			Defs:    []facts.Def{{Name: "main", Qual: "main", Kind: facts.Func, Parent: -1, StartLine: 2, EndLine: 9}},
			Calls:   []facts.Call{{Name: "helper", Caller: 0, Line: line}}}
	}
	s, g := Resolve([]*facts.File{a, b(3)}, &Project{})
	<-s.pending
	blocked := make(chan struct{}) // the background mentions, not done yet
	s.pending = blocked

	update := func(f *facts.File) <-chan struct{} {
		done := make(chan struct{})
		go func() {
			g, _ = s.Update(g, []*facts.File{f}, nil)
			close(done)
		}()
		return done
	}
	select {
	case <-update(b(5)):
	case <-time.After(10 * time.Second):
		t.Fatal("a body edit waited for the background mentions")
	}
	a2 := &facts.File{Path: "a.py", Lang: "python", Defs: append(a.Defs,
		facts.Def{Name: "added", Qual: "added", Kind: facts.Func, Parent: -1, StartLine: 4, EndLine: 5})}
	done := update(a2)
	select {
	case <-done:
		t.Fatal("an edit adding a name did not wait for the mentions it needs")
	case <-time.After(100 * time.Millisecond):
	}
	close(blocked)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the update did not go on once the mentions were there")
	}
	if _, ok := g.Index("a.py::added"); !ok {
		t.Error("the added function is not in the graph")
	}
}
