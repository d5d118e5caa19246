package search

import (
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ccd-dev/ccd/core/facts"
)

// SchemaVersion is the version of the handle and id scheme; it changes when
// ids or handle boundaries would change for the same input.
const SchemaVersion = 1

// Options configure an Index. Every field is optional.
type Options struct {
	// Root is the workspace root the index describes (reported by Status;
	// when Read is nil, files are read from under it).
	Root string
	// Read returns the current content of a file by its slash-separated
	// path relative to the root. Used for lazy token counts, reference
	// previews, auto-expansion, background filling and expand. Defaults to
	// reading Root/path from disk when Root is set.
	Read func(path string) ([]byte, error)
	// Parse returns a file's language and definitions for content the index
	// reads on its own (background filling, Invalidate, expanding a handle
	// whose file changed on disk). Without it such code files are indexed as
	// plain text chunks until Update supplies their definitions.
	Parse func(path string, content []byte) (lang string, defs []facts.Def, err error)
	// Workers is the number of background indexing goroutines (default 1,
	// so queries keep a core to themselves).
	Workers int
	// Stat describes a file by its workspace-relative path; queries use it to
	// see cheaply that a result file is unchanged (size and modification
	// time as when its content was last verified). Defaults to os.Stat
	// under Root; without it every check reads and hashes the file.
	Stat func(path string) (fs.FileInfo, error)
	// FileDiscovery describes how the caller finds files (for Status).
	FileDiscovery string
	// EagerTokens counts every handle's tokens at indexing time. By default
	// counts are computed the first time a handle is shown (query, pack,
	// expand) and cached: counting is the most expensive part of indexing
	// (see the package documentation for figures), and agents only ever see
	// a few handles.
	EagerTokens bool
}

// Index is an in-memory retrieval index of handles with identifier-aware
// BM25F ranking. It is safe for concurrent use: queries share a read lock,
// updates prepare everything outside the lock and hold the write lock only
// to swap a file's handles and postings.
type Index struct {
	opts Options

	mu       sync.RWMutex
	files    map[string]*fileEntry
	docs     []doc
	freeDocs []uint32
	byID     map[string]uint32
	byName   map[string][]uint32 // lowercased name → definitions and sections
	byParent map[string][]uint32 // lowercased parent name → members
	dict     map[string]uint32   // term → term number
	byStem   map[string][]uint32 // first two bytes of a term → term numbers, for prefix queries
	// byPathStem maps a light stem to the files whose path names it.
	byPathStem map[string][]*fileEntry
	terms      []termEntry
	freeTerm   []uint32
	nDocs      int            // searchable docs (all but file handles)
	fieldLen   [nFields]int64 // total terms per field over searchable docs
	// fileSlots maps a file's number (fileEntry.num) to it; free numbers
	// are nil and listed in freeFileNums. Numbers index the per-query
	// file accumulators of the file-level ranking (filescore.go).
	fileSlots    []*fileEntry
	freeFileNums []uint32
	fileLenTotal int64         // total of fileEntry.length over indexed files
	tombs        tombstones    // recently removed handles, for expand
	gen          atomic.Uint64 // bumped by every change
	last         atomic.Int64  // unix nanoseconds of the last change
	fill         filler        // background indexing state
	stats        struct{ binary atomic.Int64 }
}

// New returns an empty index that reads nothing on its own.
func New() *Index { return NewWithOptions(Options{}) }

// NewWithOptions returns an empty index with options.
func NewWithOptions(o Options) *Index {
	if o.Read == nil && o.Root != "" {
		root := o.Root
		o.Read = func(p string) ([]byte, error) {
			return os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		}
	}
	if o.Stat == nil && o.Root != "" {
		root := o.Root
		o.Stat = func(p string) (fs.FileInfo, error) {
			return os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		}
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	ix := &Index{
		opts:       o,
		files:      map[string]*fileEntry{},
		byID:       map[string]uint32{},
		byName:     map[string][]uint32{},
		byParent:   map[string][]uint32{},
		dict:       map[string]uint32{},
		byStem:     map[string][]uint32{},
		byPathStem: map[string][]*fileEntry{},
	}
	ix.tombs.init(tombstoneCap)
	ix.fill.init()
	return ix
}

// fileEntry is one indexed file.
type fileEntry struct {
	path    string
	lang    string
	hash    uint64
	size    int
	lines   int
	docs    []uint32 // all of the file's handles, file handle first
	terms   []uint32 // term numbers the file's handles have postings under
	indexed time.Time
	defsSig uint64 // of the language and definitions the handles came from
	// num is the file's slot in Index.fileSlots.
	num uint32
	// length is the number of terms of all its handles, every field.
	length uint32
	// pathStems are the light stems of the path's words and their parts
	// (net/http/cookie_test.go: net, http, cooki, test, go), for text
	// searches that count the path as part of a handle.
	pathStems []string
	// verified is the size and modification time the file had when its
	// content was last seen to match hash (nil: never checked).
	verified atomic.Pointer[stamp]
}

// stamp is what a stat says about a file.
type stamp struct {
	size  int64
	mtime int64
}

// doc is one handle in the index.
type doc struct {
	id      string
	file    *fileEntry // nil for a free slot
	typ     nodeType
	name    string
	key     string
	parent  string
	pqual   string
	sig     string
	start   int
	end     int
	lineA   int
	lineB   int
	preview string
	hash    uint64 // FNV-1a of the content span
	tokens  int32  // cl100k tokens of the span; read and written atomically, -1 until known
	lens    [nFields]uint32
	fnum    uint32 // file.num, beside lens so scoring reads one cache line
}

// cleanPath normalises a workspace-relative path.
func cleanPath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	c := path.Clean(strings.ReplaceAll(p, "\\", "/"))
	if c == "." || strings.HasPrefix(c, "/") || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q must be relative to the workspace root", p)
	}
	return c, nil
}

