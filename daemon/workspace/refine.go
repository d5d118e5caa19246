package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
)

// LSP refinement states of a workspace.
const (
	LSPOff      = "off"      // CCD_LSP=off
	LSPRefining = "refining" // language servers are being asked
	LSPDone     = "done"     // refinement applied (or nothing to refine)
	LSPFailed   = "failed"
)

// lspState is a workspace's language-server refinement: the edges servers
// confirmed or added, and the graph with them applied to the result they
// were computed for.
type lspState struct {
	mu       sync.Mutex
	state    string
	ref      *lsp.Refinement
	base     *index.Result // the result g was built on
	g        *graph.Graph
	done     int
	total    int
	applying bool
	cancel   context.CancelFunc
	err      string
	pending  map[string]bool // files changed since the last refinement
	// full is the context of the full refinement (or restore) under way,
	// nil when none is: re-refinements of edited files wait for it.
	full context.Context
	// latest is the workspace's newest result (set before it is
	// published); seq numbers the results, and baseSeq is base's: an
	// answer for an older result neither starts work nor installs it.
	latest       *index.Result
	seq, baseSeq uint64
	// spliced and reapplied count how the refined graph followed updates:
	// by splicing the changed files, or by applying everything again.
	spliced, reapplied int
	saved              *lsp.Refinement // the refinement in the store
	// precise is the refinement the workspace's precise SCIP index gave
	// (part of ref); preciseInfo describes the last import.
	precise     *lsp.Refinement
	preciseInfo PreciseInfo
	rerun       bool // a re-refinement is scheduled
	reCancel    context.CancelFunc
	stopped     bool       // the workspace was removed or the daemon stops
	reruns      coalescer  // one re-refinement at a time (not under mu)
	saveMu      sync.Mutex // one save at a time, in order (not under mu)
}

// addPending records files to ask the servers about again; s.mu is held.
func (s *lspState) addPending(paths ...string) {
	if len(paths) > 0 && s.pending == nil {
		s.pending = map[string]bool{}
	}
	for _, p := range paths {
		s.pending[p] = true
	}
}

// served is the graph answers use: the refined graph when it is built on
// res. An update that spliced files into the graph the refinement was
// applied to is followed by splicing the same files into the refined
// graph (a few milliseconds); after a full resolve the refinement is
// applied again in the background and, meanwhile, the tree-sitter graph is
// served. Update calls it for every new result, so the refined graph
// follows the updates in turn.
func (w *Workspace) served(res *index.Result) *graph.Graph {
	if res == nil {
		return nil
	}
	s := &w.lsp
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.follow(res)
}

// servedEdit is served for the result of an update that edited the
// files edited (whose content changed): the refined graph spliced once,
// without the refinement's edges leaving those files, which the servers
// found for their old content and are asked about again. clean says the
// graph holds none of them (Change.Card then needs no splice of its own).
func (w *Workspace) servedEdit(res *index.Result, edited []string) (g *graph.Graph, clean bool) {
	if res == nil {
		return nil, true
	}
	s := &w.lsp
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.followEdit(res, edited)
}

// follow is served with s.mu held.
func (s *lspState) follow(res *index.Result) *graph.Graph {
	g, _ := s.followEdit(res, nil)
	return g
}

// followEdit is servedEdit with s.mu held.
func (s *lspState) followEdit(res *index.Result, edited []string) (*graph.Graph, bool) {
	if s.ref == nil {
		return res.Graph, true
	}
	if s.base == res || (s.base != nil && s.base.Graph == res.Graph) {
		// An update that changed nothing keeps the graph.
		if res == s.latest {
			s.base, s.baseSeq = res, s.seq
		}
		return s.g, len(edited) == 0
	}
	if s.latest != nil && res != s.latest {
		return res.Graph, true // an answer for an older result: no work for it
	}
	if prev, files, ok := res.Delta(); ok && s.base != nil && prev == s.base.Graph {
		without := spliced(edited, files)
		s.base, s.baseSeq, s.g = res, s.seq, lsp.ApplyFilesWithout(s.g, res.Graph, files, s.ref, without)
		s.spliced++
		return s.g, len(without) == len(edited)
	}
	if !s.applying {
		s.applying = true
		ref, seq := s.ref, s.seq
		go func() {
			g := lsp.Apply(res.Graph, ref)
			s.mu.Lock()
			if s.ref == ref && seq > s.baseSeq {
				s.base, s.baseSeq, s.g = res, seq, g
				s.reapplied++
			}
			s.applying = false
			s.mu.Unlock()
		}()
	}
	return res.Graph, true
}

