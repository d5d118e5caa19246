package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/scip"
)

// PreciseInfo is what the last import of a workspace's precise SCIP
// index did, for status and the orientation card.
type PreciseInfo struct {
	file  string // absolute
	made  time.Time
	stats scip.ImportStats
	// edges and dropped count the refinement's edges and the tree-sitter
	// edges it dropped.
	edges, dropped int
	err            string // why the index was not used
	own            bool   // the index is ccd's own export (not used, nothing to report)
}

// PreciseFile is the precise index a workspace's configuration names,
// absolute, or "" when precise mode is off.
func (w *Workspace) PreciseFile() string {
	f := w.env.Config.SCIPIndex
	if f == "" {
		return ""
	}
	if !filepath.IsAbs(f) {
		f = filepath.Join(w.root, filepath.FromSlash(f))
	}
	return f
}

// importPrecise reads the workspace's precise SCIP index, when it has one, and
// imports it into res's graph: a refinement with confidence precise, or
// nil. An index that cannot be used (unreadable, written by ccd itself)
// is reported in the workspace's status and logged; it never fails the
// refinement.
func (w *Workspace) importPrecise(res *index.Result) *lsp.Refinement {
	file := w.PreciseFile()
	info := PreciseInfo{file: file}
	defer func() {
		w.lsp.mu.Lock()
		w.lsp.preciseInfo = info
		w.lsp.mu.Unlock()
	}()
	if file == "" {
		return nil
	}
	if _, err := os.Stat(file); err != nil {
		info.file = ""
		return nil
	}
	p, err := scip.Load(w.root, file)
	if err != nil {
		info.err, info.own = err.Error(), errors.Is(err, scip.ErrOwnIndex)
		if !info.own {
			w.env.Log.Warn("scip index not used", "root", w.root, "file", file, "err", err)
		}
		return nil
	}
	ref, st := scip.Import(w.root, res.Graph, res.Files, p.Index, scip.ImportOptions{Changed: scip.ChangedSince(w.root, p.Made)})
	info.made, info.stats, info.edges, info.dropped = p.Made, st, len(ref.Edges), len(ref.Stale)
	w.env.Log.Info("scip index imported", "root", w.root, "file", file, "tool", st.Tool, "documents", st.Used,
		"changed", st.Changed, "confirmed", st.Confirmed, "added", st.Added, "redirected", st.Redirected, "took", st.Duration)
	return ref
}

// withPrecise combines a precise refinement with the language servers'
// (made on the graph with the precise one applied).
func withPrecise(pre, ref *lsp.Refinement) *lsp.Refinement {
	if pre == nil {
		return ref
	}
	if ref == nil {
		return pre
	}
	out := &lsp.Refinement{Stats: ref.Stats}
	out.Edges = append(append(out.Edges, pre.Edges...), ref.Edges...)
	out.Stale = append(append(out.Stale, pre.Stale...), ref.Stale...)
	return out
}

// withoutPrecise is ref less what the precise index contributed, as it
// is stored: the index is read again at every start.
func withoutPrecise(ref, pre *lsp.Refinement) *lsp.Refinement {
	if ref == nil {
		return nil
	}
	type site struct {
		from, to string
		line     int
	}
	drop := map[site]bool{}
	if pre != nil {
		for _, e := range pre.Stale {
			drop[site{e.From, e.To, e.Line}] = true
		}
	}
	out := &lsp.Refinement{Stats: ref.Stats}
	for _, e := range ref.Edges {
		if e.Confidence != graph.Precise {
			out.Edges = append(out.Edges, e)
		}
	}
	for _, e := range ref.Stale {
		if !drop[site{e.From, e.To, e.Line}] {
			out.Stale = append(out.Stale, e)
		}
	}
	return out
}

// Line is the orientation card's line about the precise index, "" when
// there is none.
func (info PreciseInfo) Line() string {
	switch {
	case info.file == "":
		return ""
	case info.err != "":
		return fmt.Sprintf("SCIP index %s not used: %s.", filepath.Base(info.file), info.err)
	}
	return scip.Summary(info.file, info.made, info.stats)
}

// Unused names the precise index found in the workspace and says why it
// was not used; why is "" when it was used and when there is none; own
// says it is ccd's own export (no refinement, usually nothing to warn
// about).
func (info PreciseInfo) Unused() (file, why string, own bool) {
	return info.file, info.err, info.own
}

// Detail is a line on everything an import of the precise index did
// (`ccd export` prints it), "" when none was imported.
func (info PreciseInfo) Detail() string {
	if info.file == "" || info.err != "" {
		return ""
	}
	st := info.stats
	return fmt.Sprintf("%s (%s, made %s ago): %d of %d documents used (%d changed since); %d of %d sites found: %d confirmed, %d redirected, %d added, %d external, %d local values; %d edges, %d dropped; %s",
		info.file, st.Tool, time.Since(info.made).Round(time.Second), st.Used, st.Documents, st.Changed, st.Found, st.Sites,
		st.Confirmed, st.Redirected, st.Added, st.External, st.Local, info.edges, info.dropped, st.Duration.Round(time.Millisecond))
}

// preciseOnly refines the workspace with its precise index alone, when no language
// server may run (CCD_LSP=off): the graph answers use gets the index's
// edges, and edits drop those of the edited files (markPending).
func (w *Workspace) preciseOnly() {
	s := &w.lsp
	w.upd.Lock()
	res, _ := w.Result()
	w.upd.Unlock()
	var pre *lsp.Refinement
	if res != nil {
		pre = w.importPrecise(res)
	}
	var g *graph.Graph
	if pre != nil {
		g = lsp.Apply(res.Graph, pre)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = LSPOff
	if pre == nil || s.stopped {
		s.ref, s.precise = nil, nil
		return
	}
	if s.latest != res {
		s.latest = res
		s.seq++
	}
	s.ref, s.precise = pre, pre
	s.base, s.baseSeq, s.g = res, s.seq, g
}

// writeSCIP writes the workspace's graph (as answers use it) to the SCIP file
// CCD_SCIP_EXPORT names, when it names one: after the index and after
// every update that changed the graph, one at a time, the latest last
// (Workspace.scipOut coalesces them).
func (w *Workspace) writeSCIP() {
	out := w.env.Config.SCIPExport
	if out == "" {
		return
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(w.root, filepath.FromSlash(out))
	}
	w.scipOut.run(func() {
		res, _ := w.Result()
		if res == nil || w.removed.Load() {
			return
		}
		t0 := time.Now()
		st, err := scip.WriteFile(out, w.root, w.served(res), scip.ExportOptions{ToolVersion: w.env.Version})
		if err != nil {
			w.env.Log.Warn("scip export", "root", w.root, "file", out, "err", err)
			return
		}
		w.env.Log.Info("scip export", "root", w.root, "file", out, "documents", st.Documents, "occurrences", st.Occurrences, "took", time.Since(t0))
	})
}
