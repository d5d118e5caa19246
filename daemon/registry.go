package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/daemon/wire"
)

// Workspace states.
const (
	StateIndexing = "indexing"
	StateReady    = "ready"
	StateFailed   = "failed"
)

// workspace is one indexed root.
type workspace struct {
	root string

	mu        sync.RWMutex
	res       *index.Result
	gen       uint64
	state     string
	err       string
	prog      *index.Progress
	indexedAt time.Time
	took      time.Duration
	ready     chan struct{} // closed when the current index run ends

	store   *store.Store
	savedFP string // fingerprint of the graph in the store
	// storeEpoch is the store's Epoch when everything was last saved: a
	// store that reopened another file since gets everything again.
	storeEpoch atomic.Uint64
	// storeNote says why the workspace works without its store (the
	// database is held by another process), "" when it has it.
	storeNote atomic.Pointer[string]
	// scipOut coalesces the SCIP exports CCD_SCIP_EXPORT asks for: one
	// runs at a time, and one more is owed when the graph changed meanwhile.
	scipOut struct {
		sync.Mutex
		running, again bool
	}
	// freshLSP makes the next refinement ask the servers even when the
	// store holds one for the same inputs (ccd reindex).
	freshLSP atomic.Bool
	stats    index.UpdateStats // of the last update or warm start
	warm     bool              // the current graph came from the store

	watch      *watcher
	dirty      bool   // file events not yet applied
	head       string // git HEAD the graph reflects
	lastUpdate time.Duration
	updates    int
	upd        sync.Mutex    // serialises updates
	saved      *index.Result // the result the store holds
	saving     atomic.Bool
	saveAgain  atomic.Bool
	// recent remembers, per file, the graph before the last update that
	// changed it, so a hook arriving after the watcher applied an edit can
	// still diff the edit (guarded by upd).
	recent map[string]recentChange

	rootID rootID // the root directory indexed (see rootStatus)
	// removed: DELETE /v1/workspaces took it away; a run still going
	// stops and leaves nothing behind (no watches, no writes).
	removed atomic.Bool

	board  boardState  // the evidence board, loaded on first use
	search searchState // the retrieval index, created on first use

	mirrorMu sync.Mutex
	mirrors  map[string]bool // CLAUDE_CONFIG_DIRs that get copies of the artifacts

	lsp lspState // language-server refinement
}

// recentChange is the graph before an update that changed a file.
type recentChange struct {
	before   *graph.Graph
	at, last time.Time // first and last update since a hook last took it
}

// recentWindow is how long the graph before a file's last change is kept.
const recentWindow = 30 * time.Second

// snapshot returns the current result (nil while the first index runs)
// and generation.
func (w *workspace) snapshot() (*index.Result, uint64) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.res, w.gen
}

// registry holds the workspaces of the daemon.
type registry struct {
	cfg  config.Config
	log  *slog.Logger
	lspm *lsp.Manager // nil when CCD_LSP=off
	gc   *idleGC
	// warming: a hook's Prepare is parsing a file into a tree cache.
	warming atomic.Bool

	mu sync.Mutex
	ws map[string]*workspace
	wg sync.WaitGroup
	// stopServers ends watchServers and watchRoots.
	stopServers chan struct{}
}

func newRegistry(cfg config.Config, log *slog.Logger) *registry {
	r := &registry{cfg: cfg, log: log, ws: map[string]*workspace{}, gc: newIdleGC(), stopServers: make(chan struct{})}
	r.lspm = newLSPManager(func(f string, a ...any) { log.Debug(fmt.Sprintf(f, a...)) },
		func(err error) { log.Warn("lsp", "err", err) })
	if r.lspm != nil {
		go r.watchServers(r.stopServers)
	}
	go r.watchRoots(r.stopServers)
	return r
}

// errRoot is a root the daemon refuses to index.
type errRoot struct{ msg, hint string }

func (e *errRoot) Error() string { return e.msg }

