package hooks

import (
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
)

// The engine's memory of "before": a write is often applied by the
// daemon's watcher before the hook that made it arrives (or half-way,
// a non-atomic save seen truncated), and then the update the hook asks
// for changes nothing. So the engine remembers, per file, the graph
// before the updates that changed it (the host tells it, Changed), and
// an edit card diffs against that.

// recentWindow is how long the graph before a file's last change is kept.
const recentWindow = 30 * time.Second

// recentMaxPaths: an update of more files than this (a checkout, a
// formatter over the tree) is no edit a hook will ask about.
const recentMaxPaths = 64

// recentChange is the graph before an update that changed a file.
type recentChange struct {
	before   *graph.Graph
	at, last time.Time // first and last update since a hook last took it
}

// recentChanges is the memory, by workspace root and file.
type recentChanges struct {
	mu sync.Mutex
	m  map[string]recentChange // root + "\x00" + relative path
}

// Changed tells the engine that an update of root changed its graph from
// before: paths are the files it was given (relative to root, slash
// separated), full says it re-read every file. The engine remembers
// before for each path for a while, unless it remembers one from a
// change of that path not yet taken by a hook.
func (e *Engine) Changed(root string, paths []string, full bool, before *graph.Graph) {
	if full || len(paths) > recentMaxPaths || before == nil {
		return
	}
	r := &e.recent
	r.mu.Lock()
	defer r.mu.Unlock()
	now := e.now()
	if r.m == nil {
		r.m = map[string]recentChange{}
	}
	for k, c := range r.m {
		if now.Sub(c.at) > recentWindow {
			delete(r.m, k)
		}
	}
	for _, p := range paths {
		// Until a hook takes it, the entry keeps the graph before the
		// first of a file's changes: a non-atomic save seen half-way
		// (truncated, then the content) must not become the "before".
		k := root + "\x00" + p
		if c, ok := r.m[k]; ok && now.Sub(c.at) < recentWindow {
			c.last = now
			r.m[k] = c
			continue
		}
		r.m[k] = recentChange{before: before, at: now, last: now}
	}
}

// takeBefore returns the graph before the recent burst of updates that
// changed rels of root (nil when there was none within the window) and
// forgets it: the next edit starts a new burst. An edit may change
// several files (a patch): the graph is the one before the earliest of
// their recent changes.
func (r *recentChanges) take(root string, rels []string, now time.Time) *graph.Graph {
	r.mu.Lock()
	defer r.mu.Unlock()
	var g *graph.Graph
	var first time.Time
	for _, rel := range rels {
		k := root + "\x00" + rel
		c, ok := r.m[k]
		delete(r.m, k)
		if ok && now.Sub(c.at) <= recentWindow && (g == nil || c.at.Before(first)) {
			g, first = c.before, c.at
		}
	}
	return g
}
