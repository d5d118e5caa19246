// Package workspace is one project's live state in the daemon: its index
// and graph, the update pipeline that keeps them fresh, the language
// servers' refinement, the retrieval index, the evidence board, the
// pictures and the store that persists them.
//
// A Workspace is opened on a root (Open), indexed in the background
// (Start), brought up to date by Update, read through Snapshot (one
// immutable value that hooks, MCP, HTTP and the CLI all read), and closed
// (Close when the daemon stops, Remove when it is taken away). The daemon
// owns the map of workspaces and the file watches; it hands each
// workspace the changes it sees.
//
// Files are named by job: workspace.go (the type, its lifecycle and
// Snapshot), load.go (index runs and warm starts), persist.go (the
// store), update.go (the update pipeline), refine.go (language servers),
// precise.go (SCIP indexes), search.go (the retrieval index), board.go
// (the evidence board), artifacts.go (pictures and state files).
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/core/testmap"
)

// Workspace states.
const (
	StateIndexing = "indexing"
	StateReady    = "ready"
	StateFailed   = "failed"
)

// Env is what every workspace of a daemon shares.
type Env struct {
	Config config.Config
	Log    *slog.Logger
	// LSP is the daemon's language-server manager, nil when no server may
	// run (CCD_LSP=off).
	LSP *lsp.Manager
	// Version is the daemon's version, written into the store's meta and
	// into SCIP exports.
	Version string
	// Updated is called after every update (the daemon's idle collector).
	Updated func()
	// Indexed is called when an index run made a workspace ready that is
	// not watched yet: the daemon starts following its tree.
	Indexed func(*Workspace)
	// Changed is called when an update changed a workspace's graph, in
	// the order of the updates (the hook engine remembers the graphs
	// before recent edits).
	Changed func(*Workspace, Change)

	// OneShot: the workspace answers one command in this process (the
	// CLI without a daemon). It neither opens nor writes the store, keeps
	// no artifact, and nothing runs after an index (no picture, no SCIP
	// export, no refinement: Refine applies the precise index when asked,
	// and asks the language servers when LSP is set, as `ccd export
	// --lsp=auto` does).
	OneShot bool

	// warming: a Prepare is parsing a file into a tree cache (one at a
	// time for the whole daemon).
	warming atomic.Bool
}

// Watch is how the daemon follows a workspace's tree.
type Watch interface {
	// Pending reports file changes seen and not applied yet.
	Pending() bool
	// Polling reports that the tree is walked periodically because
	// inotify cannot follow it.
	Polling() bool
	// Close stops following the tree.
	Close()
}

// Workspace is one indexed root.
//
// Its locks, each with one job (taken in this order when nested: upd,
// mu, lsp.mu):
//   - mu guards what the workspace publishes: the index result and its
//     generation, the index run's state and progress, the watch and
//     dirty, HEAD, and the update counters (the fields below it).
//   - upd serialises updates, and what must not interleave with them:
//     a refinement's snapshot of the result and its pending files, the
//     store's writes of the graph and its closing.
//   - lsp.mu guards the language servers' refinement and the refined
//     graph that follows the updates (refine.go).
//   - lsp.saveMu and board.save each serialise the saves of one blob (the
//     refinement, the board), so that an older copy never wins; they
//     guard no state (saveMu is taken before lsp.mu, board.save alone).
//   - search.parserMu guards the parser of files the facts do not cover.
//
// The rest needs no lock: the retrieval index and the mirrors' list are
// atomic pointers, the background saves and exports are coalesced by
// atomic flags (coalescer), and removed, freshLSP, gitChanged and the store's note
// and epoch are atomics.
type Workspace struct {
	root string
	env  *Env
	// tests is the recording of which tests run which functions
	// (.codecanvas/tests.json, made by `ccd tests record`), read again
	// when the file changes.
	tests *testmap.Cache

	mu        sync.RWMutex
	res       *index.Result
	gen       uint64
	state     string
	err       string
	prog      *index.Progress
	indexedAt time.Time
	took      time.Duration
	ready     chan struct{} // closed when the current index run ends

	watch      Watch
	dirty      bool   // file events not yet applied
	head       string // git HEAD the graph reflects
	lastUpdate time.Duration
	updates    int
	stats      index.UpdateStats // of the last update or warm start
	warm       bool              // the current graph came from the store

	// upd serialises updates (and what must not interleave with them).
	upd sync.Mutex

	rootID rootID // the root directory indexed (see RootStatus)
	// removed: Remove took it away; a run still going stops and leaves
	// nothing behind (no watches, no writes).
	removed atomic.Bool
	// freshLSP makes the next refinement ask the servers even when the
	// store holds one for the same inputs (ccd reindex).
	freshLSP atomic.Bool
	// gitChanged: something under .git changed since HEAD was read (a
	// commit moves the branch's ref without touching HEAD); the next
	// update reads HEAD again.
	gitChanged atomic.Bool

	persist persistState // the store (persist.go)
	lsp     lspState     // language-server refinement (refine.go)
	scipOut coalescer    // SCIP exports (precise.go)
	search  searchState  // the retrieval index (search.go)
	board   boardState   // the evidence board (board.go)
	mirrors mirrorState  // copies of the artifacts (artifacts.go)
}

