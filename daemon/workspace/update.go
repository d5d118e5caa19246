package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
)

// Changes are what Update applies.
type Changes struct {
	// Paths changed (relative to the root, slash-separated); nil when
	// unknown (the tree is walked).
	Paths []string
	// Full re-reads every file, as after a branch switch.
	Full bool
	// Fast says Paths lists every change and they are all writes, so
	// known files can be re-read without walking the tree (an update
	// falls back to a walk otherwise).
	Fast bool
	// Since is when the first of the changes was seen (the update's
	// latency is measured from it).
	Since time.Time
}

// Change is what an update did: the graphs answers used before and use
// after it, the tree-sitter graph after it, and the files whose content
// changed; Paths and Full are the Changes it applied.
type Change struct {
	Before, After *graph.Graph
	Tree          *graph.Graph
	Files         []string
	Paths         []string
	Full          bool
	// Edited lists, for a full update, the files whose content it found
	// changed (a rescan may be what takes in an edit a hook then asks
	// about: the hooks remember the graph before it for those files).
	Edited []string
	// clean: After holds none of the language servers' edges leaving
	// Files (the update's splice left them out): it is the card's graph.
	clean bool
}

// Card returns the graphs an edit card compares: After without the
// language servers' edges leaving the edited files, which were found for
// their old content (the servers are asked again in a moment); the
// tree-sitter edges of those files are fresh. The update's one splice
// leaves them out already; only a Change whose After still holds them
// (made by hand, or an edited file the update did not splice) costs a
// splice here.
func (c Change) Card() (before, after *graph.Graph) {
	if c.After == nil || c.After == c.Tree || len(c.Files) == 0 || c.clean {
		return c.Before, c.After
	}
	return c.Before, lsp.ApplyFiles(c.After, c.Tree, c.Files, nil)
}

// Update brings the workspace up to date with ch, in one pipeline: the
// changed files are read and parsed once (core/index), resolved, the
// refined graph follows by a splice, the new generation is published
// (and the change handed to Env.Changed), the retrieval index is fed the
// same content and the store is written in the background. A touch or a
// repeated event publishes nothing new (same generation).
func (w *Workspace) Update(ch Changes) (c Change, err error) {
	// Documentation and configuration files are not in the graph: the
	// retrieval index takes them as they are, once the update is done.
	defer w.syncSearchText(ch.Paths)
	w.upd.Lock()
	defer w.upd.Unlock()
	res, _ := w.Result()
	if res == nil {
		return c, nil
	}
	log := w.env.Log
	hint := ch.Paths
	c.Before = w.served(res)
	if ch.Full {
		hint = append([]string(nil), hint...)
		for _, f := range res.Files {
			hint = append(hint, f.Path)
		}
	}
	// The index: changed files read, parsed and resolved.
	var next *index.Result
	var st index.UpdateStats
	ok := false
	if ch.Fast && len(hint) > 0 {
		next, st, ok, err = res.UpdateFiles(hint)
	}
	if !ok && err == nil {
		next, st, err = res.Update(hint)
	}
	// HEAD is read again when git's state may have moved: a full update
	// (the watcher saw HEAD move), a walk of the tree (polling sees no
	// git event), or any change under .git since it was last read
	// (GitChanged); an edit of known files leaves it as it was.
	head, readHead := "", ch.Full || !ok || w.gitChanged.Swap(false)
	if readHead {
		head = gitHead(w.root)
	}
	var refineAgain, projectChanged bool
	if err == nil {
		refineAgain, c.Files = w.markPending(res, next)
		projectChanged = w.env.LSP != nil && next.Project != res.Project && next.ProjectDigest() != res.ProjectDigest()
	}
	// Publish.
	w.mu.Lock()
	w.dirty = w.watch != nil && w.watch.Pending()
	if err != nil {
		w.mu.Unlock()
		if readHead {
			w.gitChanged.Store(true) // still to be read
		}
		log.Warn("update failed", "root", w.root, "err", err)
		c.After, c.Tree = c.Before, res.Graph
		return c, err
	}
	changed := st.Reparsed > 0 || st.Removed > 0 || next.Graph != res.Graph || next.Summary.String() != res.Summary.String()
	w.res = next
	if changed {
		w.gen++
		w.lastUpdate = time.Since(ch.Since)
		w.updates++
		w.stats = st
	}
	if readHead {
		w.head = head
	}
	gen := w.gen
	w.mu.Unlock()
	// The refined graph follows every update in turn (one splice when
	// the update was one), so answers keep the language servers' edges,
	// except those leaving the edited files, found for their old content.
	c.After, c.clean = w.servedEdit(next, c.Files)
	c.Tree, c.Paths, c.Full = next.Graph, ch.Paths, ch.Full
	if ch.Full && next.Graph != res.Graph {
		c.Edited = editedFiles(res, next)
	}
	if next.Graph != res.Graph && w.env.Changed != nil {
		// Published in the order of the updates (under upd).
		w.env.Changed(w, c)
	}
	if changed {
		rs := next.ResolveStats()
		log.Info("updated", "root", w.root, "generation", gen, "stats", st.String(), "resolve", rs.Mode,
			"resolved", rs.Resolved, "names", rs.Names, "latency", time.Since(ch.Since))
	}
	go w.persistNow()
	if changed {
		go w.writeSCIP()
	}
	if w.env.Updated != nil {
		w.env.Updated()
	}
	if changed {
		go w.syncSearch(res, next)
	}
	switch {
	case projectChanged:
		// Module paths or path aliases changed: any call may resolve
		// differently, so the servers are asked about everything.
		go w.Refine()
	case refineAgain:
		go w.refineChanged()
	}
	return c, nil
}

// GitChanged says something under .git changed (the watcher sees the
// directory's events): the next update reads HEAD again.
func (w *Workspace) GitChanged() { w.gitChanged.Store(true) }

// Prepare parses rel (relative to the root) into the workspace's tree
// cache in the background (one file at a time in the whole daemon; a
// request while one runs is dropped), so the edit that usually follows
// reparses incrementally.
func (w *Workspace) Prepare(rel string) {
	res, _ := w.Result()
	if res == nil || !w.env.warming.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer w.env.warming.Store(false)
		if err := res.WarmTree(rel); err != nil {
			w.env.Log.Debug("warm tree", "root", w.root, "path", rel, "err", err)
		}
	}()
}

// gitHead returns the commit HEAD points at ("" outside git), reading
// .git/HEAD, the ref file or packed-refs.
func gitHead(root string) string {
	git := filepath.Join(root, ".git")
	b, err := os.ReadFile(filepath.Join(git, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok {
		return head // detached
	}
	if b, err := os.ReadFile(filepath.Join(git, filepath.FromSlash(ref))); err == nil {
		return strings.TrimSpace(string(b))
	}
	packed, _ := os.ReadFile(filepath.Join(git, "packed-refs"))
	for _, line := range bytes.Split(packed, []byte("\n")) {
		if f := strings.Fields(string(line)); len(f) == 2 && f[1] == ref {
			return f[0]
		}
	}
	return ""
}
