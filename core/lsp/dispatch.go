package lsp

import (
	"context"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/ccd-dev/ccd/core/graph"
)

// addDispatch adds edges from caller to the implementations of interface
// method t, within the MaxImplementations limit. Implementations in test
// files are linked only from callers in the same file, and the caller
// itself (a method that satisfies the interface it forwards to) never.
func (r *refiner) addDispatch(ctx context.Context, caller, t, line int) {
	if r.opt.MaxImplementations < 0 {
		return
	}
	from := r.g.Nodes[caller].Path
	var keep []int
	for _, i := range r.implementations(ctx, t) {
		n := r.g.Nodes[i]
		if i == caller || (graph.IsTestFile(n.Path) && n.Path != from) {
			continue // a wrapper forwarding to the interface is not recursion
		}
		keep = append(keep, i)
	}
	if len(keep) == 0 {
		return
	}
	if len(keep) > r.opt.MaxImplementations {
		r.count(&r.stats.TooWide)
		return
	}
	r.count(&r.stats.Dispatch)
	for _, i := range keep {
		r.addEdge(caller, i, line)
	}
}

// implementations returns the concrete methods of interface method t,
// asking the server once per method.
func (r *refiner) implementations(ctx context.Context, t int) []int {
	r.mu.Lock()
	e := r.dispatch[t]
	if e != nil {
		r.mu.Unlock()
		select {
		case <-e.done:
			return e.impls
		case <-ctx.Done():
			return nil
		}
	}
	e = &dispatchEntry{done: make(chan struct{})}
	r.dispatch[t] = e
	r.mu.Unlock()
	defer close(e.done)

	n := r.g.Nodes[t]
	s := r.sessions[r.m.LanguageFor(n.Path)]
	if s == nil {
		return nil
	}
	if ok, _ := s.Supports(ctx, "implementationProvider"); !ok {
		return nil
	}
	ls, err := r.lines(n.Path)
	if err != nil || n.StartLine < 1 || n.StartLine > len(ls) {
		return nil
	}
	var pos protocol.Position
	found := false
	for l := n.StartLine; l <= n.EndLine && l <= len(ls) && !found; l++ {
		if hits := findWord(ls[l-1], n.Name, 0); len(hits) > 0 {
			pos, found = protocol.Position{Line: uint32(l - 1), Character: utf16Col(ls[l-1], hits[0])}, true
		}
	}
	if !found || !r.reserve() {
		return nil
	}
	r.acquire(s, n.Path)
	locs, err := s.Implementation(ctx, n.Path, pos)
	r.release(s, n.Path)
	r.answered(err)
	if err != nil {
		return nil
	}
	impls, _ := r.mapLocations(locs, false, 1<<16)
	out := impls[:0]
	for _, i := range impls {
		if i != t {
			out = append(out, i)
		}
	}
	e.impls = out
	return out
}
