package search

import (
	"fmt"
	"sync/atomic"

	"github.com/ccd-dev/ccd/core/search/dsl"
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
