package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// maxDelay bounds the wait for a burst of file events to be quiet (the
// debounce, config.Daemon.Debounce) during a long burst.
const maxDelay = 500 * time.Millisecond

// watcher keeps one workspace fresh: fsnotify on every directory indexing
// enters (new directories are added as they appear), debounced updates,
// and a full content check when git's HEAD moves. It is the workspace's
// Watch.
type watcher struct {
	r    *registry
	ws   *workspace.Workspace
	root string
	fw   *fsnotify.Watcher

	excl index.ExcludeCache // ignore files, re-read when one changes

	mu         sync.Mutex
	pending    map[string]bool // changed paths, relative to the root
	watched    map[string]bool // directories watched, relative to the root
	walked     []string        // the directories of the last walk followed (followWalk)
	full       bool            // re-read every file (HEAD moved)
	structural bool            // files or directories appeared, vanished or moved
	precise    bool            // the precise SCIP index was written
	// preciseFile is the workspace's precise SCIP index (PreciseFile).
	preciseFile string
	kick        chan struct{}
	done        chan struct{}

	// polling: inotify could not follow the whole tree (no instance
	// left, or the watch limit reached): the tree is also walked every
	// pollEvery. pollStop ends the poller.
	polling  atomic.Bool
	pollOnce sync.Once
	pollStop chan struct{}
}

// pollEvery is how often a tree inotify cannot follow is walked.
var pollEvery = 2 * time.Second

// startPolling makes w walk the tree every pollEvery from now on, with
// why in the log and in the workspace's status.
func (w *watcher) startPolling(why error) {
	w.pollOnce.Do(func() {
		w.polling.Store(true)
		w.r.log.Warn("watch: inotify cannot follow this tree; polling it instead", "root", w.root, "every", pollEvery, "err", why)
		go every(pollEvery, w.pollStop, func() { w.ws.Update(workspace.Changes{Since: time.Now()}) })
	})
}

// watch starts following ws's tree.
func (r *registry) watch(ws *workspace.Workspace) {
	// Tests widen the window between indexing and watching to prove that
	// changes made in it are not lost.
	time.Sleep(r.knobs.WatchDelay)
	fw, err := newFSWatcher(r.knobs.NoInotify)
	w := &watcher{r: r, ws: ws, root: ws.Root(), fw: fw, pending: map[string]bool{}, watched: map[string]bool{}, kick: make(chan struct{}, 1),
		done: make(chan struct{}), pollStop: make(chan struct{}), preciseFile: ws.PreciseFile()}
	if err != nil {
		// No inotify instance left (fs.inotify.max_user_instances):
		// poll the tree instead.
		if !ws.Watching(w, true) {
			return
		}
		go w.updates()
		w.startPolling(err)
		return
	}
	if !ws.Watching(w, false) {
		fw.Close() // removed before its watches went in
		return
	}
	res, _ := ws.Result()
	w.followWalk(res)
	if fi, err := os.Stat(filepath.Join(w.root, ".git")); err == nil && fi.IsDir() {
		fw.Add(filepath.Join(w.root, ".git"))
	}
	go w.events()
	go w.updates()
	// Anything that changed between the index walk and the watches going
	// in produced no event: one walk now catches it.
	w.mu.Lock()
	w.structural = true
	w.mu.Unlock()
	w.mark("", false)
}

// watchDirs adds watches on dirs (relative to the root). Directories
// already watched are skipped unless force (a directory made again at a
// path the watcher knew gets a new watch).
func (w *watcher) watchDirs(dirs []string, force bool) {
	if w.fw == nil {
		return
	}
	for _, d := range dirs {
		w.mu.Lock()
		known := w.watched[d]
		w.watched[d] = true
		w.mu.Unlock()
		if known && !force {
			continue
		}
		abs := filepath.Join(w.root, filepath.FromSlash(d))
		if err := w.fw.Add(abs); err != nil {
			w.mu.Lock()
			delete(w.watched, d)
			w.mu.Unlock()
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				// The watch limit (fs.inotify.max_user_watches): the
				// rest of the tree is polled.
				w.startPolling(err)
				return
			}
			w.r.log.Warn("watch: cannot add", "dir", abs, "err", err)
		}
	}
}

// forget drops rel and every directory below it from the watched set
// (inotify drops a removed directory's watch by itself).
func (w *watcher) forget(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.watched[rel] {
		return
	}
	for d := range w.watched {
		if d == rel || strings.HasPrefix(d, rel+"/") {
			delete(w.watched, d)
		}
	}
}

// followWalk watches the directories of res's walk not watched yet (made
// while no watch was in place to see them), once per walk.
func (w *watcher) followWalk(res *index.Result) {
	if res == nil {
		return
	}
	dirs := res.Dirs()
	w.mu.Lock()
	same := len(dirs) == len(w.walked) && (len(dirs) == 0 || &dirs[0] == &w.walked[0])
	w.walked = dirs
	w.mu.Unlock()
	if !same {
		w.watchDirs(dirs, false)
	}
}

