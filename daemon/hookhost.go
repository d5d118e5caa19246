package daemon

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/words"
	"github.com/ccd-dev/ccd/daemon/hooks"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// hookHost implements hooks.Host on the registry.
type hookHost struct{ r *registry }

var _ hooks.Host = hookHost{}

func (h hookHost) Lookup(p string) (string, bool) {
	if w := h.r.find(p); w != nil {
		return w.Root(), true
	}
	return "", false
}

func (h hookHost) Init(root string) (hooks.View, error) {
	w, err := h.r.admit(root, true, false)
	if err != nil {
		return hooks.View{}, err
	}
	return hookView(w.Snapshot()), nil
}

func (h hookHost) View(root string) (hooks.View, bool) {
	w := h.r.registered(root)
	if w == nil {
		return hooks.View{}, false
	}
	return hookView(w.Snapshot()), true
}

// hookView is a workspace as the hook engine sees it.
func hookView(s workspace.Snapshot) hooks.View {
	v := hooks.View{Root: s.Root, State: s.State, Error: s.Err, Graph: s.Graph, LSP: strings.TrimSpace(s.LSP.Line() + " " + s.Precise.Line()),
		Phase: s.Phase, Done: s.Done, Total: s.Total, Runs: s.Runs}
	if s.Result != nil {
		v.Files = s.Result.Summary.Parsed
		v.Languages = s.Result.Summary.Languages
	}
	return v
}

func (h hookHost) Apply(ctx context.Context, root string, paths []string) (*graph.Graph, *graph.Graph, error) {
	type result struct {
		before, after *graph.Graph
		err           error
	}
	done := make(chan result, 1)
	go func() {
		b, a, err := h.apply(root, paths)
		done <- result{b, a, err}
	}()
	select {
	case r := <-done:
		return r.before, r.after, r.err
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("graph update still running after the hook deadline: %w", ctx.Err())
	}
}

func (h hookHost) apply(root string, paths []string) (*graph.Graph, *graph.Graph, error) {
	w := h.r.registered(root)
	if w == nil {
		return nil, nil, nil
	}
	var rels []string
	for _, p := range paths {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			rels = append(rels, filepath.ToSlash(r))
		}
	}
	c, err := w.Update(workspace.Changes{Paths: rels, Fast: true, Since: time.Now()})
	if err != nil || c.Before == nil {
		return nil, nil, err
	}
	before, after := c.Card()
	return before, after, nil
}

// Prepare parses path into the workspace's tree cache in the background
// (one at a time; a request while one runs is dropped), so the edit that
// usually follows reparses incrementally.
func (h hookHost) Prepare(root, path string) {
	w := h.r.registered(root)
	rel, err := filepath.Rel(root, path)
	if w == nil || err != nil || strings.HasPrefix(rel, "..") {
		return
	}
	w.Prepare(filepath.ToSlash(rel))
}

func (h hookHost) Rescan(root string) {
	w := h.r.registered(root)
	if w != nil {
		go w.Update(workspace.Changes{Full: true, Since: time.Now()})
	}
}

// Board describes root's evidence board for a card: nothing when the
// board is empty.
func (h hookHost) Board(root string) hooks.BoardInfo {
	w := h.r.find(root)
	if w == nil {
		return hooks.BoardInfo{}
	}
	b, err := w.Board()
	if err != nil || b == nil {
		return hooks.BoardInfo{}
	}
	s := b.Snapshot()
	if len(s.Evidence)+len(s.Claims)+len(s.Decisions) == 0 {
		return hooks.BoardInfo{}
	}
	info := hooks.BoardInfo{Summary: s.View.Summary, Marked: map[string]bool{}}
	var open []string
	for _, c := range s.Claims {
		if c.Status == board.Open {
			open = append(open, fmt.Sprintf("%s %s: %s", c.ID, c.Kind, words.Clip(c.Text, 120)))
		}
	}
	if len(open) > 3 {
		open = append(open[len(open)-3:], fmt.Sprintf("(+%d earlier open claims)", len(open)-3))
	}
	if len(open) > 0 {
		info.Lines = append(info.Lines, "Open claims: "+strings.Join(open, "; "))
	}
	var recent []string
	for i := len(s.Decisions) - 1; i >= 0 && len(recent) < 3; i-- {
		d := s.Decisions[i]
		text := d.Text
		if text == "" {
			text = d.Symbol
		}
		recent = append(recent, fmt.Sprintf("%s %s: %s", d.ID, d.Kind, words.Clip(text, 100)))
	}
	if len(recent) > 0 {
		info.Lines = append(info.Lines, "Recent decisions: "+strings.Join(recent, "; "))
	}
	for _, d := range s.Decisions {
		if (d.Kind == board.Mark || d.Kind == board.Skip) && d.Node != "" {
			info.Marked[d.Node] = true
		}
	}
	return info
}

// SnapshotBoard saves root's board now (before a compaction).
func (h hookHost) SnapshotBoard(root string) {
	w := h.r.find(root)
	if w == nil {
		return
	}
	if b, err := w.Board(); err == nil && b != nil {
		if err := w.SaveBoard(b); err != nil {
			h.r.log.Warn("board snapshot", "root", root, "err", err)
		}
	}
}

// SaveImpact writes the impact view of node id under .codecanvas/ in the
// background, so that every Read that earns an impact card also leaves an
// impact picture.
func (h hookHost) SaveImpact(root, id string) {
	w := h.r.find(root)
	if w == nil {
		return
	}
	res, _ := w.Result()
	if res == nil {
		return
	}
	if i, ok := res.Graph.Index(id); ok {
		go w.SaveArtifact(res.Graph, workspace.ViewImpact, i, 3, "")
	}
}

// Mirror records that root's artifacts are also copied to
// configDir/codecanvas/ (CLAUDE_CONFIG_DIR, whose session directory
// outlives a throw-away workspace), and copies what exists now.
func (h hookHost) Mirror(root, configDir string) {
	if w := h.r.find(root); w != nil {
		w.Mirror(configDir)
	}
}