// Hint says what to do instead (shown by the MCP tool).
func (e *errRoot) Hint() string { return e.hint }

// systemDirs are roots never indexed unless forced: the whole file system,
// and system directories full of code that is not the user's project.
var systemDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/lib": true, "/lib32": true,
	"/lib64": true, "/libx32": true, "/opt": true, "/proc": true, "/run": true, "/sbin": true, "/srv": true,
	"/sys": true, "/tmp": true, "/usr": true, "/var": true, "/usr/bin": true, "/usr/lib": true,
	"/usr/include": true, "/usr/share": true, "/usr/local": true, "/usr/sbin": true, "/var/lib": true,
	"/var/log": true, "/var/tmp": true,
}

// systemTrees are refused with everything below them: pseudo file systems
// and configuration, never a project.
var systemTrees = []string{"/proc", "/sys", "/dev", "/run", "/boot", "/etc"}

// maxWorkspaces bounds how many workspaces one daemon holds (each keeps a
// graph, watches and maybe language servers); CCD_MAX_WORKSPACES changes it.
func maxWorkspaces() int {
	if n, err := strconv.Atoi(os.Getenv("CCD_MAX_WORKSPACES")); err == nil && n > 0 {
		return n
	}
	return 32
}

// checkRoot resolves root to an absolute, symlink-free directory and
// refuses the file system root, the home directory and system directories
// unless forced.
func checkRoot(root string, force bool) (string, error) {
	if !filepath.IsAbs(root) {
		return "", &errRoot{fmt.Sprintf("workspace %q: not an absolute path", root),
			"give the project directory's absolute path (the daemon serves many directories and has none of its own)"}
	}
	abs := filepath.Clean(root)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", &errRoot{fmt.Sprintf("workspace %s: %v", root, err), "give the path of a project directory"}
	}
	if !st.IsDir() {
		return "", &errRoot{fmt.Sprintf("workspace %s: not a directory", root), "give the project's directory, not a file"}
	}
	if force {
		return abs, nil
	}
	home, _ := os.UserHomeDir()
	inSystemTree := false
	for _, t := range systemTrees {
		if abs == t || strings.HasPrefix(abs, t+"/") {
			inSystemTree = true
		}
	}
	switch {
	case systemDirs[abs] || inSystemTree:
		return "", &errRoot{fmt.Sprintf("refusing to index %s: a system directory, not a project", abs),
			"point ccd at a project directory, or pass force to index it anyway"}
	case home != "" && abs == filepath.Clean(home):
		return "", &errRoot{fmt.Sprintf("refusing to index %s: your home directory holds many projects", abs),
			"point ccd at one project directory, or pass force to index it anyway"}
	}
	return abs, nil
}

// add registers root and starts indexing it in the background. A root
// already registered is returned as is, unless its last run failed (an
// empty clone that has files now), which starts a new run.
func (r *registry) add(root string, force bool) (*workspace, error) {
	return r.addWith(root, force, false)
}

// addWith is add; with freshLSP a new workspace asks the language servers
// rather than restoring a stored refinement.
func (r *registry) addWith(root string, force, freshLSP bool) (*workspace, error) {
	abs, err := checkRoot(root, force)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ws[abs] == nil && len(r.ws) >= maxWorkspaces() {
		return nil, &errRoot{fmt.Sprintf("refusing to index %s: this daemon already holds %d workspaces", abs, len(r.ws)),
			"remove one you no longer need (DELETE /v1/workspaces?root=DIR), or raise CCD_MAX_WORKSPACES"}
	}
	if w := r.ws[abs]; w != nil {
		w.mu.RLock()
		failed := w.state == StateFailed
		replaced := w.state != StateIndexing && w.rootStatus() == rootReplaced
		w.mu.RUnlock()
		if replaced {
			r.dropWatch(w)
		}
		if failed || replaced {
			r.startIndex(w)
		}
		return w, nil
	}
	w := &workspace{root: abs}
	w.freshLSP.Store(freshLSP)
	r.ws[abs] = w
	r.startIndex(w)
	return w, nil
}

