package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// startSessions starts the servers the candidates need, in parallel and
// within ctx, and drops the candidates of languages without a usable
// server.
func (r *refiner) startSessions(ctx context.Context, cands []candidate) []candidate {
	need := map[string]int{}
	for _, c := range cands {
		need[c.lang]++
	}
	r.sessions = map[string]*Session{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for lang := range need {
		s, err := r.m.Session(lang, r.root)
		if err != nil {
			r.stats.Servers[lang] = err.Error()
			if errors.Is(err, ErrNotFound) {
				if r.stats.Missing == nil {
					r.stats.Missing = map[string]string{}
				}
				r.stats.Missing[lang] = r.m.ServerNames(lang)
			}
			continue
		}
		wg.Add(1)
		go func(lang string, s *Session) {
			defer wg.Done()
			err := s.Start(ctx)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				r.stats.Servers[lang] = err.Error()
				return
			}
			r.stats.Servers[lang] = s.spec.DisplayName()
			if r.stats.Used == nil {
				r.stats.Used = map[string]string{}
			}
			r.stats.Used[lang] = s.spec.DisplayName()
			r.sessions[lang] = s
		}(lang, s)
	}
	wg.Wait()
	kept := cands[:0]
	for _, c := range cands {
		if r.sessions[c.lang] != nil {
			kept = append(kept, c)
		} else {
			r.stats.Skipped++
		}
	}
	return kept
}

// batch is the candidates of one file, asked about together while the
// file is open on the server.
type batch struct {
	tier  int // the lowest tier of its candidates
	path  string
	cands []*candidate
}

// batches groups candidates by file, each file's candidates in tier and
// line order, the files in order of their most urgent candidate.
func batches(cands []candidate) []*batch {
	by := map[string]*batch{}
	var out []*batch
	for i := range cands {
		c := &cands[i]
		b := by[c.file.Path]
		if b == nil {
			b = &batch{tier: c.tier, path: c.file.Path}
			by[c.file.Path] = b
			out = append(out, b)
		}
		b.tier = min(b.tier, c.tier)
		b.cands = append(b.cands, c)
	}
	for _, b := range out {
		sort.SliceStable(b.cands, func(i, j int) bool {
			x, y := b.cands[i], b.cands[j]
			if x.tier != y.tier {
				return x.tier < y.tier
			}
			return x.call.Line < y.call.Line
		})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].tier != out[j].tier {
			return out[i].tier < out[j].tier
		}
		return out[i].path < out[j].path
	})
	return out
}

// run asks about the candidates, a file at a time per worker, with a
// bounded number of workers; what the budget or MaxRequests leaves is
// counted as skipped.
func (r *refiner) run(ctx context.Context, cands []candidate) {
	r.total = r.stats.Candidates
	r.done.Store(int64(r.stats.Skipped))
	ch := make(chan *batch)
	var wg sync.WaitGroup
	for w := 0; w < r.opt.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range ch {
				r.askBatch(ctx, b)
			}
		}()
	}
	bs := batches(cands)
	fed := 0
feed:
	for _, b := range bs {
		if r.asked.Load() >= int64(r.opt.MaxRequests) {
			break
		}
		select {
		case ch <- b:
			fed++
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	left := 0
	for _, b := range bs[fed:] {
		left += len(b.cands)
	}
	r.mu.Lock()
	r.stats.Skipped += left
	r.mu.Unlock()
}

// askBatch asks about one file's candidates with the file open.
// A file whose requests fail this many times in a row is given up (gopls
// refuses files excluded by build constraints: "no package metadata").
const maxFileFailures = 3

func (r *refiner) askBatch(ctx context.Context, b *batch) {
	s := r.sessions[b.cands[0].lang]
	r.acquire(s, b.path)
	defer r.release(s, b.path)
	failures := 0
	for _, c := range b.cands {
		if ctx.Err() != nil || r.asked.Load() >= int64(r.opt.MaxRequests) || failures >= maxFileFailures {
			r.count(&r.stats.Skipped)
		} else if r.ask(ctx, c) {
			failures++
		} else {
			failures = 0
		}
		r.progress()
	}
}

func (r *refiner) progress() {
	d := r.done.Add(1)
	if r.opt.Progress != nil {
		r.opt.Progress(int(d), r.total)
	}
}

// reserve takes one request from the MaxRequests allowance.
func (r *refiner) reserve() bool {
	if r.asked.Add(1) > int64(r.opt.MaxRequests) {
		r.asked.Add(-1)
		return false
	}
	r.mu.Lock()
	r.stats.Asked++
	r.mu.Unlock()
	return true
}

// answered records the outcome of one request.
func (r *refiner) answered(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.stats.Failed++
		if len(r.stats.Errors) < 5 {
			r.stats.Errors = append(r.stats.Errors, err.Error())
		}
		return
	}
	if r.stats.Answered == 0 {
		r.stats.FirstAnswer = time.Since(r.t0)
	}
	r.stats.Answered++
}

func (r *refiner) count(field *int) {
	r.mu.Lock()
	*field++
	r.mu.Unlock()
}

// ask handles one candidate; failed reports a request that failed.
func (r *refiner) ask(ctx context.Context, c *candidate) (failed bool) {
	s := r.sessions[c.lang]
	if c.tier == tierDispatch {
		r.addDispatch(ctx, c.caller, c.target, c.call.Line)
		return false
	}
	ls, err := r.lines(c.file.Path)
	if err != nil {
		r.count(&r.stats.Skipped)
		return true
	}
	pos, ok := callPosition(ls, c.call.Line, c.call.Name, c.call.Recv)
	if !ok || !r.reserve() {
		r.count(&r.stats.Skipped)
		return false
	}
	locs, err := s.Definition(ctx, c.file.Path, pos)
	r.answered(err)
	if err != nil {
		return true
	}
	targets, external := r.mapLocations(locs, true, maxTargets)
	switch {
	case len(targets) == 0 && external:
		r.count(&r.stats.External)
	case len(targets) == 0 && len(locs) > 0:
		r.count(&r.stats.Unmapped)
	}
	for _, t := range targets {
		r.addEdge(c.caller, t, c.call.Line)
		if r.isInterfaceMethod(t) {
			r.addDispatch(ctx, c.caller, t, c.call.Line)
		}
	}
	if len(locs) > 0 {
		for _, ei := range c.weak {
			e := r.g.Edge(ei)
			if !containsInt(targets, e.To) && !stubOf(locs, r.g.Nodes[e.To].Path) {
				r.mu.Lock()
				r.stale[edgeKey{e.From, e.To, c.call.Line}] = e.Confidence
				r.mu.Unlock()
			}
		}
	}
	return false
}

// stubOf reports whether some location is a type stub (.pyi, .d.ts) of
// the module at path, by file name: servers answer with a library's stub
// (typeshed's email/message.pyi) rather than its source (message.py)
// even when the source is in the workspace, so such an answer does not
// contradict an edge into that module.
func stubOf(locs []Location, path string) bool {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	for _, l := range locs {
		base := filepath.Base(l.Path)
		for _, ext := range []string{".pyi", ".d.ts", ".d.mts", ".d.cts"} {
			if strings.HasSuffix(base, ext) && strings.TrimSuffix(base, ext) == stem {
				return true
			}
		}
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// addEdge records a call edge found by a server.
func (r *refiner) addEdge(from, to, line int) {
	r.mu.Lock()
	r.edges[edgeKey{from, to, line}] = true
	r.mu.Unlock()
}
