package search

import (
	"errors"
	"io/fs"
	"sort"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ccd-dev/ccd/core/search/tokcount"
)

// Status is the status tool's answer: the fields Canopy's status reported
// (files_indexed to file_discovery), then ccd's own counts.
type Status struct {
	FilesIndexed   int    `json:"files_indexed"`
	TotalTokens    int64  `json:"total_tokens"`
	IndexSizeBytes int64  `json:"index_size_bytes"` // estimated memory of handles and postings
	LastIndexed    string `json:"last_indexed,omitempty"`
	SchemaVersion  int    `json:"schema_version"`
	RepoRoot       string `json:"repo_root"`
	FileDiscovery  string `json:"file_discovery"`
	Handles        int    `json:"handles"`
	Terms          int    `json:"terms"`
	PendingFiles   int    `json:"pending_files"`
	FailedFiles    int    `json:"failed_files,omitempty"`
	BinarySkipped  int64  `json:"binary_skipped,omitempty"`
	LastError      string `json:"last_error,omitempty"`
	Generation     uint64 `json:"generation"`
	Tokenizer      string `json:"tokenizer"`
	// TokensCounted is how many files' token counts in TotalTokens are
	// exact; the others are estimated at four bytes per token until their
	// file handle is shown once (counts are computed lazily).
	TokensCounted int `json:"tokens_counted"`
}

// Status reports what the index holds.
func (ix *Index) Status() Status {
	ix.mu.RLock()
	st := Status{FilesIndexed: len(ix.files), SchemaVersion: SchemaVersion, RepoRoot: ix.opts.Root,
		FileDiscovery: ix.opts.FileDiscovery, Terms: len(ix.dict), Generation: ix.gen.Load(), Tokenizer: "cl100k_base"}
	if st.FileDiscovery == "" {
		st.FileDiscovery = "files supplied by the caller (Update, Fill)"
	}
	if !tokcount.Exact() {
		st.Tokenizer = "estimate (4 bytes per token)"
	}
	size := int64(0)
	for _, f := range ix.files {
		d := &ix.docs[f.docs[0]]
		if t := atomic.LoadInt32(&d.tokens); t >= 0 {
			st.TotalTokens += int64(t)
			st.TokensCounted++
		} else {
			st.TotalTokens += int64(tokcount.Estimate(f.size))
		}
		st.Handles += len(f.docs) - 1
		size += int64(len(f.path)) + int64(len(f.docs)+len(f.terms))*4 + 96
	}
	size += int64(len(ix.docs)) * int64(unsafe.Sizeof(doc{}))
	for i := range ix.docs {
		d := &ix.docs[i]
		size += int64(len(d.id) + len(d.name) + len(d.key) + len(d.parent) + len(d.pqual) + len(d.sig) + len(d.preview))
	}
	for i := range ix.terms {
		size += int64(len(ix.terms[i].text)) + int64(cap(ix.terms[i].post))*8 + 40
	}
	st.IndexSizeBytes = size
	ix.mu.RUnlock()
	if t := ix.last.Load(); t > 0 {
		st.LastIndexed = time.Unix(0, t).UTC().Format(time.RFC3339)
	}
	ix.fill.mu.Lock()
	st.PendingFiles, st.FailedFiles, st.LastError = len(ix.fill.pending), ix.fill.failed, ix.fill.lastErr
	st.BinarySkipped = ix.stats.binary.Load()
	ix.fill.mu.Unlock()
	return st
}

// IndexReport is the answer of IndexGlob.
type IndexReport struct {
	Glob           string `json:"glob"`
	Matched        int    `json:"matched"`         // known files matching the glob
	Indexed        int    `json:"indexed"`         // pending files indexed now
	AlreadyIndexed int    `json:"already_indexed"` // matching files that were indexed before
	Pending        int    `json:"pending"`         // files still pending overall
	TookMs         int64  `json:"took_ms"`
}

// IndexGlob indexes now the pending files matching glob (the index tool;
// indexing is automatic otherwise). Files the index was never
// told about are not discovered here: the caller adds them with Fill or
// Update.
func (ix *Index) IndexGlob(glob string) (*IndexReport, error) {
	g, err := compileGlob(glob)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	rep := &IndexReport{Glob: glob}
	for _, p := range ix.fill.snapshot() {
		if g.match(p) {
			rep.Matched++
			if ix.fill.isPending(p) {
				ix.indexPending(p)
				if ix.Has(p) {
					rep.Indexed++
				}
			}
		}
	}
	ix.mu.RLock()
	for p := range ix.files {
		if g.match(p) {
			rep.Matched++
			rep.AlreadyIndexed++
		}
	}
	ix.mu.RUnlock()
	rep.Matched -= rep.Indexed // indexed now: counted in both passes
	rep.AlreadyIndexed -= rep.Indexed
	rep.Pending = ix.Pending()
	rep.TookMs = time.Since(t0).Milliseconds()
	return rep, nil
}

// InvalidateReport is the answer of Invalidate.
type InvalidateReport struct {
	Glob      string   `json:"glob,omitempty"`
	Checked   int      `json:"checked"`
	Reindexed []string `json:"reindexed"`
	Removed   []string `json:"removed"`
	Unchanged int      `json:"unchanged"`
	// Unparsed lists code files that changed but could not be parsed here
	// (no Options.Parse): they were re-indexed as plain chunks.
	Unparsed []string `json:"unparsed,omitempty"`
	TookMs   int64    `json:"took_ms"`
}

// Invalidate re-reads the indexed files matching glob (all when empty) and
// re-indexes those whose content changed; files that no longer exist are
// removed. It needs Options.Read (or Root).
func (ix *Index) Invalidate(glob string) (*InvalidateReport, error) {
	var g *globMatcher
	if glob != "" {
		var err error
		if g, err = compileGlob(glob); err != nil {
			return nil, err
		}
	}
	if ix.opts.Read == nil {
		return nil, &Error{Code: CodeNoReader, Message: "the index cannot read files", Hint: "configure the workspace root"}
	}
	t0 := time.Now()
	type item struct {
		path, lang string
		hash       uint64
	}
	var items []item
	ix.mu.RLock()
	for p, f := range ix.files {
		if g == nil || g.match(p) {
			items = append(items, item{p, f.lang, f.hash})
		}
	}
	ix.mu.RUnlock()
	sort.Slice(items, func(i, j int) bool { return items[i].path < items[j].path })
	rep := &InvalidateReport{Glob: glob, Reindexed: []string{}, Removed: []string{}}
	for _, it := range items {
		rep.Checked++
		b, err := ix.opts.Read(it.path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				ix.Remove(it.path)
				rep.Removed = append(rep.Removed, it.path)
			}
			continue
		}
		if hashBytes(normalize(b)) == it.hash {
			rep.Unchanged++
			continue
		}
		if !ix.reindex(it.path, it.lang, b) {
			// Code without a parser: keep it searchable as chunks.
			if err := ix.Update(it.path, b, it.lang, nil); err != nil {
				rep.Removed = append(rep.Removed, it.path)
				continue
			}
			rep.Unparsed = append(rep.Unparsed, it.path)
		}
		rep.Reindexed = append(rep.Reindexed, it.path)
	}
	rep.TookMs = time.Since(t0).Milliseconds()
	return rep, nil
}