// startIndex runs a full index of w in the background. The previous graph
// stays visible until the new one is ready. Call with r.mu held.
func (r *registry) startIndex(w *workspace) {
	w.mu.Lock()
	if w.state == StateIndexing {
		w.mu.Unlock()
		return
	}
	prog := &index.Progress{}
	ready := make(chan struct{})
	w.state, w.err, w.prog, w.ready = StateIndexing, "", prog, ready
	prev := w.rootID
	w.rootID, _ = statRoot(w.root)
	if prev != (rootID{}) && prev != w.rootID && w.store != nil {
		// A tree made again: the store was the old tree's (and went with
		// it); load opens the new tree's.
		w.store.Close()
		w.store = nil
	}
	w.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(ready)
		t0 := time.Now()
		res, warm, stats, err := r.load(w, prog)
		if err == nil && res.Summary.Parsed == 0 {
			err = fmt.Errorf("no source files in %s (%s): not initialised; run init again once the project is there", w.root, res.Summary)
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.took = time.Since(t0)
		if w.removed.Load() {
			// Removed while indexing: drop the result, start no watch,
			// write nothing into the root.
			if w.store != nil {
				w.store.Close()
				w.store = nil
			}
			w.state, w.err = StateFailed, "removed while indexing"
			r.log.Info("index run dropped: the workspace was removed", "root", w.root)
			return
		}
		if err != nil {
			w.state, w.err = StateFailed, err.Error()
			r.log.Warn("index failed", "root", w.root, "err", err)
			return
		}
		w.res, w.state, w.indexedAt, w.warm, w.stats, w.saved = res, StateReady, time.Now(), warm, stats, res
		w.gen++
		w.head = gitHead(w.root)
		r.log.Info("indexed", "root", w.root, "summary", res.Summary.String(), "took", w.took, "generation", w.gen)
		// An index leaves hundreds of MB of garbage behind: give it back
		// now rather than keep it as the daemon's footprint at rest.
		go debug.FreeOSMemory()
		// The architecture view lands in .codecanvas/architecture.png.
		go r.saveArtifact(w, res.Graph, "architecture", -1, 0)
		go r.writeSCIP(w)
		// Language servers refine the call graph in the background.
		go r.refine(w)
		if w.watch == nil {
			// Not fresh until the watches are in place and checked.
			w.dirty = true
			go r.watch(w)
		}
	}()
}

// load builds ws's index: from the workspace's store when it holds facts
// made under the same schemas and configuration (parsing only files that
// changed since), else from scratch. Either way the store is brought up to
// date. A store that cannot be used is reported and ignored.
func (r *registry) load(ws *workspace, prog *index.Progress) (*index.Result, bool, index.UpdateStats, error) {
	if ws.removed.Load() {
		return nil, false, index.UpdateStats{}, index.ErrCanceled
	}
	if ws.store == nil {
		st, err := store.Open(ws.root)
		var busy *store.ErrInUse
		switch {
		case store.IsMovedAside(err):
			r.log.Warn("store", "root", ws.root, "err", err)
		case errors.As(err, &busy):
			note := busy.Error()
			ws.storeNote.Store(&note)
			r.log.Warn("store in use, indexing without persistence", "root", ws.root, "err", err)
		case err != nil:
			r.log.Warn("store unavailable, indexing without persistence", "root", ws.root, "err", err)
		}
		ws.store = st
		if st != nil {
			ws.storeNote.Store(nil)
			ws.storeEpoch.Store(st.Epoch())
		}
	}
	digest := index.Digest(r.cfg)
	if ws.store != nil {
		meta, recs, err := ws.store.Load()
		if err == nil && meta.Config == digest && len(recs) > 0 {
			files := make([]*facts.File, len(recs))
			stamps := make(map[string][2]int64, len(recs))
			for i, rec := range recs {
				files[i] = rec.Facts
				stamps[rec.Facts.Path] = [2]int64{rec.Size, rec.MTime}
			}
			fp, g, gerr := ws.store.LoadGraph()
			if gerr != nil {
				r.log.Warn("stored graph unusable, resolving again", "root", ws.root, "err", gerr)
			}
			ws.savedFP = fp
			old := index.Restore(ws.root, r.cfg, files, stamps, g, fp)
			res, stats, err := old.Update(nil)
			if err == nil {
				r.save(ws, old, res, meta.Generation+1)
				r.log.Info("warm start", "root", ws.root, "stats", stats.String(), "graph_reused", res.Graph == g && g != nil)
				if res.Fingerprint() != ws.savedFP {
					go r.saveGraph(ws, res)
				}
				return res, true, stats, nil
			}
			r.log.Warn("warm start failed, indexing from scratch", "root", ws.root, "err", err)
		}
	}
	res, err := index.BuildWith(ws.root, index.Options{Config: r.cfg, Progress: prog})
	if err != nil {
		return nil, false, index.UpdateStats{}, err
	}
	r.save(ws, nil, res, 1)
	go r.saveGraph(ws, res)
	return res, false, index.UpdateStats{Reparsed: len(res.Files)}, nil
}