// Update indexes one file, replacing every handle and posting it had
// before. lang is the language name from the config table ("go", ...) or
// empty; defs are its definitions (nil for files without a parser).
// Markdown files are split into sections, code blocks and paragraphs, code
// files into definitions (plus chunks between them), anything else into
// overlapping line chunks. Binary content (a NUL byte in the first 8 KiB)
// removes the file from the index and is reported as an error.
func (ix *Index) Update(p string, content []byte, lang string, defs []facts.Def) error {
	c, err := cleanPath(p)
	if err != nil {
		return fmt.Errorf("search update: %w", err)
	}
	if isBinary(content) {
		ix.Remove(c)
		ix.stats.binary.Add(1)
		return fmt.Errorf("search update %s: binary content is not indexed", c)
	}
	content = normalize(content)
	sig := defsSignature(lang, defs)
	ix.mu.RLock()
	f := ix.files[c]
	same := f != nil && f.hash == hashBytes(content) && f.defsSig == sig
	ix.mu.RUnlock()
	if same {
		// Nothing changed (a touch, a save without edits): keep the
		// handles, and with them their cached token counts.
		ix.mu.Lock()
		ix.fill.done(c)
		ix.mu.Unlock()
		return nil
	}
	pf := prepare(c, content, lang, defs, ix.opts.EagerTokens)
	pf.defsSig = sig
	ix.mu.Lock()
	ix.commit(pf)
	ix.fill.done(c) // under the lock: a background read of older content must not win
	ix.mu.Unlock()
	return nil
}

// Remove drops a file's handles and postings. Removing a file that is not
// indexed does nothing.
func (ix *Index) Remove(p string) {
	c, err := cleanPath(p)
	if err != nil {
		return
	}
	ix.mu.Lock()
	if f := ix.files[c]; f != nil {
		ix.removeFile(f, nil)
		ix.touch()
	}
	ix.fill.done(c)
	ix.mu.Unlock()
}

// Has reports whether a file is indexed.
func (ix *Index) Has(p string) bool {
	c, err := cleanPath(p)
	if err != nil {
		return false
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.files[c] != nil
}

// Generation counts changes to the index; it grows with every Update or
// Remove that changed something.
func (ix *Index) Generation() uint64 { return ix.gen.Load() }

func (ix *Index) touch() {
	ix.gen.Add(1)
	ix.last.Store(time.Now().UnixNano())
}

// defsSignature hashes what of a file's definitions shapes its handles.
func defsSignature(lang string, defs []facts.Def) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	h.WriteString(lang)
	for i := range defs {
		d := &defs[i]
		fmt.Fprintf(&h, "\x00%s\x00%s\x00%d\x00%d\x00%d\x00%d\x00%s\x00%s", d.Name, d.Qual, d.Kind, d.Parent, d.StartByte, d.EndByte, d.Signature, d.Owner)
	}
	return h.Sum64()
}

// normalize reads content that is not valid UTF-8 as Latin-1, exactly as
// the parser does, so definition offsets computed by the parser match the
// bytes handles are cut from.
func normalize(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

func isBinary(b []byte) bool {
	n := min(len(b), 8<<10)
	for _, c := range b[:n] {
		if c == 0 {
			return true
		}
	}
	return false
}

// File is one file for AddFiles.
type File struct {
	Path    string
	Content []byte
	Lang    string
	Defs    []facts.Def
}

// AddFiles indexes a batch of files, each as Update does. It is safe to call
// from a background goroutine while queries run: every file is committed on
// its own, so queries see the index grow file by file. Files that fail
// (binary content, bad paths) are skipped; the error reports how many and
// the first reason.
func (ix *Index) AddFiles(files []File) error {
	var first error
	failed := 0
	for _, f := range files {
		if err := ix.Update(f.Path, f.Content, f.Lang, f.Defs); err != nil {
			failed++
			if first == nil {
				first = err
			}
		}
	}
	if first != nil {
		return fmt.Errorf("search: %d of %d files not indexed, first: %w", failed, len(files), first)
	}
	return nil
}
