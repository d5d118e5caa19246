package index

import (
	"encoding/json"
	"sync"

	"github.com/ccd-dev/ccd/core/resolve"
)

// stateBox holds the resolver state of a Result until an update takes it
// over: a state matches exactly one graph, so it moves from a Result to
// the Result its update makes. A Result whose state was taken (or never
// built) still updates correctly, by resolving everything.
type stateBox struct {
	mu sync.Mutex
	st *resolve.State
	// build makes the state on first use (a graph restored from disk comes
	// without one); nil when there is nothing to build.
	build func() *resolve.State
}

// take hands the state over to the caller, building it if it is pending.
func (b *stateBox) take() *resolve.State {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st == nil && b.build != nil {
		b.st = b.build()
	}
	st := b.st
	b.st, b.build = nil, nil
	return st
}

// warm builds a pending state now (in the background), so the first
// update does not wait for it.
func (b *stateBox) warm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st == nil && b.build != nil {
		b.st = b.build()
		b.build = nil
	}
}

// handOver gives the state of prev, whose graph the next Result reuses
// unchanged, to that Result. A Result restored from disk has none: its
// state is built from its files in the background.
func (b *stateBox) handOver(prev *Result, proj *resolve.Project) *stateBox {
	if st := b.take(); st != nil {
		return &stateBox{st: st}
	}
	files := prev.Files
	nb := &stateBox{build: func() *resolve.State { return resolve.NewState(files, proj) }}
	go nb.warm()
	return nb
}

// sameProject reports whether two sets of project facts are equal.
func sameProject(a, b *resolve.Project) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// ResolveStats says how the last resolution of r's graph went: "full",
// or which files an incremental update resolved again (see resolve.Stats).
func (r *Result) ResolveStats() resolve.Stats { return r.resolveStats }