// save writes what changed between prev (nil: nothing saved yet) and next
// to ws's store.
func (r *registry) save(ws *workspace, prev, next *index.Result, gen uint64) {
	if ws.store == nil || next == nil || ws.removed.Load() {
		return
	}
	epoch := ws.store.Epoch()
	if epoch != ws.storeEpoch.Load() {
		prev = nil // the file was replaced since: what it held is gone
	}
	r.saveFiles(ws, prev, next, gen)
	if now := ws.store.Epoch(); now != ws.storeEpoch.Load() {
		// The store reopened another file (truncated or replaced under
		// the daemon): fill it again, graph and board included.
		r.log.Warn("store file replaced while open; saving everything again", "root", ws.root)
		ws.storeEpoch.Store(now)
		if prev != nil || now != epoch {
			r.saveFiles(ws, nil, next, gen)
		}
		go func() {
			ws.upd.Lock()
			ws.savedFP = ""
			ws.upd.Unlock()
			r.saveGraph(ws, next)
		}()
		if ws.board.ready.Load() {
			if b, err := ws.loadBoard(); err == nil {
				go ws.saveBoard(b)
			}
		}
	}
}

// saveFiles writes the facts that changed between prev (nil: everything)
// and next to ws's store.
func (r *registry) saveFiles(ws *workspace, prev, next *index.Result, gen uint64) {
	before := map[string]*facts.File{}
	if prev != nil {
		for _, f := range prev.Files {
			before[f.Path] = f
		}
	}
	var put []store.Record
	for _, f := range next.Files {
		size, mtime := next.Stamp(f.Path)
		if old := before[f.Path]; old == f {
			if os, om := prev.Stamp(f.Path); os == size && om == mtime {
				delete(before, f.Path)
				continue
			}
		}
		delete(before, f.Path)
		put = append(put, store.Record{Facts: f, Size: size, MTime: mtime})
	}
	var del []string
	for p := range before {
		del = append(del, p)
	}
	meta := store.Meta{Version: wire.Version, Generation: gen, Head: gitHead(ws.root), Config: index.Digest(r.cfg)}
	if err := ws.store.Save(meta, put, del); err != nil {
		r.log.Warn("store save failed", "root", ws.root, "err", err)
	}
}

// saveGraph stores res's graph unless the store already has it. It runs
// after a build and at shutdown, not after every edit: a stale stored graph
// costs only a re-resolve at the next start.
func (r *registry) saveGraph(ws *workspace, res *index.Result) {
	ws.upd.Lock()
	defer ws.upd.Unlock()
	if ws.store == nil || res == nil || res.Graph == nil || res.Fingerprint() == ws.savedFP {
		return
	}
	if err := ws.store.SaveGraph(res.Fingerprint(), res.Graph); err != nil {
		r.log.Warn("store graph save failed", "root", ws.root, "err", err)
		return
	}
	ws.savedFP = res.Fingerprint()
}

