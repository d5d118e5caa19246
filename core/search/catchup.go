package search

import (
	"bytes"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccd-dev/ccd/core/search/dsl"
	"github.com/ccd-dev/ccd/core/search/terms"
)

// Catch-up budgets: how long a query may grep the pending files, and how
// long it may spend on grepping and indexing what it found together.
// What does not fit is indexed next in the background, and the answer
// says files are pending.
const (
	CatchUpGrepBudget  = 150 * time.Millisecond
	CatchUpTotalBudget = 400 * time.Millisecond
)

// catchUp indexes the pending files a query needs before it runs: files
// whose paths the query names and files that contain its words, those
// with the most of the words first, within the catch-up budgets. It
// returns how many files remain pending and how long it took.
func (ix *Index) catchUp(n needs) (int, time.Duration) {
	pend := ix.fill.snapshot()
	if len(pend) == 0 {
		return 0, 0
	}
	t0 := time.Now()
	ix.fill.urgent.Add(1)
	defer ix.fill.urgent.Add(-1)
	// Grep the pending files in parallel (one goroutine per CPU).
	type hit struct {
		path  string
		words int // how many of the query's words it holds; named files first
	}
	var (
		hits []hit
		mu   sync.Mutex
		wg   sync.WaitGroup
		next atomic.Int64
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pend) || i%64 == 0 && time.Since(t0) > CatchUpGrepBudget {
					return
				}
				p := pend[i]
				if !n.pathOK(p) {
					continue
				}
				count := 0
				if n.wantsPath(p) {
					count = len(n.words) + 1
				} else if len(n.words) > 0 {
					content, err := ix.opts.Read(p)
					if err != nil {
						continue
					}
					buf = lowerASCII(buf, content)
					for _, w := range n.words {
						if bytes.Contains(buf, w) {
							count++
						}
					}
				}
				if count > 0 {
					mu.Lock()
					hits = append(hits, hit{p, count})
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].words != hits[j].words {
			return hits[i].words > hits[j].words
		}
		return hits[i].path < hits[j].path
	})
	var later []string
	for i, h := range hits {
		if i >= CatchUpLimit || time.Since(t0) > CatchUpTotalBudget {
			later = append(later, h.path)
			continue
		}
		if ix.fill.isPending(h.path) {
			ix.indexPending(h.path)
		}
	}
	ix.Prioritise(later...)
	return ix.Pending(), time.Since(t0)
}

// lowerASCII writes b with ASCII letters lowered into dst (reused when
// large enough).
func lowerASCII(dst, b []byte) []byte {
	if cap(dst) < len(b) {
		dst = make([]byte, len(b))
	}
	dst = dst[:len(b)]
	for i, c := range b {
		dst[i] = lowerTable[c]
	}
	return dst
}

var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// needs is what a query needs indexed before it runs: files it names and
// words whose files matter, within an optional path restriction.
type needs struct {
	words    [][]byte // lowercased
	paths    map[string]bool
	patterns []string // (file "p") arguments
	restrict *globMatcher
}

func (n needs) pathOK(p string) bool { return n.restrict == nil || n.restrict.match(p) }

// wantsPath reports whether the query names p itself.
func (n needs) wantsPath(p string) bool {
	if n.paths[p] {
		return true
	}
	for _, f := range n.patterns {
		if p == f || strings.HasSuffix(p, "/"+f) || path.Base(p) == f {
			return true
		}
		if g, err := compileGlob(f); err == nil && strings.ContainsAny(f, "*?[{") && g.match(p) {
			return true
		}
	}
	return false
}

// needsOf collects what e needs (see catchUp).
func (ix *Index) needsOf(e *dsl.Expr, refs RefSource) needs {
	n := needs{paths: map[string]bool{}}
	if ix.Pending() == 0 {
		return n
	}
	top := e
	for top.Op == dsl.InFile || top.Op == dsl.Limit {
		if top.Op == dsl.InFile && n.restrict == nil && len(top.Strs) == 1 {
			if g, err := compileGlob(top.Strs[0]); err == nil {
				n.restrict = g
			}
		}
		if len(top.Subs) != 1 {
			break
		}
		top = top.Subs[0]
	}
	seen := map[string]bool{}
	word := func(w string) {
		w = strings.ToLower(strings.TrimRight(w, "*"))
		if len(w) >= terms.MinLen && !seen[w] {
			seen[w] = true
			n.words = append(n.words, []byte(w))
		}
	}
	var walk func(x *dsl.Expr)
	walk = func(x *dsl.Expr) {
		switch x.Op {
		case dsl.Grep, dsl.Section:
			fields := strings.Fields(x.Strs[0])
			content := fields[:0:0]
			for _, f := range fields {
				if !stopWords[strings.ToLower(f)] {
					content = append(content, f)
				}
			}
			if len(content) > 0 {
				fields = content // a question's function words point nowhere
			}
			for _, f := range fields {
				for _, w := range terms.Words(f) {
					word(w)
				}
				if strings.HasSuffix(f, "*") {
					word(f)
				}
			}
		case dsl.Code, dsl.Definition, dsl.Children:
			_, q := splitSymbol(x.Strs[0])
			word(lastSegment(q))
		case dsl.ChildrenNamed:
			_, q := splitSymbol(x.Strs[0])
			word(lastSegment(q))
			word(x.Strs[1])
		case dsl.References:
			_, q := splitSymbol(x.Strs[0])
			word(lastSegment(q))
			if refs != nil {
				for _, r := range refs.References(x.Strs[0]) {
					n.paths[r.Path] = true
				}
			}
		case dsl.File:
			n.patterns = append(n.patterns, strings.TrimPrefix(strings.TrimSpace(x.Strs[0]), "./"))
		}
		for _, s := range x.Subs {
			walk(s)
		}
	}
	walk(top)
	return n
}
