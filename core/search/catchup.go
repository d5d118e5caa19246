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

// catchUp indexes the pending files a query needs before it runs: files
// whose paths the query names and files that contain one of its words. It
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
	var (
		hit  []string
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
				if i >= len(pend) {
					return
				}
				p := pend[i]
				if !n.pathOK(p) {
					continue
				}
				ok := n.wantsPath(p)
				if !ok && len(n.words) > 0 {
					content, err := ix.opts.Read(p)
					if err != nil {
						continue
					}
					buf = lowerASCII(buf, content)
					for _, w := range n.words {
						if bytes.Contains(buf, w) {
							ok = true
							break
						}
					}
				}
				if ok {
					mu.Lock()
					hit = append(hit, p)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	sort.Strings(hit)
	if len(hit) > CatchUpLimit {
		ix.Prioritise(hit[CatchUpLimit:]...)
		hit = hit[:CatchUpLimit]
	}
	for _, p := range hit {
		if ix.fill.isPending(p) {
			ix.indexPending(p)
		}
	}
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
			for _, f := range strings.Fields(x.Strs[0]) {
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
