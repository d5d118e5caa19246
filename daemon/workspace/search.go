package workspace

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/parse"
	"github.com/ccd-dev/ccd/core/search"
)

// searchState is a workspace's retrieval index, created on first use and
// kept fresh by the workspace's updates.
type searchState struct {
	ix atomic.Pointer[search.Index] // nil until first used

	// parserMu guards parser, which parses what the workspace's facts do
	// not cover (a file changed since), one file at a time.
	parserMu sync.Mutex
	parser   *parse.Parser
}

// Search returns the workspace's retrieval index, creating it (and
// queueing its files for background indexing) on first use. nil while the
// workspace has no graph yet.
func (w *Workspace) Search() *search.Index {
	s := &w.search
	if ix := s.ix.Load(); ix != nil {
		return ix
	}
	res, _ := w.Result()
	if res == nil {
		return nil
	}
	ix := search.NewWithOptions(search.Options{Root: w.root, Parse: func(p string, content []byte) (string, []facts.Def, error) {
		return w.parseForSearch(p, content)
	}})
	if !s.ix.CompareAndSwap(nil, ix) {
		return s.ix.Load() // made meanwhile (this one, never filled, is garbage)
	}
	paths := make([]string, 0, len(res.Files))
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	paths = append(paths, res.TextFiles()...)
	if err := ix.Fill(paths); err != nil {
		w.env.Log.Warn("search fill", "root", w.root, "err", err)
	}
	return ix
}

// parseForSearch gives the retrieval index a file's language and
// definitions: the workspace's facts when the content is the one they were
// made from, else a fresh parse.
func (w *Workspace) parseForSearch(p string, content []byte) (string, []facts.Def, error) {
	lang := config.LanguageFor(p)
	if lang == nil {
		return "", nil, nil
	}
	if res, _ := w.Result(); res != nil {
		if f := res.File(p); f != nil && f.Hash == parse.HashContent(content) {
			return f.Lang, f.Defs, nil
		}
	}
	reg, err := parse.Default()
	if err != nil || !reg.Supports(lang.Name) {
		return "", nil, nil
	}
	s := &w.search
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

// syncSearch brings the workspace's retrieval index (when it exists) up
// to date with an update from prev to next: changed files are re-indexed
// from the content the update parsed, removed ones dropped.
func (w *Workspace) syncSearch(prev, next *index.Result) {
	ix := w.search.ix.Load()
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
		// The content the update parsed; read again only when it did not
		// keep it (a large update).
		content, ok := next.Source(f.Path)
		if !ok {
			var err error
			content, err = os.ReadFile(filepath.Join(w.root, filepath.FromSlash(f.Path)))
			if err != nil {
				ix.Remove(f.Path)
				continue
			}
			if parse.HashContent(content) != f.Hash {
				continue // changed again since; the next update brings it
			}
		}
		if err := ix.Update(f.Path, content, f.Lang, f.Defs); err != nil {
			w.env.Log.Warn("search update", "root", w.root, "path", f.Path, "err", err)
		}
	}
	for p := range old {
		ix.Remove(p)
	}
}

// syncSearchText brings the documentation and configuration files among
// changed paths up to date in the workspace's retrieval index:
// the graph's update covers code files only, so a README written while
// the daemon runs is found by the next query.
func (w *Workspace) syncSearchText(changed []string) {
	ix := w.search.ix.Load()
	if ix == nil {
		return
	}
	for _, rel := range changed {
		if !index.IsTextFile(rel) {
			continue
		}
		p := filepath.Join(w.root, filepath.FromSlash(rel))
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || info.Size() > w.env.Config.MaxFileSize {
			ix.Remove(rel)
			continue
		}
		content, err := os.ReadFile(p)
		if err != nil {
			ix.Remove(rel)
			continue
		}
		if err := ix.Update(rel, content, "", nil); err != nil {
			w.env.Log.Warn("search update", "root", w.root, "path", rel, "err", err)
		}
	}
}

// closeSearch releases the search parser (the index itself is garbage).
func (w *Workspace) closeSearch() {
	s := &w.search
	s.parserMu.Lock()
	defer s.parserMu.Unlock()
	if s.parser != nil {
		s.parser.Close()
		s.parser = nil
	}
}
