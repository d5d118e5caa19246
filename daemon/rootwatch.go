package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ccd-dev/ccd/core/store"
)

// A workspace's root may vanish (rm -rf), be renamed, or be deleted and
// made again at the same path (rm -rf repo && git clone ... repo). The
// graph of a vanished tree must not be served as fresh, and a tree made
// again is a new tree: it is indexed again. The root's identity (device
// and inode) is taken when an index run starts; rootStatus compares it
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
	rootSame     = iota // the tree that was indexed
	rootGone            // nothing at the path
	rootReplaced        // another directory at the path
)

// rootStatus compares the directory at w.root with the one indexed.
// Call with w.mu held (read or write).
func (w *workspace) rootStatus() int {
	id, ok := statRoot(w.root)
	switch {
	case !ok:
		return rootGone
	case w.rootID != (rootID{}) && id != (rootID{}) && id != w.rootID:
		return rootReplaced
	}
	return rootSame
}

// fresh says w's graph is the current state of its tree: ready, no file
// events pending, and the root still the directory indexed. Call with
// w.mu held.
func (w *workspace) fresh() bool {
	return w.state == StateReady && !w.dirty && w.rootStatus() == rootSame
}

// rootCheckEvery is how often the daemon looks at its workspaces' roots.
var rootCheckEvery = 2 * time.Second

// watchRoots re-indexes every workspace whose root was made again, and
// stops following one whose root is gone, until stop is closed.
func (r *registry) watchRoots(stop <-chan struct{}) {
	every(rootCheckEvery, stop, r.checkRoots)
}

// checkRoots looks at every workspace's root once.
func (r *registry) checkRoots() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.ws {
		w.mu.RLock()
		st, indexing := w.rootStatus(), w.state == StateIndexing
		w.mu.RUnlock()
		if st == rootSame || indexing {
			continue
		}
		r.dropWatch(w)
		if st == rootReplaced {
			r.log.Info("workspace root made again: indexing the new tree", "root", w.root)
			r.startIndex(w)
		}
	}
}

// dropWatch stops following w's tree (its directories are gone).
func (r *registry) dropWatch(w *workspace) {
	w.mu.Lock()
	wt := w.watch
	w.watch = nil
	if wt != nil {
		w.dirty = true
	}
	w.mu.Unlock()
	if wt != nil {
		go wt.close()
		r.log.Warn("workspace root gone or replaced: not following it", "root", w.root)
	}
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
