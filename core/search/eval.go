package search

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/ccd-dev/ccd/core/search/dsl"
	"github.com/ccd-dev/ccd/core/search/terms"
	"github.com/ccd-dev/ccd/core/search/tokcount"
)

// eval evaluates one expression. The caller holds the read lock.
func (ix *Index) eval(e *dsl.Expr, refs RefSource, depth int) (*hits, error) {
	if depth > dsl.MaxDepth {
		return nil, &Error{Code: CodeQueryParse, Message: "query nests too deeply"}
	}
	arg := func(i int) string {
		if i < len(e.Strs) {
			return e.Strs[i]
		}
		return ""
	}
	switch e.Op {
	case dsl.Grep:
		h, partial := ix.textHits(arg(0), allFields, nil)
		if partial {
			h.note = fmt.Sprintf("no handle contains every word of %q; showing handles with most of them", arg(0))
		}
		return h, nil
	case dsl.Code:
		return ix.symbols(arg(0)), nil
	case dsl.Definition:
		return ix.definitions(arg(0)), nil
	case dsl.References:
		return ix.references(arg(0), refs), nil
	case dsl.Section:
		return ix.sections(arg(0)), nil
	case dsl.File:
		return ix.fileHits(arg(0))
	case dsl.Children:
		return ix.children(arg(0)), nil
	case dsl.ChildrenNamed:
		return ix.childrenNamed(arg(0), arg(1)), nil
	case dsl.InFile:
		g, err := compileGlob(arg(0))
		if err != nil {
			return nil, err
		}
		if len(e.Subs) != 1 {
			return nil, &Error{Code: CodeQueryParse, Message: "in-file takes a glob and one query"}
		}
		h, err := ix.eval(e.Subs[0], refs, depth+1)
		if err != nil {
			return nil, err
		}
		for n := range h.score {
			if !g.match(ix.docs[n].file.path) {
				delete(h.score, n)
			}
		}
		h.total = 0
		refsOut := h.refs[:0]
		for _, r := range h.refs {
			if g.match(r.FilePath) {
				refsOut = append(refsOut, r)
			}
		}
		h.refs = refsOut
		return h, nil
	case dsl.Union, dsl.Intersect:
		var out *hits
		for i, s := range e.Subs {
			h, err := ix.eval(s, refs, depth+1)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				out = h
				out.total = 0
				continue
			}
			out.note = joinNote(out.note, h.note)
			out.refs = append(out.refs, h.refs...)
			if e.Op == dsl.Union {
				for n, sc := range h.score {
					out.score[n] += sc
				}
				continue
			}
			for n := range out.score {
				if sc, ok := h.score[n]; ok {
					out.score[n] += sc
				} else {
					delete(out.score, n)
				}
			}
		}
		if out == nil {
			return newHits(), nil
		}
		out.refs = dedupeRefs(out.refs)
		if e.Op == dsl.Intersect {
			out.refs = ix.refsIn(out)
		}
		return out, nil
	case dsl.Limit:
		if len(e.Subs) != 1 {
			return nil, &Error{Code: CodeQueryParse, Message: "limit takes a number and one query"}
		}
		h, err := ix.eval(e.Subs[0], refs, depth+1)
		if err != nil {
			return nil, err
		}
		total := h.count()
		if len(h.score) > e.N {
			keep := make(map[uint32]float64, e.N)
			for _, x := range ix.rank(h, e.N) {
				keep[x.doc] = x.score
			}
			h.score = keep
			h.refs = ix.refsIn(h)
		}
		h.total = total
		return h, nil
	}
	return nil, &Error{Code: CodeQueryParse, Message: fmt.Sprintf("unknown operator %q", e.Op)}
}

// refsIn keeps the references whose source handle is among h's docs.
func (ix *Index) refsIn(h *hits) []RefHandle {
	out := h.refs[:0]
	for _, r := range h.refs {
		if n, ok := ix.byID[r.SourceHandle]; ok {
			if _, in := h.score[n]; in {
				out = append(out, r)
			}
		}
	}
	return out
}

func dedupeRefs(rs []RefHandle) []RefHandle {
	seen := map[string]bool{}
	out := rs[:0]
	for _, r := range rs {
		k := fmt.Sprintf("%s\x00%d\x00%s\x00%s", r.FilePath, r.LineRange[0], r.RefType, r.Name)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// ranked is one doc with its score.
type ranked struct {
	doc   uint32
	score float64
}

// typeOrder breaks score ties: definitions, then sections, then the rest.
var typeOrder = [...]int{ntFunction: 0, ntMethod: 0, ntClass: 0, ntStruct: 0, ntSection: 1, ntCodeBlock: 2, ntParagraph: 3, ntChunk: 4, ntFile: 5}

// better orders ranked docs: score, then node type, path and line.
func (ix *Index) better(a, b ranked) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	da, db := &ix.docs[a.doc], &ix.docs[b.doc]
	if typeOrder[da.typ] != typeOrder[db.typ] {
		return typeOrder[da.typ] < typeOrder[db.typ]
	}
	if da.file.path != db.file.path {
		return da.file.path < db.file.path
	}
	return da.lineA < db.lineA
}

// rank returns h's best k docs (all when k <= 0), best first. A large
// result is cut with a bounded heap instead of a full sort.
func (ix *Index) rank(h *hits, k int) []ranked {
	if k <= 0 || k >= len(h.score) {
		out := make([]ranked, 0, len(h.score))
		for n, s := range h.score {
			out = append(out, ranked{n, s})
		}
		sort.Slice(out, func(i, j int) bool { return ix.better(out[i], out[j]) })
		return out
	}
	// heap[0] is the worst of the best k seen so far.
	heap := make([]ranked, 0, k)
	worse := func(i, j int) bool { return ix.better(heap[j], heap[i]) }
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(heap) && worse(l, m) {
				m = l
			}
			if r := l + 1; r < len(heap) && worse(r, m) {
				m = r
			}
			if m == i {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for n, s := range h.score {
		r := ranked{n, s}
		if len(heap) < k {
			heap = append(heap, r)
			for i := len(heap) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(i, p) {
					break
				}
				heap[i], heap[p] = heap[p], heap[i]
				i = p
			}
			continue
		}
		if ix.better(r, heap[0]) {
			heap[0] = r
			down(0)
		}
	}
	sort.Slice(heap, func(i, j int) bool { return ix.better(heap[i], heap[j]) })
	return heap
}

// handle renders doc n. The caller holds the read lock.
func (ix *Index) handle(n uint32, fc *fileCache) Handle {
	d := &ix.docs[n]
	h := Handle{ID: d.id, FilePath: d.file.path, NodeType: d.typ.String(), Span: Span{d.start, d.end},
		LineRange: [2]int{d.lineA, d.lineB}, Preview: d.preview, TokenCount: ix.tokens(d, fc)}
	if d.typ.isDef() || d.typ == ntSection {
		h.Symbol = d.key
	}
	return h
}

// tokens returns a doc's token count, computing it on first use when it
// was not counted at indexing (then it is cached).
func (ix *Index) tokens(d *doc, fc *fileCache) int {
	if t := atomic.LoadInt32(&d.tokens); t >= 0 {
		return int(t)
	}
	fr := fc.get(d.file)
	if fr.content == nil || d.end > len(fr.content) {
		return tokcount.Estimate(d.end - d.start)
	}
	t := tokcount.Count(fr.content[d.start:d.end])
	atomic.StoreInt32(&d.tokens, int32(t))
	return t
}

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