// spliced returns the edited files among files as a set (nil for none).
func spliced(edited, files []string) map[string]bool {
	var set map[string]bool
	for _, p := range edited {
		if slices.Contains(files, p) {
			if set == nil {
				set = make(map[string]bool, len(edited))
			}
			set[p] = true
		}
	}
	return set
}

// Refine asks the language servers about the workspace's weak and unresolved call
// sites in the background, then serves the refined graph. A refinement
// stored for exactly the current inputs is used instead, unless the
// workspace was reindexed. Files edited meanwhile are asked about again
// once it is done.
func (w *Workspace) Refine() {
	s := &w.lsp
	if w.env.LSP == nil {
		w.preciseOnly()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	// The snapshot and the reset of the pending files are one step for
	// updates, which record their files before they publish.
	w.upd.Lock()
	res, _ := w.Result()
	if res == nil {
		w.upd.Unlock()
		cancel()
		return
	}
	s.mu.Lock()
	if s.stopped {
		// The workspace was removed (or the daemon stops) while it was
		// indexed: start no server for it.
		s.mu.Unlock()
		w.upd.Unlock()
		cancel()
		return
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.state, s.cancel, s.err, s.done, s.total = LSPRefining, cancel, "", 0, 0
	s.full, s.pending = ctx, nil
	if s.latest != res {
		s.latest = res
		s.seq++
	}
	seq := s.seq
	s.mu.Unlock()
	w.upd.Unlock()

	t0 := time.Now()
	pre := w.importPrecise(res)
	var ref *lsp.Refinement
	var changed []string
	restored := false
	if !w.freshLSP.Swap(false) {
		ref, changed = w.loadRefinement(res)
		switch {
		case len(changed) > lspRerunMaxFiles:
			// A checkout while the daemon was down: asking about that many
			// files one by one costs more than a full refinement.
			ref, changed = nil, nil
		case ref != nil && w.nowAvailable(ref):
			// Made without a server that is installed now.
			w.env.Log.Info("stored lsp refinement missed a server that is installed now: asking again", "root", w.root,
				"missing", MissingNames(ref.Stats.Missing))
			ref, changed = nil, nil
		}
		restored = ref != nil
	}
	var err error
	if ref == nil {
		// The servers are asked about what the precise index left open.
		ref, err = lsp.Refine(ctx, w.env.LSP, w.root, lsp.Apply(res.Graph, pre), res.Files, lsp.RefineOptions{Progress: func(done, total int) {
			s.mu.Lock()
			s.done, s.total = done, total
			s.mu.Unlock()
		}})
	}
	if err == nil {
		ref = withPrecise(pre, ref)
	}
	if ctx.Err() != nil {
		return // cancelled: a newer run or the workspace's removal
	}
	var g *graph.Graph
	if err == nil {
		// Outside the lock: answers meanwhile use the tree-sitter graph.
		g = lsp.Apply(res.Graph, ref)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil {
		return // cancelled while the refinement was applied
	}
	s.full = nil
	if err != nil {
		s.state, s.err = LSPFailed, err.Error()
		w.env.Log.Warn("lsp refine", "root", w.root, "err", err)
		return
	}
	s.ref, s.state, s.precise = ref, LSPDone, pre
	s.base, s.baseSeq, s.g = res, seq, g
	if s.latest != nil && s.latest != res {
		// Updates came while the servers were asked: follow them now, so
		// that the refined graph is current and can be stored.
		s.follow(s.latest)
	}
	s.addPending(changed...) // changed while the daemon was down: asked about below
	if len(s.pending) > 0 && !s.rerun {
		// Files edited while the servers were asked: ask about them again.
		s.rerun = true
		go w.refineChanged()
	}
	if restored {
		if len(changed) == 0 {
			s.saved = ref
		}
		w.env.Log.Info("lsp refinement restored", "root", w.root, "added", ref.Stats.Added, "upgraded", ref.Stats.Upgraded,
			"changed_while_down", len(changed), "to_ask", len(s.pending))
		return
	}
	w.env.Log.Info("lsp refine", "root", w.root, "added", ref.Stats.Added, "upgraded", ref.Stats.Upgraded,
		"stale", ref.Stats.Stale, "asked", ref.Stats.Asked, "servers", fmt.Sprint(ref.Stats.Servers), "took", time.Since(t0))
	go w.saveRefinement()
}

// refinementKey is the store blob that keeps a workspace's refinement
// across daemon restarts.
const refinementKey = "lsp-refinement"

// savedRefinement is the stored form of a refinement: what it added and
// contradicted, the fingerprint of the inputs of the graph it was last
// applied to, and the content hash of each of those files (and of the
// project facts), so that a start after some files changed keeps the
// entries of the others.
type savedRefinement struct {
	Format      int               `json:"format"`
	Fingerprint string            `json:"fingerprint"`
	Project     string            `json:"project"`
	Files       map[string]string `json:"files"`
	Edges       []graph.EdgeSpec  `json:"edges"`
	Stale       []graph.EdgeSpec  `json:"stale"`
	Stats       lsp.Stats         `json:"stats"`
}

// refinementFormat changes when savedRefinement or the meaning of its
// fields does; another format is ignored. Format 3 records the servers a
// refinement missed (Stats.Missing): format 2 stored a refinement made
// with no server at all like a complete one.
const refinementFormat = 3

// saveRefinement stores the workspace's refinement when it is complete (done, no
// edited file waiting to be asked about again) and not stored yet. Every
// change is pending before it is published, so a complete refinement
// covers base's inputs, whose fingerprint it is stored with.
func (w *Workspace) saveRefinement() {
	s := &w.lsp
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	ref, base, pre := s.ref, s.base, s.precise
	// base must be the latest result: a re-applied graph still pending
	// (after a full resolve) leaves base behind what ref covers.
	ok := ref != nil && base != nil && s.state == LSPDone && len(s.pending) == 0 && !s.rerun && ref != s.saved &&
		s.baseSeq == s.seq
	s.mu.Unlock()
	if !ok || w.persist.st == nil || w.env.LSP == nil {
		return
	}
	saved := ref
	ref = withoutPrecise(ref, pre)
	files := make(map[string]string, len(base.Files))
	for _, f := range base.Files {
		files[f.Path] = f.Hash
	}
	data, err := json.Marshal(savedRefinement{Format: refinementFormat, Fingerprint: base.Fingerprint(),
		Project: base.ProjectDigest(), Files: files, Edges: ref.Edges, Stale: ref.Stale, Stats: ref.Stats})
	if err == nil {
		err = w.persist.st.PutBlob(refinementKey, data)
	}
	if err != nil {
		w.env.Log.Warn("lsp refinement not saved", "root", w.root, "err", err)
		return
	}
	s.mu.Lock()
	s.saved = saved
	s.mu.Unlock()
}

// loadRefinement returns the refinement stored for the workspace, made for inputs
// like res's, or nil. When files changed while the daemon was down (and
// the project facts did not), the entries of call sites in unchanged
// files are kept and the changed files are returned, to be asked about
// again; nothing changed, nothing is asked. Answers get the language
// servers' edges at once either way.
func (w *Workspace) loadRefinement(res *index.Result) (*lsp.Refinement, []string) {
	if w.persist.st == nil {
		return nil, nil
	}
	data, err := w.persist.st.Blob(refinementKey)
	if err != nil || data == nil {
		return nil, nil
	}
	var sr savedRefinement
	if err := json.Unmarshal(data, &sr); err != nil || sr.Format != refinementFormat {
		w.env.Log.Warn("stored lsp refinement unusable, asking the servers again", "root", w.root, "err", err, "format", sr.Format)
		return nil, nil
	}
	ref := &lsp.Refinement{Edges: sr.Edges, Stale: sr.Stale, Stats: sr.Stats}
	if sr.Fingerprint == res.Fingerprint() {
		return ref, nil
	}
	if sr.Project != res.ProjectDigest() || len(sr.Files) == 0 {
		return nil, nil
	}
	changed := map[string]bool{}
	var paths []string
	for _, f := range res.Files {
		if h, ok := sr.Files[f.Path]; !ok || h != f.Hash {
			changed[f.Path] = true
			paths = append(paths, f.Path)
		}
	}
	return ref.Replace(res.Graph, changed, nil), paths
}

// StopRefining cancels the workspace's refinement and stops its language
// servers.
func (w *Workspace) StopRefining() {
	s := &w.lsp
	s.mu.Lock()
	for _, c := range []context.CancelFunc{s.cancel, s.reCancel} {
		if c != nil {
			c()
		}
	}
	s.stopped = true
	s.mu.Unlock()
	if w.env.LSP != nil {
		w.env.LSP.StopRoot(w.root)
	}
}

// LSPSummary is a workspace's refinement as answers and cards show it.
type LSPSummary struct {
	State              string // LSPOff, LSPRefining, LSPDone, LSPFailed or "" (not started)
	Added, Upgraded    int    // call edges the servers added and confirmed
	Done, Total        int    // call sites asked so far, of
	Spliced, Reapplied int    // how the refined graph followed updates
	// Servers maps each language asked about to the server that answered;
	// Missing maps each language that had call sites to ask about, but no
	// installed server, to the server it needs.
	Servers, Missing map[string]string
	// Err says why the refinement failed (State LSPFailed).
	Err string
	// Stats are the refinement's own counts (`ccd export` prints them).
	Stats lsp.Stats
}

// lspSummary summarises the refinement and the last precise import.
func (w *Workspace) lspSummary() (LSPSummary, PreciseInfo) {
	s := &w.lsp
	s.mu.Lock()
	defer s.mu.Unlock()
	out := LSPSummary{State: s.state, Done: s.done, Total: s.total, Spliced: s.spliced, Reapplied: s.reapplied, Err: s.err}
	if s.ref != nil {
		st := s.ref.Stats
		out.Added, out.Upgraded, out.Missing, out.Servers, out.Stats = st.Added, st.Upgraded, st.Missing, st.Used, st
	}
	return out, s.preciseInfo
}

// MissingNames lists the servers of a missing map, sorted ("gopls, pyright").
func MissingNames(missing map[string]string) string {
	names := make([]string, 0, len(missing))
	for _, n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Line is the one-line language-server summary of the orientation card,
// "" when there is nothing to say.
func (l LSPSummary) Line() string {
	switch l.State {
	case "", LSPOff:
		return ""
	case LSPRefining:
		if l.Total > 0 {
			return fmt.Sprintf("Language servers: refining call edges (%d/%d call sites asked).", l.Done, l.Total)
		}
		return "Language servers: starting."
	case LSPFailed:
		return "Language servers: refinement failed (see ccd doctor); the tree-sitter graph is in use."
	}
	missing := ""
	if len(l.Missing) > 0 {
		missing = fmt.Sprintf(" %s not found: calls only a language server resolves (through interfaces, values) may be missing.", MissingNames(l.Missing))
	}
	if len(l.Servers) == 0 {
		return strings.TrimSpace("Language servers:" + missing)
	}
	var used []string
	for lang, srv := range l.Servers {
		used = append(used, lang+": "+srv)
	}
	sort.Strings(used)
	return fmt.Sprintf("Language servers: %d call edges added, %d confirmed (%s).%s", l.Added, l.Upgraded, strings.Join(used, "; "), missing)
}

// CheckServers starts a full refinement when the last one is done but
// missed a server that is installed now, and reports whether it did.
func (w *Workspace) CheckServers() bool {
	if w.env.LSP == nil {
		return false
	}
	s := &w.lsp
	s.mu.Lock()
	var missing map[string]string
	if s.state == LSPDone && s.ref != nil && !s.stopped && s.full == nil {
		missing = s.ref.Stats.Missing
	}
	s.mu.Unlock()
	for lang := range missing {
		if w.env.LSP.Available(lang) {
			w.env.Log.Info("language server installed, refining again", "root", w.root, "language", lang)
			w.freshLSP.Store(true)
			w.markRefining()
			go w.Refine()
			return true
		}
	}
	return false
}

// markRefining shows the workspace as refining before the run starts, so that the
// answer that found the server already says so.
func (w *Workspace) markRefining() {
	s := &w.lsp
	s.mu.Lock()
	s.state, s.done, s.total = LSPRefining, 0, 0
	s.mu.Unlock()
}

// nowAvailable reports whether a server a refinement missed is installed
// now.
func (w *Workspace) nowAvailable(ref *lsp.Refinement) bool {
	for lang := range ref.Stats.Missing {
		if w.env.LSP.Available(lang) {
			return true
		}
	}
	return false
}

// markPending runs under w.upd before next is published: it makes next
// the latest result and records the files whose content differs between
// prev and next as waiting to be asked about again, so a refinement is
// never taken for complete (and stored) while a published change is not
// pending. It reports whether a re-refinement must be started: not while
// a full refinement runs (it starts one when done) or one is scheduled.
// Both results' files are sorted by path; unchanged files share facts.
func (w *Workspace) markPending(prev, next *index.Result) (schedule bool, edited []string) {
	if prev == nil || next == nil {
		return false, nil
	}
	s := &w.lsp
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.env.LSP == nil {
		// No servers: only a precise index refines, and its edges leaving
		// edited files go now (the files are not as indexed any more).
		if s.ref == nil {
			return false, nil
		}
		if s.latest != next {
			s.latest = next
			s.seq++
		}
		edited = editedFiles(prev, next)
		if len(edited) > 0 {
			set := make(map[string]bool, len(edited))
			for _, p := range edited {
				set[p] = true
			}
			s.ref = s.ref.Replace(next.Graph, set, nil)
		}
		return false, edited
	}
	if s.latest != next {
		s.latest = next
		s.seq++
	}
	if s.state != LSPDone && s.state != LSPRefining {
		return false, nil // off, failed, or not started: nothing to keep up
	}
	edited = editedFiles(prev, next)
	s.addPending(edited...)
	if len(s.pending) == 0 || s.rerun || s.ref == nil || s.full != nil || s.stopped {
		return false, edited
	}
	s.rerun = true
	return true, edited
}

// editedFiles lists the files whose content differs between two results
// (new ones included), sorted.
func editedFiles(prev, next *index.Result) (edited []string) {
	a, b := prev.Files, next.Files
	for i, j := 0, 0; j < len(b); {
		switch {
		case i < len(a) && a[i].Path < b[j].Path:
			i++ // removed: its edges go with its nodes
		case i < len(a) && a[i].Path == b[j].Path:
			if a[i] != b[j] && a[i].Hash != b[j].Hash {
				edited = append(edited, b[j].Path)
			}
			i, j = i+1, j+1
		default:
			edited = append(edited, b[j].Path) // new
			j++
		}
	}
	return edited
}

// refineChanged re-asks the language servers about the call sites of the
// pending files (markPending), after telling them the files changed, and
// merges the answers into the workspace's refinement: the edges from those files are
// replaced. It runs in the background after updates, one run at a time
// (a call during a run makes one more run after it), only once a first
// refinement is done.
func (w *Workspace) refineChanged() {
	w.lsp.reruns.run(w.refineChangedOnce)
}

// refineChangedOnce is one run of refineChanged.
func (w *Workspace) refineChangedOnce() {
	s := &w.lsp
	// Edits come in bursts: wait a moment, then take everything pending.
	time.Sleep(lspEditDelay)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The pending files and the snapshot are taken in one step for
	// updates, which record their files before they publish.
	w.upd.Lock()
	res, _ := w.Result()
	s.mu.Lock()
	s.rerun = false
	if s.ref == nil || s.full != nil || s.stopped || res == nil {
		// A full refinement runs (it starts a re-run for what is pending
		// when done), or the workspace is gone.
		s.mu.Unlock()
		w.upd.Unlock()
		return
	}
	paths := s.pending
	s.pending = nil
	ref := s.ref
	s.state, s.reCancel = LSPRefining, cancel
	s.mu.Unlock()
	w.upd.Unlock()

	var files []*facts.File
	var abs []string
	for _, f := range res.Files {
		if paths[f.Path] {
			files = append(files, f)
			abs = append(abs, filepath.Join(w.root, filepath.FromSlash(f.Path)))
		}
	}
	for _, p := range abs {
		if sess, err := w.env.LSP.SessionFor(w.root, p); err == nil && sess.Ready() {
			sess.FilesChanged(ctx, []string{p})
		}
	}
	add, err := lsp.Refine(ctx, w.env.LSP, w.root, res.Graph, files, lsp.RefineOptions{})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reCancel = nil
	if s.full == nil {
		s.state = LSPDone
	}
	if s.ref != ref {
		// A full refinement replaced the one this run merges into (its
		// snapshot has these files' changes).
		return
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil || s.stopped {
		// Cut short (the daemon stops) or failed: the files stay pending,
		// so the refinement is not stored as covering them, and the run
		// the next edit starts asks about them (no retry loop against a
		// failing server).
		for p := range paths {
			s.addPending(p)
		}
		if err != nil {
			w.env.Log.Warn("lsp refine after edit", "root", w.root, "err", err)
		}
		return
	}
	merged := ref.Replace(res.Graph, paths, add)
	changed := make([]string, 0, len(paths))
	for p := range paths {
		changed = append(changed, p)
	}
	sort.Strings(changed)
	// s.g is ref applied to s.base (res, or a newer result when more edits
	// came meanwhile); merged differs from ref only in edges leaving the
	// changed files.
	s.ref = merged
	s.g = lsp.ApplyFiles(s.g, s.base.Graph, changed, merged)
	s.spliced++
	w.env.Log.Info("lsp refine after edit", "root", w.root, "files", len(files), "edges", len(add.Edges))
	if len(s.pending) == 0 && !s.rerun {
		go w.saveRefinement()
	}
}

// lspRerunMaxFiles is the most changed files a stored refinement is
// reused with; more get a full refinement.
const lspRerunMaxFiles = 200

// lspEditDelay is how long re-refinement waits for more edits.
var lspEditDelay = 500 * time.Millisecond

// RefineFresh makes the next refinement ask the language servers even
// when the store holds one for the same inputs (ccd reindex).
func (w *Workspace) RefineFresh() { w.freshLSP.Store(true) }