// persist brings the store up to date with ws's current graph in the
// background. Calls while a save runs coalesce into one more save of the
// latest state, so updates never wait for the disk.
func (r *registry) persist(ws *workspace) {
	ws.saveAgain.Store(true)
	for ws.saveAgain.Load() {
		if !ws.saving.CompareAndSwap(false, true) {
			return // the running saver sees saveAgain
		}
		for ws.saveAgain.Swap(false) {
			res, gen := ws.snapshot()
			if res != ws.saved {
				r.save(ws, ws.saved, res, gen)
				ws.saved = res
			}
		}
		ws.saving.Store(false)
	}
}

// reindex starts a full index of a registered root (and adds a root not
// registered yet), asking the language servers again.
func (r *registry) reindex(root string) (*workspace, error) {
	w := r.find(root)
	if w == nil {
		return r.addWith(root, false, true)
	}
	w.freshLSP.Store(true)
	r.mu.Lock()
	r.startIndex(w)
	r.mu.Unlock()
	return w, nil
}

// registered returns the workspace registered at exactly root, or nil.
func (r *registry) registered(root string) *workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ws[root]
}

// find returns the registered workspace whose root contains path (the
// deepest one), or nil.
func (r *registry) find(path string) *workspace {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var best *workspace
	for root, w := range r.ws {
		if (abs == root || strings.HasPrefix(abs, root+"/") || root == "/") && (best == nil || len(root) > len(best.root)) {
			best = w
		}
	}
	return best
}

func (r *registry) remove(root string) error {
	w := r.find(root)
	if w == nil {
		return errNotInitialised(root)
	}
	r.mu.Lock()
	delete(r.ws, w.root)
	r.mu.Unlock()
	w.removed.Store(true)
	w.mu.RLock()
	wt := w.watch
	w.prog.Cancel() // a run in progress stops reading files
	w.mu.RUnlock()
	if wt != nil {
		wt.close()
	}
	r.stopLSP(w)
	w.closeSearch()
	w.upd.Lock()
	if w.store != nil {
		w.store.Close()
	}
	w.upd.Unlock()
	return nil
}

// list returns the workspaces sorted by root.
func (r *registry) list() []*workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*workspace, 0, len(r.ws))
	for _, w := range r.ws {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root < out[j].root })
	return out
}

// busy reports whether any workspace is indexing.
func (r *registry) busy() bool {
	for _, w := range r.list() {
		w.mu.RLock()
		b := w.state == StateIndexing
		w.mu.RUnlock()
		if b {
			return true
		}
	}
	return false
}

// close waits for running index jobs (bounded by the caller's patience:
// index runs cannot be interrupted, so this is best effort).
func (r *registry) close() {
	r.gc.stop()
	select {
	case <-r.stopServers:
	default:
		close(r.stopServers)
	}
	for _, w := range r.list() {
		r.stopLSP(w)
	}
	if r.lspm != nil {
		r.lspm.Close()
	}
	for _, w := range r.list() {
		w.mu.RLock()
		wt := w.watch
		w.mu.RUnlock()
		if wt != nil {
			wt.close()
		}
	}
	done := make(chan struct{})
	defer func() {
		for _, w := range r.list() {
			res, _ := w.snapshot()
			r.saveGraph(w, res)
			r.saveRefinement(w)
			w.upd.Lock()
			if w.store != nil {
				w.store.Close()
			}
			w.upd.Unlock()
		}
	}()
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

var errNoWorkspace = errors.New("not initialised")

func errNotInitialised(root string) error {
	return fmt.Errorf("%w: %s is not in any workspace of this daemon", errNoWorkspace, root)
}
