package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"sync"

	"github.com/ccd-dev/ccd/core/parse"
	"github.com/ccd-dev/ccd/core/resolve"
)

// stateBox holds the resolver state of a Result until an update takes it
// over: a state matches exactly one graph, so it moves from a Result to
// the Result its update makes. A Result whose state was taken (or never
// built) still updates correctly, by resolving everything.
type stateBox struct {
	mu sync.Mutex
	st *resolve.State
	// build makes the state on first use (a graph restored from disk comes
	// without one); nil when there is nothing to build.
	build func() *resolve.State
}

// take hands the state over to the caller, building it if it is pending.
func (b *stateBox) take() *resolve.State {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st == nil && b.build != nil {
		b.st = b.build()
	}
	st := b.st
	b.st, b.build = nil, nil
	return st
}

// warm builds a pending state now (in the background), so the first
// update does not wait for it.
func (b *stateBox) warm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.st == nil && b.build != nil {
		b.st = b.build()
		b.build = nil
	}
}

// handOver gives the state of prev, whose graph the next Result reuses
// unchanged, to that Result. A Result restored from disk has none: its
// state is built from its files in the background.
func (b *stateBox) handOver(prev *Result, proj *resolve.Project) *stateBox {
	if st := b.take(); st != nil {
		return &stateBox{st: st}
	}
	files := prev.Files
	nb := &stateBox{build: func() *resolve.State { return resolve.NewState(files, proj) }}
	go nb.warm()
	return nb
}

// sameProject reports whether two sets of project facts are equal.
func sameProject(a, b *resolve.Project) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// ProjectDigest identifies r's project facts (Go module paths, tsconfig
// path aliases, include directories, ...): two results with the same
// digest resolve imports alike. Results of one chain of updates share
// their Project while it does not change.
func (r *Result) ProjectDigest() string {
	b, _ := json.Marshal(r.Project)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// ResolveStats says how the last resolution of r's graph went: "full",
// or which files an incremental update resolved again (see resolve.Stats).
func (r *Result) ResolveStats() resolve.Stats { return r.resolveStats }

// Syntax trees for incremental reparsing.
//
// Build and Restore give a Result a tree cache (parse.TreeCache) and every
// Result an update makes shares its predecessor's, so one cache serves a
// whole chain of updates: UpdateFiles and Update reparse a file whose tree
// the cache holds incrementally, and leave the new tree there. Build does
// not fill it (a tree per file would hold the whole workspace in C
// memory): a file's first edit is a full parse, its later edits reuse the
// tree. The cache is bounded (parse.DefaultTreeCacheSize trees), so no one
// has to close it; when every Result of a chain is garbage, go-tree-sitter's
// finalizers free the trees. ReleaseTrees frees them at once.

func newTrees() *parse.TreeCache { return parse.NewTreeCache(parse.DefaultTreeCacheSize) }

// WarmTree parses the indexed file rel (relative to the root, slash
// separated) as it is on disk into the tree cache, so that the update
// after its next edit reparses it incrementally: a daemon calls it when an
// edit is announced. It does nothing for a file that is not indexed, not
// readable as a regular text file within the size limit, or already
// cached; it fails only when the file cannot be parsed at all.
func (r *Result) WarmTree(rel string) error {
	trees := r.trees // nil for a Result made by hand: files are parsed from scratch
	if trees == nil {
		return nil
	}
	i := sort.Search(len(r.Files), func(i int) bool { return r.Files[i].Path >= rel })
	if i == len(r.Files) || r.Files[i].Path != rel {
		return nil
	}
	lang := r.Files[i].Lang
	if trees.Has(rel, lang) {
		return nil
	}
	src, _, err := readSource(filepath.Join(r.Root, filepath.FromSlash(rel)), r.cfg.MaxFileSize)
	if err != nil {
		return nil
	}
	reg, err := parse.Default()
	if err != nil {
		return fmt.Errorf("warm %s: %w", rel, err)
	}
	if err := reg.Prepare(lang); err != nil {
		return fmt.Errorf("warm %s: %w", rel, err)
	}
	p := reg.NewParser()
	defer p.Close()
	if err := p.Warm(trees, rel, lang, src); err != nil {
		return fmt.Errorf("warm %s: %w", rel, err)
	}
	return nil
}

// TreeStats says how the parses of r's update chain used the tree cache.
func (r *Result) TreeStats() parse.TreeCacheStats {
	if r.trees == nil {
		return parse.TreeCacheStats{}
	}
	return r.trees.Stats()
}

// ReleaseTrees frees the syntax trees kept for r's update chain (shared
// with every Result before and after r in it). Updates still work after
// it, parsing from scratch.
func (r *Result) ReleaseTrees() {
	if r.trees != nil {
		r.trees.Close()
	}
}
