package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/parse"
	"github.com/ccd-dev/ccd/core/resolve"
)

// UpdateStats says what an update did.
type UpdateStats struct {
	Reparsed int // files parsed again (new or changed content)
	Reused   int // files whose facts were kept
	Removed  int // files gone from the index
	Took     time.Duration
}

func (s UpdateStats) String() string {
	return fmt.Sprintf("%d reparsed, %d reused, %d removed in %s", s.Reparsed, s.Reused, s.Removed, s.Took.Round(time.Microsecond))
}

// Update returns the index of the workspace as it is now on disk, reusing
// what r already knows: the tree is walked again with the same rules as
// Build (so ignore files, new directories, deletions and renames are seen
// exactly as a clean build would), files reported as changed (hint, paths
// relative to the root) or whose size or modification time moved are read,
// and only those whose content hash differs are parsed again. The changed
// files and the files whose resolution depends on them are then resolved
// again (see resolve.State; everything, when that is about as cheap), and
// the result is the graph a clean Build would produce. r itself is not
// modified: readers may keep using it; its resolver state moves to the new
// Result, so updating r again resolves everything.
func (r *Result) Update(hint []string) (*Result, UpdateStats, error) {
	t0 := time.Now()
	var st UpdateStats
	reg, err := parse.Default()
	if err != nil {
		return nil, st, err
	}
	if fi, err := os.Stat(r.Root); err != nil || !fi.IsDir() {
		return nil, st, fmt.Errorf("update %s: the workspace root is gone", r.Root)
	}
	d := discover(r.Root, r.cfg, reg)
	hinted := make(map[string]bool, len(hint))
	for _, h := range hint {
		hinted[h] = true
	}
	old := make(map[string]*facts.File, len(r.Files))
	for _, f := range r.Files {
		old[f.Path] = f
	}
	nr := &Result{Root: r.Root, cfg: r.cfg, Project: d.project(r.cfg), stamps: map[string]stamp{}, trees: r.trees,
		dirs: d.dirs, text: d.text}
	nr.Summary.Files, nr.Summary.TooLarge, nr.Summary.Unreadable = len(d.files), d.tooLarge, d.unreadable

	var files []*facts.File
	var toParse []candidate
	for _, c := range d.files {
		if c.abs == "" {
			continue // too large or unreadable: counted by discovery
		}
		nr.stamps[c.rel] = stamp{c.size, c.mtime}
		f := old[c.rel]
		if f != nil && !hinted[c.rel] && r.stamps[c.rel] == (stamp{c.size, c.mtime}) {
			files = append(files, f)
			st.Reused++
			continue
		}
		toParse = append(toParse, c)
	}
	// Read what may have changed; a file whose content hash is unchanged
	// keeps its facts (a touch, or a save without edits).
	var changed []candidate
	for _, c := range toParse {
		f := old[c.rel]
		if f == nil {
			changed = append(changed, c)
			continue
		}
		src, err := os.ReadFile(c.abs)
		if err != nil || isBinary(src) || parse.HashContent(src) != f.Hash {
			changed = append(changed, c)
			continue
		}
		files = append(files, f)
		st.Reused++
	}
	// Compile only the queries of languages that have something to parse.
	langs := map[string]bool{}
	for _, c := range changed {
		langs[c.lang] = true
	}
	var need []string
	for l := range langs {
		need = append(need, l)
	}
	if err := reg.Prepare(need...); err != nil {
		return nil, st, fmt.Errorf("update %s: %w", r.Root, err)
	}
	nr.sources = &sources{}
	parsed, sum := parseAllWith(reg, changed, r.cfg, nil, nr.trees, nr.sources)
	files = append(files, parsed...)
	st.Reparsed = len(parsed)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	present := make(map[string]bool, len(files))
	for _, f := range files {
		present[f.Path] = true
	}
	for p := range old {
		if !present[p] {
			st.Removed++
		}
	}

	nr.Files = files
	nr.Summary.Binary = sum.Binary
	nr.Summary.Unreadable += sum.Unreadable
	var removed []string
	for p := range old {
		if !present[p] {
			removed = append(removed, p)
		}
	}
	nr.finish(r, t0, parsed, removed)
	st.Took = time.Since(t0)
	return nr, st, nil
}