// Open returns the workspace of root (absolute, symlink-free; the daemon
// checks it) without indexing it: Start does. With freshLSP, its first
// refinement asks the language servers rather than restoring a stored one.
func Open(root string, env *Env, freshLSP bool) *Workspace {
	w := &Workspace{root: root, env: env, tests: testmap.NewCache(root)}
	w.freshLSP.Store(freshLSP)
	return w
}

// Root is the workspace's root directory.
func (w *Workspace) Root() string { return w.root }

// Result returns the current index result (nil while the first index
// runs) and generation.
func (w *Workspace) Result() (*index.Result, uint64) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.res, w.gen
}

// Ready returns a channel closed when the current index run ends (nil
// before the first run).
func (w *Workspace) Ready() <-chan struct{} {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.ready == nil {
		return nil
	}
	return w.ready
}

// Failed reports whether the last index run failed.
func (w *Workspace) Failed() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.state == StateFailed
}

// Indexing reports whether an index run is under way.
func (w *Workspace) Indexing() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.state == StateIndexing
}

// Snapshot is a workspace's state at one moment: every answer about a
// workspace (hook cards, MCP tools, the HTTP API, the CLI) reads one.
// It never changes.
type Snapshot struct {
	Root  string
	State string // StateIndexing, StateReady or StateFailed
	Err   string
	// Result is the index (nil until the first index run is done), Graph
	// the graph answers use: Result's graph with the language servers'
	// and the precise index's edges when they are built on it.
	Result     *index.Result
	Graph      *graph.Graph
	Generation uint64
	Head       string // git HEAD the graph reflects, "" outside git
	// Fresh: ready, no file change pending, and the root is still the
	// directory indexed.
	Fresh bool
	Warm  bool // the graph came from the store
	// Phase, Done and Total are an index run's progress.
	Phase       string
	Done, Total int
	// Root is gone (RootGone) or another directory (RootReplaced), else
	// RootSame.
	RootStatus int
	Updates    int
	LastUpdate time.Duration // first file event to fresh graph, last update
	Stats      index.UpdateStats
	IndexedAt  time.Time
	Took       time.Duration // of the last index run
	Store      string        // why the workspace works without its store, "" when it has it
	Watch      string        // "inotify", "polling", or "" when not watched
	LSP        LSPSummary
	Precise    PreciseInfo
	// Runs is the recording of which tests run which functions, nil when
	// there is none: pass it in a graph.Filter so affected tests name the
	// tests seen running a function (see graph.TestsOf). RunsLine is one
	// line on it for people ("recorded 2h ago: 83 tests ran 126 of 208
	// functions"), or why the file on disk is not used (then Runs is
	// nil); "" when there is none.
	Runs     graph.TestRuns
	RunsLine string
}

// Snapshot returns the workspace's state now.
func (w *Workspace) Snapshot() Snapshot {
	w.mu.RLock()
	s := Snapshot{Root: w.root, State: w.state, Err: w.err, Result: w.res, Generation: w.gen, Head: w.head,
		Warm: w.warm, RootStatus: w.rootStatus(), Updates: w.updates, LastUpdate: w.lastUpdate, Stats: w.stats,
		IndexedAt: w.indexedAt, Took: w.took}
	s.Fresh = s.State == StateReady && !w.dirty && s.RootStatus == RootSame
	if w.state == StateIndexing && w.prog != nil {
		s.Phase, s.Done, s.Total = w.prog.Snapshot()
	}
	if w.watch != nil {
		s.Watch = "inotify"
		if w.watch.Polling() {
			s.Watch = "polling"
		}
	}
	w.mu.RUnlock()
	if note := w.persist.note.Load(); note != nil {
		s.Store = *note
	}
	s.Graph = w.served(s.Result)
	s.LSP, s.Precise = w.lspSummary()
	s.Runs, s.RunsLine = w.TestRuns()
	return s
}

