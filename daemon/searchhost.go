package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/parse"
	"github.com/ccd-dev/ccd/core/search"
	"github.com/ccd-dev/ccd/daemon/mcp"
)

// searchState is a workspace's retrieval index, created on first use and
// kept fresh by the workspace's updates.
type searchState struct {
	mu sync.Mutex
	ix *search.Index

	// facts of the result the index last looked at, by path: the index's
	// parse hook reuses them when a file's content still matches.
	factsOf *index.Result
	byPath  map[string]*facts.File

	parser   *parse.Parser
	parserMu sync.Mutex
}

// searchIndex returns ws's retrieval index, creating it (and queueing its
// files for background indexing) on first use. nil while the workspace
// has no graph yet.
func (r *registry) searchIndex(ws *workspace) *search.Index {
	res, _ := ws.snapshot()
	if res == nil {
		return nil
	}
	s := &ws.search
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix != nil {
		return s.ix
	}
	s.ix = search.NewWithOptions(search.Options{Root: ws.root, Parse: func(p string, content []byte) (string, []facts.Def, error) {
		return r.parseForSearch(ws, p, content)
	}})
	paths := make([]string, 0, len(res.Files))
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	paths = append(paths, res.TextFiles()...)
	if err := s.ix.Fill(paths); err != nil {
		r.log.Warn("search fill", "root", ws.root, "err", err)
	}
	return s.ix
}

// parseForSearch gives the retrieval index a file's language and
// definitions: the workspace's facts when the content is the one they were
// made from, else a fresh parse.
func (r *registry) parseForSearch(ws *workspace, p string, content []byte) (string, []facts.Def, error) {
	lang := config.LanguageFor(p)
	if lang == nil {
		return "", nil, nil
	}
	res, _ := ws.snapshot()
	s := &ws.search
	s.mu.Lock()
	if res != nil && s.factsOf != res {
		s.byPath = make(map[string]*facts.File, len(res.Files))
		for _, f := range res.Files {
			s.byPath[f.Path] = f
		}
		s.factsOf = res
	}
	f := s.byPath[p]
	s.mu.Unlock()
	if f != nil && f.Hash == parse.HashContent(content) {
		return f.Lang, f.Defs, nil
	}
	reg, err := parse.Default()
	if err != nil || !reg.Supports(lang.Name) {
		return "", nil, nil
	}
	s.parserMu.Lock()
	defer s.parserMu.Unlock()
	if s.parser == nil {
		s.parser = reg.NewParser()
	}
	ff, err := s.parser.Parse(p, lang.Name, content)
	if err != nil {
		return "", nil, err
	}
	return ff.Lang, ff.Defs, nil
}

// syncSearch brings ws's retrieval index (when it exists) up to date with
// an update from prev to next: changed files are re-indexed, removed ones
// dropped.
func (r *registry) syncSearch(ws *workspace, prev, next *index.Result) {
	ws.search.mu.Lock()
	ix := ws.search.ix
	ws.search.mu.Unlock()
	if ix == nil || prev == nil || next == nil {
		return
	}
	old := make(map[string]string, len(prev.Files))
	for _, f := range prev.Files {
		old[f.Path] = f.Hash
	}
	for _, f := range next.Files {
		h, ok := old[f.Path]
		delete(old, f.Path)
		if ok && h == f.Hash {
			continue
		}
		content, err := os.ReadFile(filepath.Join(ws.root, filepath.FromSlash(f.Path)))
		if err != nil {
			ix.Remove(f.Path)
			continue
		}
		if parse.HashContent(content) != f.Hash {
			continue // changed again since; the next update brings it
		}
		if err := ix.Update(f.Path, content, f.Lang, f.Defs); err != nil {
			r.log.Warn("search update", "root", ws.root, "path", f.Path, "err", err)
		}
	}
	for p := range old {
		ix.Remove(p)
	}
}

// syncSearchText brings the documentation and configuration files among
// changed paths (a watcher's batch) up to date in ws's retrieval index:
// the graph's update covers code files only, so a README written while
// the daemon runs is found by the next query.
func (r *registry) syncSearchText(ws *workspace, changed []string) {
	ws.search.mu.Lock()
	ix := ws.search.ix
	ws.search.mu.Unlock()
	if ix == nil {
		return
	}
	for _, rel := range changed {
		if !index.IsTextFile(rel) {
			continue
		}
		p := filepath.Join(ws.root, filepath.FromSlash(rel))
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || info.Size() > r.cfg.MaxFileSize {
			ix.Remove(rel)
			continue
		}
		content, err := os.ReadFile(p)
		if err != nil {
			ix.Remove(rel)
			continue
		}
		if err := ix.Update(rel, content, "", nil); err != nil {
			r.log.Warn("search update", "root", ws.root, "path", rel, "err", err)
		}
	}
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
	ix := h.r.searchIndex(w)
	if ix == nil {
		return nil, nil, fmt.Errorf("%w: %s", mcp.ErrIndexing, root)
	}
	return ix, g, nil
}

// closeSearch releases ws's parser (the index itself is garbage).
func (ws *workspace) closeSearch() {
	s := &ws.search
	s.parserMu.Lock()
	defer s.parserMu.Unlock()
	if s.parser != nil {
		s.parser.Close()
		s.parser = nil
	}
}
