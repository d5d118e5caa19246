package workspace

import (
	"sync/atomic"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/store"
)

// persistState is the workspace's store: one bbolt file at
// <root>/.codecanvas/ccd.db with the facts of every file, the graph, the
// board and the refinement.
type persistState struct {
	st      *store.Store
	savedFP string // fingerprint of the graph in the store (guarded by upd)
	// epoch is the store's Epoch when everything was last saved: a store
	// that reopened another file since gets everything again.
	epoch atomic.Uint64
	// note says why the workspace works without its store (the database
	// is held by another process), nil when it has it.
	note atomic.Pointer[string]
	// saved is the result the store holds (written only by the saves
	// runs, one at a time); saves coalesces the saves updates ask for.
	saved *index.Result
	saves coalescer
}

// close closes the store, when open.
func (p *persistState) close() {
	if p.st != nil {
		p.st.Close()
		p.st = nil
	}
}

// save writes what changed between prev (nil: nothing saved yet) and next
// to the store, with next's generation and the git HEAD it reflects.
func (w *Workspace) save(prev, next *index.Result, gen uint64, head string) {
	p := &w.persist
	if p.st == nil || next == nil || w.removed.Load() {
		return
	}
	epoch := p.st.Epoch()
	if epoch != p.epoch.Load() {
		prev = nil // the file was replaced since: what it held is gone
	}
	w.saveFiles(prev, next, gen, head)
	if now := p.st.Epoch(); now != p.epoch.Load() {
		// The store reopened another file (truncated or replaced under
		// the daemon): fill it again, graph and board included.
		w.env.Log.Warn("store file replaced while open; saving everything again", "root", w.root)
		p.epoch.Store(now)
		if prev != nil || now != epoch {
			w.saveFiles(nil, next, gen, head)
		}
		go func() {
			w.upd.Lock()
			p.savedFP = ""
			w.upd.Unlock()
			w.saveGraph(next)
		}()
		if w.board.ready.Load() {
			if b, err := w.Board(); err == nil {
				go w.SaveBoard(b)
			}
		}
	}
}

// saveFiles writes the facts that changed between prev (nil: everything)
// and next to the store.
func (w *Workspace) saveFiles(prev, next *index.Result, gen uint64, head string) {
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
	meta := store.Meta{Version: w.env.Version, Generation: gen, Head: head, Config: index.Digest(w.env.Config)}
	if err := w.persist.st.Save(meta, put, del); err != nil {
		w.env.Log.Warn("store save failed", "root", w.root, "err", err)
	}
}

// saveGraph stores res's graph unless the store already has it. It runs
// after a build and at shutdown, not after every edit: a stale stored
// graph costs only a re-resolve at the next start.
func (w *Workspace) saveGraph(res *index.Result) {
	w.upd.Lock()
	defer w.upd.Unlock()
	p := &w.persist
	if p.st == nil || res == nil || res.Graph == nil || res.Fingerprint() == p.savedFP {
		return
	}
	if err := p.st.SaveGraph(res.Fingerprint(), res.Graph); err != nil {
		w.env.Log.Warn("store graph save failed", "root", w.root, "err", err)
		return
	}
	p.savedFP = res.Fingerprint()
}

// persistNow brings the store up to date with the current graph in the
// background. Calls while a save runs coalesce into one more save of the
// latest state, so updates never wait for the disk.
func (w *Workspace) persistNow() {
	p := &w.persist
	p.saves.run(func() {
		w.mu.RLock()
		res, gen, head := w.res, w.gen, w.head
		w.mu.RUnlock()
		if res != p.saved {
			w.save(p.saved, res, gen, head)
			p.saved = res
		}
	})
}