// finish completes an updated result whose Files, Project and Summary
// counts of skipped files are set: it recounts languages and syntax errors
// and brings the graph up to date: prev's when the inputs are identical (a
// touch, a save without edits, a restart with no changes), else prev's
// graph with the changed files (changed: new or edited; removed: gone)
// resolved again by prev's resolver state, else a full resolution.
func (nr *Result) finish(prev *Result, t0 time.Time, changed []*facts.File, removed []string) {
	nr.Summary.Parsed = len(nr.Files)
	nr.Summary.SyntaxErrors, nr.Summary.Languages = 0, map[string]int{}
	for _, f := range nr.Files {
		nr.Summary.Languages[f.Lang]++
		if f.SyntaxErrors > 0 {
			nr.Summary.SyntaxErrors++
		}
	}
	nr.Summary.ParseTime = time.Since(t0)
	t1 := time.Now()
	nr.fp = newFingerprint(nr.Files, nr.Project)
	nr.state = &stateBox{}
	// Changed files (their content hash differs, or they are new) and
	// removed ones always change the fingerprint: it is computed only when
	// nothing says whether the inputs changed (a warm start, a project
	// file edit).
	edited := len(changed) > 0 || len(removed) > 0
	unchanged := !edited && prev.Project != nil && sameProject(prev.Project, nr.Project)
	switch {
	case prev.Graph != nil && (unchanged || (!edited && prev.Fingerprint() == nr.Fingerprint())):
		nr.Graph = prev.Graph
		nr.state = prev.state.handOver(prev, nr.Project)
		nr.delta = delta{prev: prev.Graph}
	default:
		st := prev.state.take()
		if st == nil && prev.Graph != nil && prev.Project == nil && prev.Fingerprint() == fingerprint(prev.Files, nr.Project) {
			// Restored from disk with the graph of the restored facts:
			// rebuild the resolver's tables and update that graph.
			st = resolve.NewState(prev.Files, nr.Project)
		}
		if st != nil && prev.Graph != nil && sameProject(st.Project(), nr.Project) {
			nr.Graph, nr.resolveStats = st.Update(prev.Graph, changed, removed)
			nr.state.st = st
			if nr.resolveStats.Mode != "full" {
				nr.delta = delta{prev: prev.Graph, files: nr.resolveStats.Spliced}
			}
		} else {
			st, g := resolve.Resolve(nr.Files, nr.Project)
			nr.Graph, nr.state.st = g, st
			nr.resolveStats = resolve.Stats{Mode: "full", Resolved: len(nr.Files)}
		}
	}
	nr.Summary.ResolveTime = time.Since(t1)
}

// Delta reports how r's graph was made from the graph of the result it
// updated: prev spliced over files (their nodes and the edges leaving
// them replaced; no files: the same graph). ok is false when r's graph was
// built afresh (a first index, a full resolve).
func (r *Result) Delta() (prev *graph.Graph, files []string, ok bool) {
	return r.delta.prev, r.delta.files, r.delta.prev != nil
}

// Restore makes a Result from persisted facts and their size/mtime stamps
// without reading the tree; Update then brings it up to date, parsing only
// files that changed. g and fp are a persisted graph and the Fingerprint of
// the inputs it was resolved from (nil and "" when none was saved): when
// the Update finds the same inputs, it reuses g instead of resolving.
func Restore(root string, cfg config.Config, files []*facts.File, stamps map[string][2]int64, g *graph.Graph, fp string) *Result {
	r := &Result{Root: root, cfg: cfg, stamps: make(map[string]stamp, len(stamps)), Graph: g, fp: knownFingerprint(fp), trees: newTrees()}
	r.Files = append(r.Files, files...)
	sort.Slice(r.Files, func(i, j int) bool { return r.Files[i].Path < r.Files[j].Path })
	for p, s := range stamps {
		r.stamps[p] = stamp{s[0], s[1]}
	}
	return r
}

// Stamp returns the size and modification time recorded for a file.
func (r *Result) Stamp(path string) (size, mtime int64) {
	s := r.stamps[path]
	return s.size, s.mtime
}

// Digest identifies what facts depend on: the schemas and the discovery
// configuration. Persisted facts made under another digest are not reused.
func Digest(cfg config.Config) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d|%v|%v|", cfg.MaxFileSize, cfg.SkipDirs, cfg.IncludeDirs)
	h.Write([]byte(parse.SchemaDigest()))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Fingerprint identifies the inputs the graph was resolved from.
func (r *Result) Fingerprint() string {
	if r.fp == nil {
		return ""
	}
	return r.fp.get()
}

// lazyFingerprint computes a fingerprint when first asked: most updates
// never need it.
type lazyFingerprint struct {
	once  sync.Once
	files []*facts.File
	proj  *resolve.Project
	fp    string
}

func newFingerprint(files []*facts.File, proj *resolve.Project) *lazyFingerprint {
	return &lazyFingerprint{files: files, proj: proj}
}