// addTree watches a directory that just appeared (rel, relative to the
// root) and every directory below it indexing enters, and marks the
// documentation and configuration files already in it, which the update
// walk (code files only) would not bring to the retrieval index.
func (w *watcher) addTree(rel string) {
	tree := index.Walk(w.root, rel, w.r.cfg)
	w.watchDirs(tree.Dirs, true)
	for _, p := range tree.Text {
		w.mark(p, false)
	}
}

// Close stops following the tree.
func (w *watcher) Close() {
	select {
	case <-w.pollStop:
	default:
		close(w.pollStop)
	}
	if w.fw != nil {
		w.fw.Close() // ends events, which closes kick
	} else {
		close(w.kick)
	}
	<-w.done
}

// newFSWatcher is fsnotify.NewWatcher; with fail (a test knob,
// config.Daemon.NoInotify) it fails as on a machine out of inotify
// instances.
func newFSWatcher(fail bool) (*fsnotify.Watcher, error) {
	if fail {
		return nil, fmt.Errorf("inotify_init1: %w", syscall.EMFILE)
	}
	return fsnotify.NewWatcher()
}

func (w *watcher) events() {
	// Closing the fsnotify watcher closes both channels; either ends the
	// loop, and closing kick ends the update goroutine.
	defer close(w.kick)
	gitDir := filepath.Join(w.root, ".git") + string(filepath.Separator)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if strings.HasPrefix(ev.Name, gitDir) {
				base := filepath.Base(ev.Name)
				if base == "HEAD" || base == "packed-refs" || base == "ORIG_HEAD" {
					w.mark("", true)
				} else {
					w.ws.GitChanged() // a commit: the branch's ref may have moved
				}
				continue
			}
			if w.preciseFile != "" && ev.Name == w.preciseFile {
				// A new precise index (often git-ignored): import it once
				// the burst of writes is over.
				w.mu.Lock()
				w.precise = true
				w.mu.Unlock()
				w.mark("", false)
				continue
			}
			rel, err := filepath.Rel(w.root, ev.Name)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			rel = filepath.ToSlash(rel)
			if index.IsIgnoreFile(filepath.Base(rel)) {
				w.excl.Invalidate()
			}
			fi, statErr := os.Lstat(ev.Name)
			isDir := statErr == nil && fi.IsDir()
			if w.excl.Excluded(w.root, rel, isDir, w.r.cfg.SkipDirs) {
				continue // .codecanvas/, node_modules/, ignored files: not the graph's business
			}
			if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.mu.Lock()
				w.structural = true
				w.mu.Unlock()
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.forget(rel)
			}
			if ev.Has(fsnotify.Create) {
				if isDir {
					// Watch the new directory at once, then let the update
					// walk find whatever was written into it meanwhile
					// (code files; the text files are marked here).
					w.addTree(rel)
				}
			}
			w.mark(rel, false)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			// An overflow loses events: check everything.
			w.r.log.Warn("watch error", "root", w.root, "err", err)
			w.mark("", true)
		}
	}
}

func (w *watcher) mark(rel string, full bool) {
	w.mu.Lock()
	if rel != "" {
		w.pending[rel] = true
	}
	w.full = w.full || full
	w.mu.Unlock()
	w.ws.MarkDirty()
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// updates applies batches of changes, one at a time.
func (w *watcher) updates() {
	defer close(w.done)
	quiet := w.r.knobs.Debounce
	for range w.kick {
		first := time.Now()
		// Wait for the burst to end (or maxDelay).
	burst:
		for {
			t := time.NewTimer(quiet)
			select {
			case _, ok := <-w.kick:
				t.Stop()
				if !ok {
					return
				}
				if time.Since(first) >= maxDelay {
					break burst
				}
			case <-t.C:
				break burst
			}
		}
		w.apply(first)
	}
}

// apply runs one incremental update with the pending changes.
func (w *watcher) apply(since time.Time) {
	w.mu.Lock()
	hint := make([]string, 0, len(w.pending))
	for p := range w.pending {
		hint = append(hint, p)
	}
	full, fast := w.full, !w.full && !w.structural
	precise := w.precise
	onlyPrecise := precise && len(hint) == 0 && !full && !w.structural
	w.pending, w.full, w.structural, w.precise = map[string]bool{}, false, false, false
	w.mu.Unlock()
	if !onlyPrecise {
		w.ws.Update(workspace.Changes{Paths: hint, Full: full, Fast: fast, Since: since})
		res, _ := w.ws.Result()
		w.followWalk(res)
	}
	if precise {
		w.r.log.Info("scip index changed: importing it again", "root", w.root)
		go w.ws.Refine()
	}
}

// Pending reports file changes seen and not applied yet.
func (w *watcher) Pending() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending) > 0 || w.full
}

// Polling reports that the tree is walked every pollEvery because inotify
// cannot follow it.
func (w *watcher) Polling() bool { return w.polling.Load() }