// TestRuns returns the workspace's recording of which tests run which
// functions (nil when there is none) and a line on it for people: its
// summary, or why the file on disk is not used.
func (w *Workspace) TestRuns() (graph.TestRuns, string) {
	rec, err := w.tests.Get()
	if err != nil {
		return nil, err.Error()
	}
	if rec == nil {
		return nil, ""
	}
	return rec, rec.Summary(time.Now())
}

// Watching installs the daemon's watch of the tree, unless the workspace
// was removed meanwhile (false: the caller closes it). clean says the
// watch has nothing pending yet and the graph is fresh.
func (w *Workspace) Watching(wt Watch, clean bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.removed.Load() {
		return false
	}
	w.watch = wt
	if clean {
		w.dirty = false
	}
	return true
}

// Unwatch takes the watch away (its directories are gone) and returns it
// for the caller to close, nil when there was none. The graph is not
// fresh without one.
func (w *Workspace) Unwatch() Watch {
	w.mu.Lock()
	defer w.mu.Unlock()
	wt := w.watch
	w.watch = nil
	if wt != nil {
		w.dirty = true
	}
	return wt
}

// MarkDirty says file changes wait to be applied.
func (w *Workspace) MarkDirty() {
	w.mu.Lock()
	w.dirty = true
	w.mu.Unlock()
}

// Remove takes the workspace away: a run in progress stops, the watch
// and the language servers stop, nothing more is written.
func (w *Workspace) Remove() {
	w.removed.Store(true)
	w.mu.RLock()
	wt := w.watch
	w.prog.Cancel() // a run in progress stops reading files
	w.mu.RUnlock()
	if wt != nil {
		wt.Close()
	}
	w.StopRefining()
	w.closeSearch()
	w.upd.Lock()
	w.persist.close()
	w.upd.Unlock()
}

// Close saves what the store does not have yet (the graph, the
// refinement) and closes it, as the daemon stops. Call StopRefining and
// close the watch first.
func (w *Workspace) Close() {
	res, _ := w.Result()
	w.saveGraph(res)
	w.saveRefinement()
	w.upd.Lock()
	w.persist.close()
	w.upd.Unlock()
}

// A workspace's root may vanish (rm -rf), be renamed, or be deleted and
// made again at the same path (rm -rf repo && git clone ... repo). The
// graph of a vanished tree must not be served as fresh, and a tree made
// again is a new tree: it is indexed again. The root's identity (device
// and inode) is taken when an index run starts; RootStatus compares it
// with what is at the path now.

// rootID identifies a directory.
type rootID struct{ dev, ino uint64 }

// statRoot returns the identity of the directory at root, ok=false when
// there is no directory there.
func statRoot(root string) (rootID, bool) {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() {
		return rootID{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return rootID{}, true
	}
	return rootID{uint64(st.Dev), st.Ino}, true
}

// Root states.
const (
	RootSame     = iota // the tree that was indexed
	RootGone            // nothing at the path
	RootReplaced        // another directory at the path
)

// RootStatus compares the directory at the root with the one indexed.
func (w *Workspace) RootStatus() int {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.rootStatus()
}

// rootStatus is RootStatus with w.mu held.
func (w *Workspace) rootStatus() int {
	id, ok := statRoot(w.root)
	switch {
	case !ok:
		return RootGone
	case w.rootID != (rootID{}) && id != (rootID{}) && id != w.rootID:
		return RootReplaced
	}
	return RootSame
}

// stateDir returns root's .codecanvas directory, making it when the root
// is there; it never makes the root itself (a workspace deleted while an
// answer was being drawn stays deleted).
func stateDir(root string) (string, error) {
	if _, ok := statRoot(root); !ok {
		return "", fmt.Errorf("workspace root %s is gone: nothing saved", root)
	}
	dir := filepath.Join(root, store.Dir)
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	return dir, nil
}
