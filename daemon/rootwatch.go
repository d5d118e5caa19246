package daemon

import (
	"time"

	"github.com/ccd-dev/ccd/daemon/workspace"
)

// A workspace's root may vanish (rm -rf), be renamed, or be deleted and
// made again at the same path (rm -rf repo && git clone ... repo): the
// daemon stops following a vanished tree and indexes a tree made again
// (see workspace.RootStatus).

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
		st, indexing := w.RootStatus(), w.Indexing()
		if st == workspace.RootSame || indexing {
			continue
		}
		r.dropWatch(w)
		if st == workspace.RootReplaced {
			r.log.Info("workspace root made again: indexing the new tree", "root", w.Root())
			w.Start()
		}
	}
}

// dropWatch stops following w's tree (its directories are gone).
func (r *registry) dropWatch(w *workspace.Workspace) {
	if wt := w.Unwatch(); wt != nil {
		go wt.Close()
		r.log.Warn("workspace root gone or replaced: not following it", "root", w.Root())
	}
}
