// Package index builds the graph of a workspace: it discovers source files
// (honouring .gitignore files and the skip list, skipping binary, huge and
// unreadable files, never following symlinks), parses them in parallel with
// one parser per worker, reads project files (go.mod, tsconfig.json,
// package.json, Cargo.toml) and resolves everything into a graph.
package index

import (
	"bytes"
	"errors"
	"fmt"
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

// Summary counts what an index run saw.
type Summary struct {
	Files        int // source files found (known language)
	Parsed       int
	SyntaxErrors int // parsed files with at least one syntax error
	Binary       int
	TooLarge     int
	Unreadable   int
	Languages    map[string]int // parsed files per language
	ParseTime    time.Duration
	ResolveTime  time.Duration
}

// FileError is a parsed file with syntax errors: where the first one is,
// and how many there are.
type FileError struct {
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Errors int    `json:"errors"`
}

// String is "path:line (N syntax errors)".
func (e FileError) String() string {
	at := e.Path
	if e.Line > 0 {
		at = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Errors == 1 {
		return at + " (1 syntax error)"
	}
	return fmt.Sprintf("%s (%d syntax errors)", at, e.Errors)
}

// SyntaxErrorFiles lists the parsed files with syntax errors, by path.
// Every definition and call the parser recovered from them is in the
// graph; the rest of each file is not.
func (r *Result) SyntaxErrorFiles() []FileError {
	var out []FileError
	for _, f := range r.Files {
		if f.SyntaxErrors > 0 {
			out = append(out, FileError{Path: f.Path, Line: f.ErrorLine, Errors: f.SyntaxErrors})
		}
	}
	return out
}

// Skipped is the number of source files not parsed.
func (s Summary) Skipped() int { return s.Binary + s.TooLarge + s.Unreadable }

func (s Summary) String() string {
	return fmt.Sprintf("%d files: %d parsed, %d with syntax errors, %d skipped (%d binary, %d too large, %d unreadable)",
		s.Files, s.Parsed, s.SyntaxErrors, s.Skipped(), s.Binary, s.TooLarge, s.Unreadable)
}

// Result is an indexed workspace.
type Result struct {
	Root    string
	Files   []*facts.File
	Project *resolve.Project
	Graph   *graph.Graph
	Summary Summary

	cfg    config.Config
	stamps map[string]stamp // size and mtime of each parsed file, to skip unchanged ones
	fp     *lazyFingerprint // of the inputs Graph was resolved from
	// state is the resolver kept for the next update (see state.go).
	state        *stateBox
	resolveStats resolve.Stats
	// trees keeps the syntax trees of recently edited files for
	// incremental reparsing; one cache is shared along a chain of updates
	// (see state.go).
	trees *parse.TreeCache
	// delta is how Graph was made from the previous result's (see Delta).
	delta delta
	// dirs and text are what the walk that made the result found besides
	// source files (see discover.go).
	dirs, text []string
	// sources is the content of the files the update that made the
	// result parsed (see Source).
	sources *sources
}

// delta says that a graph is prev spliced over files.
type delta struct {
	prev  *graph.Graph
	files []string
}

// stamp is what a walk learns about a file without reading it.
type stamp struct {
	size  int64
	mtime int64
}

// candidate is a file found by discovery.
type candidate struct {
	rel   string
	abs   string
	lang  string
	size  int64
	mtime int64
}

// Build indexes the workspace at root.
func Build(root string, cfg config.Config) (*Result, error) {
	return BuildWith(root, Options{Config: cfg})
}

// BuildWith indexes the workspace at root, reporting progress.
func BuildWith(root string, opt Options) (*Result, error) {
	cfg := opt.Config
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("index %s: not a directory", root)
	}
	reg, err := parse.Default()
	if err != nil {
		return nil, fmt.Errorf("index %s: schemas: %w", root, err)
	}
	opt.Progress.set(PhaseDiscover, 0)
	d := discover(abs, cfg, reg)
	if opt.Progress.Canceled() {
		return nil, fmt.Errorf("index %s: %w", root, ErrCanceled)
	}
	if err := reg.Prepare(d.languages()...); err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	res := &Result{Root: abs, Project: d.project(cfg), cfg: cfg, stamps: map[string]stamp{}, trees: newTrees(),
		dirs: d.dirs, text: d.text}
	res.Summary.Files = len(d.files)
	res.Summary.TooLarge = d.tooLarge
	res.Summary.Unreadable = d.unreadable

	t0 := time.Now()
	opt.Progress.set(PhaseParse, len(d.files))
	files, sum := parseAll(reg, d.files, cfg, opt.Progress)
	if opt.Progress.Canceled() {
		return nil, fmt.Errorf("index %s: %w", root, ErrCanceled)
	}
	res.Summary.Parsed, res.Summary.SyntaxErrors = sum.Parsed, sum.SyntaxErrors
	res.Summary.Binary, res.Summary.Unreadable = sum.Binary, res.Summary.Unreadable+sum.Unreadable
	res.Summary.Languages = sum.Languages
	res.Summary.ParseTime = time.Since(t0)
	res.Files = files
	for _, c := range d.files {
		res.stamps[c.rel] = stamp{c.size, c.mtime}
	}

	t1 := time.Now()
	opt.Progress.set(PhaseResolve, 0)
	rs, g := resolve.Resolve(files, res.Project)
	res.Graph, res.state = g, &stateBox{st: rs}
	res.resolveStats = resolve.Stats{Mode: "full", Resolved: len(files)}
	res.fp = newFingerprint(files, res.Project)
	res.Summary.ResolveTime = time.Since(t1)
	opt.Progress.set(PhaseDone, 0)
	return res, nil
}

type parseSummary struct {
	Parsed, SyntaxErrors, Binary, Unreadable int
	Languages                                map[string]int
}

// parseAll parses candidates with cfg.Workers parsers. Files are returned
// sorted by path.
func parseAll(reg *parse.Registry, cands []candidate, cfg config.Config, prog *Progress) ([]*facts.File, parseSummary) {
	return parseAllWith(reg, cands, cfg, prog, nil, nil)
}

// parseAllWith is parseAll reusing and keeping syntax trees in trees (when
// not nil) for incremental reparsing, and keeping the content of the files
// parsed in keep (when not nil).
func parseAllWith(reg *parse.Registry, cands []candidate, cfg config.Config, prog *Progress, trees *parse.TreeCache, keep *sources) ([]*facts.File, parseSummary) {
	workers := cfg.Workers
	if workers < 1 {
		workers = 1
	}
	out := make([]*facts.File, len(cands))
	var srcs [][]byte
	if keep != nil {
		srcs = make([][]byte, len(cands))
	}
	status := make([]uint8, len(cands)) // 0 skipped earlier, 1 parsed, 2 binary, 3 unreadable
	jobs := make(chan int, 256)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := reg.NewParser()
			defer p.Close()
			for i := range jobs {
				prog.inc()
				if prog.Canceled() {
					status[i] = 3
					continue // drain the jobs, read nothing more
				}
				c := cands[i]
				src, err := os.ReadFile(c.abs)
				if err != nil {
					status[i] = 3
					continue
				}
				if isBinary(src) {
					status[i] = 2
					continue
				}
				f, err := p.ParseWith(trees, c.rel, c.lang, src)
				if err != nil {
					status[i] = 3
					continue
				}
				out[i], status[i] = f, 1
				if srcs != nil {
					srcs[i] = src
				}
			}
		}()
	}
	for i, c := range cands {
		if c.abs != "" {
			jobs <- i
		}
	}
	close(jobs)
	wg.Wait()
	sum := parseSummary{Languages: map[string]int{}}
	var files []*facts.File
	for i, f := range out {
		switch status[i] {
		case 1:
			if keep != nil {
				keep.add(f.Path, srcs[i])
			}
			sum.Parsed++
			sum.Languages[f.Lang]++
			if f.SyntaxErrors > 0 {
				sum.SyntaxErrors++
			}
			files = append(files, f)
		case 2:
			sum.Binary++
		case 3:
			sum.Unreadable++
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, sum
}

// isBinary reports whether content looks binary: a NUL byte in its first
// 8000 bytes, as git decides.
func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// ParseFile parses one file of a workspace (for incremental updates and
// tests). rel is the path relative to root.
func ParseFile(reg *parse.Registry, p *parse.Parser, root, rel string, cfg config.Config) (*facts.File, error) {
	lang := config.LanguageFor(rel)
	if lang == nil || !reg.Supports(lang.Name) {
		return nil, fmt.Errorf("parse %s: no language for this file", rel)
	}
	src, _, err := readSource(filepath.Join(root, filepath.FromSlash(rel)), cfg.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", rel, err)
	}
	return p.Parse(rel, lang.Name, src)
}

// readSource reads a file that may be parsed: a regular file (symlinks,
// FIFOs and devices are never read: no escapes, no hangs) within the size
// limit, holding text (ErrNotRegular, ErrTooLarge, ErrBinary otherwise).
func readSource(abs string, maxSize int64) ([]byte, os.FileInfo, error) {
	info, err := os.Lstat(abs)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, ErrNotRegular
	}
	if info.Size() > maxSize {
		return nil, nil, ErrTooLarge
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, nil, err
	}
	if isBinary(src) {
		return nil, nil, ErrBinary
	}
	return src, info, nil
}

// Errors for files that are not parsed.
var (
	ErrTooLarge   = errors.New("file larger than the size limit")
	ErrBinary     = errors.New("binary file")
	ErrNotRegular = errors.New("not a regular file (symlinks, FIFOs and devices are not read)")
)
