package workspace

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/store"
)

// Start runs a full index of the workspace in the background, unless one
// runs already. The previous graph stays visible until the new one is
// ready. Files come from the store when it holds them for the same
// schemas and configuration (only files changed since are parsed).
func (w *Workspace) Start() {
	if prog, ready, ok := w.begin(); ok {
		go w.run(prog, ready)
	}
}

// Index runs a full index of the workspace now and returns its error: a
// root without source files is a *index.NoSourceError. It is how the CLI
// indexes in its own process (Env.OneShot); an index run already under
// way is waited for instead.
func (w *Workspace) Index() error {
	prog, ready, ok := w.begin()
	if !ok {
		<-w.Ready()
		if s := w.Snapshot(); s.State == StateFailed {
			return errors.New(s.Err)
		}
		return nil
	}
	return w.run(prog, ready)
}

// begin marks an index run as started and returns its progress and the
// channel its end closes; ok is false when one runs already.
func (w *Workspace) begin() (prog *index.Progress, ready chan struct{}, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == StateIndexing {
		return nil, nil, false
	}
	prog, ready = &index.Progress{}, make(chan struct{})
	w.state, w.err, w.prog, w.ready = StateIndexing, "", prog, ready
	prev := w.rootID
	w.rootID, _ = statRoot(w.root)
	if prev != (rootID{}) && prev != w.rootID {
		// A tree made again: the store was the old tree's (and went with
		// it); load opens the new tree's.
		w.persist.close()
	}
	return prog, ready, true
}

// run is one index run: it loads the index, publishes it and starts what
// follows an index in the daemon (the architecture picture, the SCIP
// export, the refinement, the watch). It closes ready when done.
func (w *Workspace) run(prog *index.Progress, ready chan struct{}) error {
	defer close(ready)
	t0 := time.Now()
	res, warm, stats, err := w.load(prog)
	if err == nil {
		if err = index.RequireSource(w.root, res, w.env.Config); err != nil {
			err = fmt.Errorf("%w: not initialised; run init again once the project is there", err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.took = time.Since(t0)
	log := w.env.Log
	if w.removed.Load() {
		// Removed while indexing: drop the result, start no watch,
		// write nothing into the root.
		w.persist.close()
		w.state, w.err = StateFailed, "removed while indexing"
		log.Info("index run dropped: the workspace was removed", "root", w.root)
		return errors.New(w.err)
	}
	if err != nil {
		w.state, w.err = StateFailed, err.Error()
		log.Warn("index failed", "root", w.root, "err", err)
		return err
	}
	w.res, w.state, w.indexedAt, w.warm, w.stats = res, StateReady, time.Now(), warm, stats
	w.persist.saved = res
	w.gen++
	w.head = gitHead(w.root)
	log.Info("indexed", "root", w.root, "summary", res.Summary.String(), "took", w.took, "generation", w.gen)
	if w.env.OneShot {
		return nil // one command's workspace: nothing runs after it
	}
	// An index leaves hundreds of MB of garbage behind: give it back
	// now rather than keep it as the daemon's footprint at rest.
	go debug.FreeOSMemory()
	// The architecture view lands in .codecanvas/architecture.png.
	go w.SaveArtifact(res.Graph, ViewArchitecture, -1, 0, "")
	go w.writeSCIP()
	// Language servers refine the call graph in the background.
	go w.Refine()
	if w.watch == nil {
		// Not fresh until the watches are in place and checked.
		w.dirty = true
		if w.env.Indexed != nil {
			go w.env.Indexed(w)
		}
	}
	return nil
}

// load builds the workspace's index: from its store when it holds facts
// made under the same schemas and configuration (parsing only files that
// changed since), else from scratch. Either way the store is brought up
// to date. A store that cannot be used is reported and ignored.
func (w *Workspace) load(prog *index.Progress) (*index.Result, bool, index.UpdateStats, error) {
	if w.removed.Load() {
		return nil, false, index.UpdateStats{}, index.ErrCanceled
	}
	log, cfg := w.env.Log, w.env.Config
	p := &w.persist
	if p.st == nil && !w.env.OneShot {
		st, err := store.Open(w.root)
		var busy *store.ErrInUse
		switch {
		case store.IsMovedAside(err):
			log.Warn("store", "root", w.root, "err", err)
		case errors.As(err, &busy):
			note := busy.Error()
			p.note.Store(&note)
			log.Warn("store in use, indexing without persistence", "root", w.root, "err", err)
		case err != nil:
			log.Warn("store unavailable, indexing without persistence", "root", w.root, "err", err)
		}
		p.st = st
		if st != nil {
			p.note.Store(nil)
			p.epoch.Store(st.Epoch())
		}
	}
	digest := index.Digest(cfg)
	if p.st != nil {
		meta, recs, err := p.st.Load()
		if err == nil && meta.Config == digest && len(recs) > 0 {
			files := make([]*facts.File, len(recs))
			stamps := make(map[string][2]int64, len(recs))
			for i, rec := range recs {
				files[i] = rec.Facts
				stamps[rec.Facts.Path] = [2]int64{rec.Size, rec.MTime}
			}
			fp, g, gerr := p.st.LoadGraph()
			if gerr != nil {
				log.Warn("stored graph unusable, resolving again", "root", w.root, "err", gerr)
			}
			p.savedFP = fp
			old := index.Restore(w.root, cfg, files, stamps, g, fp)
			res, stats, err := old.Update(nil)
			if err == nil {
				w.save(old, res, meta.Generation+1, gitHead(w.root))
				log.Info("warm start", "root", w.root, "stats", stats.String(), "graph_reused", res.Graph == g && g != nil)
				if res.Fingerprint() != p.savedFP {
					go w.saveGraph(res)
				}
				return res, true, stats, nil
			}
			log.Warn("warm start failed, indexing from scratch", "root", w.root, "err", err)
		}
	}
	res, err := index.BuildWith(w.root, index.Options{Config: cfg, Progress: prog})
	if err != nil {
		return nil, false, index.UpdateStats{}, err
	}
	w.save(nil, res, 1, gitHead(w.root))
	go w.saveGraph(res)
	return res, false, index.UpdateStats{Reparsed: len(res.Files)}, nil
}