func knownFingerprint(fp string) *lazyFingerprint {
	l := &lazyFingerprint{fp: fp}
	l.once.Do(func() {})
	return l
}

func (l *lazyFingerprint) get() string {
	l.once.Do(func() {
		l.fp = fingerprint(l.files, l.proj)
		l.files, l.proj = nil, nil
	})
	return l.fp
}

// fingerprint hashes what resolution reads: every file's path and content
// hash, and the project facts; and the resolver's version.
func fingerprint(files []*facts.File, proj *resolve.Project) string {
	h := sha256.New()
	// A graph resolved by another resolver is not the one this would make.
	fmt.Fprintf(h, "resolver %d\x00", resolve.Version)
	for _, f := range files {
		io.WriteString(h, f.Path)
		h.Write([]byte{0})
		io.WriteString(h, f.Hash)
		h.Write([]byte{0})
	}
	b, _ := json.Marshal(proj)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// UpdateFiles is Update for the commonest change, edits to files already in
// the index: only those files are read, and the tree is not walked again.
// It reports ok=false, doing nothing, when a path is not an indexed file
// that is still a regular, text file within the size limit; the caller
// then runs Update, which handles every case.
func (r *Result) UpdateFiles(paths []string) (nr *Result, st UpdateStats, ok bool, err error) {
	if len(paths) == 0 || r.Project == nil {
		// Nothing reported, or restored without project facts: only a walk
		// can tell.
		return nil, st, false, nil
	}
	t0 := time.Now()
	reg, err := parse.Default()
	if err != nil {
		return nil, st, false, err
	}
	files := append([]*facts.File(nil), r.Files...)
	stamps := make(map[string]stamp, len(r.stamps))
	for k, v := range r.stamps {
		stamps[k] = v
	}
	p := reg.NewParser()
	defer p.Close()
	trees := r.trees
	kept := &sources{}
	var reparsed []*facts.File
	for _, rel := range paths {
		// Files are sorted by path: no map of the whole tree per edit.
		i := sort.Search(len(files), func(i int) bool { return files[i].Path >= rel })
		if i == len(files) || files[i].Path != rel {
			return nil, st, false, nil
		}
		src, info, err := readSource(filepath.Join(r.Root, filepath.FromSlash(rel)), r.cfg.MaxFileSize)
		if err != nil {
			return nil, st, false, nil
		}
		stamps[rel] = stamp{info.Size(), info.ModTime().UnixNano()}
		if parse.HashContent(src) == files[i].Hash {
			continue
		}
		lang := files[i].Lang
		if err := reg.Prepare(lang); err != nil {
			return nil, st, false, err
		}
		f, err := p.ParseWith(trees, rel, lang, src)
		if err != nil {
			return nil, st, false, nil
		}
		files[i] = f
		kept.add(rel, src)
		reparsed = append(reparsed, f)
		st.Reparsed++
	}
	st.Reused = len(files) - st.Reparsed
	nr = &Result{Root: r.Root, cfg: r.cfg, Project: r.Project, Files: files, stamps: stamps, Summary: r.Summary, trees: trees,
		dirs: r.dirs, text: r.text, sources: kept}
	nr.finish(r, t0, reparsed, nil)
	st.Took = time.Since(t0)
	return nr, st, true, nil
}

// keptSourcesMax bounds the content an update keeps of the files it
// parsed (Source): an edit's few files, not a branch switch's thousands.
const keptSourcesMax = 4 << 20

// sources is the content of the files an update parsed, up to
// keptSourcesMax bytes in all.
type sources struct {
	m    map[string][]byte
	size int
}

// add keeps src as path's content, unless the bound is reached.
func (s *sources) add(path string, src []byte) {
	if s == nil || src == nil || s.size+len(src) > keptSourcesMax {
		return
	}
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[path] = src
	s.size += len(src)
}

// Source returns the content of path as the update that made r read and
// parsed it (the content r's facts of path were made from), so that
// whoever follows the update (a retrieval index) need not read the file
// again; ok is false when that update did not parse path or did not keep
// its content (a first index keeps none; an update keeps at most a few MB).
// The bytes must not be modified.
func (r *Result) Source(path string) (content []byte, ok bool) {
	if r.sources == nil {
		return nil, false
	}
	content, ok = r.sources.m[path]
	return content, ok
}

// File returns the facts of the file at path (relative, slash-separated),
// nil when r has no such file. Files are sorted by path: no map is built.
func (r *Result) File(path string) *facts.File {
	i := sort.Search(len(r.Files), func(i int) bool { return r.Files[i].Path >= path })
	if i < len(r.Files) && r.Files[i].Path == path {
		return r.Files[i]
	}
	return nil
}
