package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/search"
	"github.com/ccd-dev/ccd/daemon/mcp"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// mcpHost implements mcp.Host on the registry.
type mcpHost struct{ r *registry }

var _ mcp.Host = mcpHost{}

// lookup returns the registered workspace holding root.
func (h mcpHost) lookup(root string) (*workspace.Workspace, error) {
	if w := h.r.find(root); w != nil {
		return w, nil
	}
	return nil, fmt.Errorf("%w: %s", mcp.ErrNotInitialized, root)
}

func (h mcpHost) Init(ctx context.Context, root string) (mcp.InitInfo, error) {
	w, err := h.r.admit(root, false, false)
	if err != nil {
		return mcp.InitInfo{}, err
	}
	if ready := w.Ready(); ready != nil {
		select {
		case <-ready:
		case <-ctx.Done():
			return mcp.InitInfo{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, w.Root())
		}
	}
	// A fresh index is watched within moments; answer with that state
	// rather than "update pending".
	s := w.Snapshot()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; {
		if s.State != workspace.StateReady || s.Fresh || s.RootStatus != workspace.RootSame {
			break
		}
		time.Sleep(10 * time.Millisecond)
		s = w.Snapshot()
	}
	if s.Result == nil {
		if s.Err != "" {
			return mcp.InitInfo{}, errors.New(s.Err)
		}
		return mcp.InitInfo{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, s.Root)
	}
	sum := s.Result.Summary
	var errFiles []string
	for _, e := range s.Result.SyntaxErrorFiles() {
		errFiles = append(errFiles, fmt.Sprintf("%s:%d", e.Path, e.Line))
	}
	return mcp.InitInfo{Root: s.Root, Files: sum.Files, Parsed: sum.Parsed, SyntaxErrors: sum.SyntaxErrors, ErrorFiles: errFiles,
		Skipped: sum.Skipped(), Languages: sum.Languages, Generation: s.Generation, Head: s.Head,
		Fresh: s.Fresh, Warm: s.Warm}, nil
}

func (h mcpHost) Graph(ctx context.Context, root string) (*graph.Graph, mcp.Meta, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, mcp.Meta{}, err
	}
	s := w.Snapshot()
	if s.Result == nil {
		if s.State == workspace.StateFailed {
			return nil, mcp.Meta{}, fmt.Errorf("%w: %s: %s", mcp.ErrNotInitialized, s.Root, s.Err)
		}
		return nil, mcp.Meta{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, s.Root)
	}
	return s.Graph, mcp.Meta{Root: s.Root, Generation: s.Generation, Head: s.Head, Fresh: s.Fresh, Runs: s.Runs}, nil
}

func (h mcpHost) Board(root string) (*board.Board, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, err
	}
	return w.Board()
}

func (h mcpHost) SaveBoard(root string, b *board.Board) error {
	w, err := h.lookup(root)
	if err != nil {
		return err
	}
	return w.SaveBoard(b)
}

func (h mcpHost) Picture(ctx context.Context, root string, req mcp.PictureRequest) ([]byte, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, err
	}
	g, _, err := h.Graph(ctx, root)
	if err != nil {
		return nil, err
	}
	node := -1
	if req.Kind == mcp.PictureImpact {
		i, ok := g.Index(req.Node)
		if !ok {
			return nil, fmt.Errorf("impact picture: no node %q in generation of %s", req.Node, w.Root())
		}
		node = i
	}
	// A picture drawn but not kept (the failure is logged) is still an
	// answer.
	data, _, err := w.SaveArtifact(g, req.Kind, node, req.Depth, req.Evidence)
	if data == nil {
		return nil, err
	}
	return data, nil
}

// Search serves the retrieval tools: the workspace holding root (added and
// indexed when new) with its retrieval index and current graph.
func (h mcpHost) Search(ctx context.Context, root string) (*search.Index, *graph.Graph, error) {
	if h.r.find(root) == nil {
		if _, err := h.Init(ctx, root); err != nil {
			return nil, nil, err
		}
	}
	g, _, err := h.Graph(ctx, root)
	if err != nil {
		return nil, nil, err
	}
	w := h.r.find(root)
	if w == nil {
		return nil, nil, fmt.Errorf("%w: %s", mcp.ErrNotInitialized, root)
	}
	ix := w.Search()
	if ix == nil {
		return nil, nil, fmt.Errorf("%w: %s", mcp.ErrIndexing, root)
	}
	return ix, g, nil
}
