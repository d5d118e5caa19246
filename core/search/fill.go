package search

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccd-dev/ccd/core/facts"
)

// Large workspaces: a query never waits for the whole index.
//
// The caller hands the index every file it knows with Fill (cheap: paths
// only). Background workers read and index them in order; Prioritise moves
// paths to the front (e.g. the directory an agent works in). When a query
// arrives while files are still pending, the index first greps the pending
// files for the query's words (a plain case-insensitive byte search, far
// cheaper than indexing) and indexes the files that contain them right
// away, up to CatchUpLimit files; the rest of the matches are prioritised
// for the background. The query then runs on the index as it stands and
// reports how many files were still pending. So the first query costs a
// grep of the not-yet-indexed files plus indexing the few that matter,
// instead of a full index.

// CatchUpLimit is how many pending files one query indexes synchronously.
const CatchUpLimit = 256

// filler is the background indexing state. Lock order: Index.mu, then
// filler.mu.
type filler struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[string]bool
	queue   []string // FIFO; entries no longer pending are skipped
	prio    []string // LIFO: the latest Prioritise wins
	workers int
	failed  int
	lastErr string
	// urgent counts queries catching up: background workers pause while
	// it is non-zero, so the query gets the CPU.
	urgent atomic.Int32
	// filled counts files indexed since the last compaction.
	filled int
}

// compactAfter is how many files a fill must have indexed for the index
// to be compacted when it ends.
const compactAfter = 1000

func (f *filler) init() {
	f.pending = map[string]bool{}
	f.cond = sync.NewCond(&f.mu)
}

// done marks a path as indexed (or removed): it is no longer pending.
func (f *filler) done(p string) {
	f.mu.Lock()
	if f.pending[p] {
		delete(f.pending, p)
		f.filled++
		if len(f.pending) == 0 {
			f.queue, f.prio = nil, nil
			f.cond.Broadcast()
		}
	}
	f.mu.Unlock()
}

func (f *filler) isPending(p string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pending[p]
}

// next pops the next pending path, or "" when none is left.
func (f *filler) next() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.prio) > 0 {
		p := f.prio[len(f.prio)-1]
		f.prio = f.prio[:len(f.prio)-1]
		if f.pending[p] {
			return p
		}
	}
	for len(f.queue) > 0 {
		p := f.queue[0]
		f.queue = f.queue[1:]
		if f.pending[p] {
			return p
		}
	}
	return ""
}

func (f *filler) snapshot() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.pending))
	for p := range f.pending {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Fill queues files (workspace-relative paths) for background indexing and
// starts the workers if they are not running. Files already indexed are
// indexed again (their content may have changed). Fill needs Options.Read
// (or Root); with Options.Parse, code files get their definitions,
// otherwise they are chunked until Update supplies definitions.
func (ix *Index) Fill(paths []string) error {
	if ix.opts.Read == nil {
		return fmt.Errorf("search fill: the index has no way to read files; set Options.Root or Options.Read")
	}
	f := &ix.fill
	f.mu.Lock()
	for _, p := range paths {
		c, err := cleanPath(p)
		if err != nil || f.pending[c] {
			continue
		}
		f.pending[c] = true
		f.queue = append(f.queue, c)
	}
	start := ix.opts.Workers - f.workers
	if len(f.pending) == 0 {
		start = 0
	}
	f.workers += max(start, 0)
	f.mu.Unlock()
	for i := 0; i < start; i++ {
		go ix.fillWorker()
	}
	return nil
}

// Prioritise moves pending paths to the front of the background queue; the
// last one given is indexed first. Paths that are not pending are ignored.
func (ix *Index) Prioritise(paths ...string) {
	f := &ix.fill
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(paths) - 1; i >= 0; i-- {
		if c, err := cleanPath(paths[i]); err == nil && f.pending[c] {
			f.prio = append(f.prio, c)
		}
	}
}

// Pending returns how many queued files are not indexed yet.
func (ix *Index) Pending() int {
	ix.fill.mu.Lock()
	defer ix.fill.mu.Unlock()
	return len(ix.fill.pending)
}

// Wait blocks until no file is pending or ctx ends.
func (ix *Index) Wait(ctx context.Context) error {
	f := &ix.fill
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.pending) > 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("search: %d files still pending: %w", len(f.pending), err)
		}
		f.cond.Wait()
	}
	return nil
}

func (ix *Index) fillWorker() {
	f := &ix.fill
	for {
		for f.urgent.Load() > 0 {
			time.Sleep(time.Millisecond)
		}
		p := f.next()
		if p == "" {
			f.mu.Lock()
			// A Fill may have queued more since next() looked.
			if len(f.pending) > 0 && (len(f.queue) > 0 || len(f.prio) > 0) {
				f.mu.Unlock()
				continue
			}
			f.workers--
			compact := f.workers == 0 && len(f.pending) == 0 && f.filled >= compactAfter
			if compact {
				f.filled = 0
			}
			f.mu.Unlock()
			if compact {
				ix.Compact()
			}
			return
		}
		ix.indexPending(p)
	}
}

// indexPending reads, prepares and commits one pending file, unless an
// Update or Remove got there first.
func (ix *Index) indexPending(p string) {
	content, err := ix.opts.Read(p)
	if err != nil {
		ix.failPending(p, err)
		return
	}
	if isBinary(content) {
		ix.failPending(p, fmt.Errorf("binary content"))
		return
	}
	lang, defs := ix.parse(p, content)
	pf := prepare(p, normalize(content), lang, defs, ix.opts.EagerTokens)
	pf.defsSig = defsSignature(lang, defs)
	ix.mu.Lock()
	if ix.fill.isPending(p) {
		ix.commit(pf)
		ix.fill.done(p)
	}
	ix.mu.Unlock()
}

func (ix *Index) failPending(p string, err error) {
	ix.mu.Lock()
	if f := ix.files[p]; f != nil && ix.fill.isPending(p) {
		ix.removeFile(f, nil)
		ix.touch()
	}
	ix.mu.Unlock()
	ix.fill.mu.Lock()
	ix.fill.failed++
	ix.fill.lastErr = fmt.Sprintf("%s: %v", p, err)
	ix.fill.mu.Unlock()
	ix.fill.done(p)
}

// parse runs Options.Parse when set.
func (ix *Index) parse(p string, content []byte) (string, []facts.Def) {
	if ix.opts.Parse == nil {
		return "", nil
	}
	lang, defs, err := ix.opts.Parse(p, content)
	if err != nil {
		return "", nil
	}
	return lang, defs
}

// compactChunk is how many terms Compact trims per hold of the write lock.
const compactChunk = 8192

// Compact gives back the slack of the postings lists: they grow by
// appending, so after a large fill a list holds up to twice the room it
// uses. Each list with more than a quarter spare is copied to its size, a
// few thousand terms per hold of the write lock, so queries wait at most
// a few milliseconds. It runs by itself when a fill of many files ends.
func (ix *Index) Compact() {
	for start := 0; ; start += compactChunk {
		ix.mu.Lock()
		if start >= len(ix.terms) {
			ix.mu.Unlock()
			return
		}
		end := min(start+compactChunk, len(ix.terms))
		for i := start; i < end; i++ {
			p := ix.terms[i].post
			if n := len(p); cap(p) > n+n/4+4 {
				ix.terms[i].post = append(make([]posting, 0, n), p...)
			}
		}
		ix.mu.Unlock()
	}
}
