package search

import (
	"bytes"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// extractCode turns a source file's definitions into handles: one per
// function, method, class or struct (with the comment block and decorators
// directly above it), plus chunks for the text between top-level
// definitions (package clauses, imports, constants). Definitions with spans
// outside the content are skipped, never trusted.
func extractCode(content []byte, lang string, defs []facts.Def, li *lineIndex) []piece {
	ok := make([]bool, len(defs))
	spans := make([]defSpan, len(defs))
	for i, d := range defs {
		if d.StartByte < 0 || d.EndByte > len(content) || d.StartByte >= d.EndByte {
			continue
		}
		if d.Anonymous() {
			continue // part of the text of the function that defines it
		}
		ok[i] = true
		spans[i] = defSpan{d.StartByte, d.EndByte, attachComments(content, li, d.StartByte, lang)}
	}
	// Valid definitions by start, so a definition's nested ones follow it.
	var order []int
	for i := range defs {
		if ok[i] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := spans[order[x]], spans[order[y]]
		if a.a != b.a {
			return a.a < b.a
		}
		return a.b > b.b // the enclosing one first
	})
	rank := make([]int, len(defs))
	for r, i := range order {
		rank[i] = r
	}
	var out []piece
	for i, d := range defs {
		if !ok[i] {
			continue
		}
		s := spans[i]
		p := piece{
			typ:       defType(defs, i),
			name:      d.Name,
			key:       d.Qual,
			start:     s.ext,
			end:       s.b,
			previewAt: s.a,
		}
		if p.key == "" {
			p.key = d.Name
		}
		p.sig = p.key
		if d.Signature != "" {
			p.sig += " " + d.Signature
		}
		switch {
		case d.Owner != "":
			p.parent, p.pqual = d.Owner, d.Owner
		case d.Parent >= 0 && d.Parent < len(defs):
			par := d.Parent
			for par >= 0 && par < len(defs) && defs[par].Anonymous() {
				par = defs[par].Parent
			}
			if par >= 0 && par < len(defs) {
				p.parent, p.pqual = defs[par].Name, defs[par].Qual
			}
		}
		p.lineA, p.lineB = li.lineOf(p.start), li.lineOf(p.end-1)
		// The body leaves out nested definitions, which have handles of
		// their own.
		var holes []Span
		for _, j := range order[rank[i]+1:] {
			if spans[j].a >= s.b {
				break
			}
			if spans[j].b <= s.b && (spans[j].a > s.a || spans[j].b < s.b) {
				holes = append(holes, Span{spans[j].ext, spans[j].b})
			}
		}
		if len(holes) > 0 {
			p.own = subtract(Span{p.start, p.end}, holes)
		}
		out = append(out, p)
	}
	// Chunks for what no top-level definition covers.
	var top []Span
	for i := range defs {
		if ok[i] {
			top = append(top, Span{spans[i].ext, spans[i].b})
		}
	}
	out = append(out, gapChunks(content, li, mergeSpans(top), spans2quals(defs, ok, spans))...)
	return out
}

// defSpan is a definition's byte span and the start of its handle (with
// the comments above it).
type defSpan struct{ a, b, ext int }

// spans2quals maps the extended start of each valid definition to its
// qualified name, so a gap can be named after the definition before it.
func spans2quals(defs []facts.Def, ok []bool, spans []defSpan) map[int]string {
	m := map[int]string{}
	for i, d := range defs {
		if ok[i] {
			m[spans[i].b] = d.Qual
		}
	}
	return m
}

// gapChunks chunks the lines outside the covered spans. A gap's chunks are
// keyed by the qualified name of the definition that ends right before it
// ("^" for the head of the file), so editing one definition leaves the ids
// of other gaps alone.
func gapChunks(content []byte, li *lineIndex, covered []Span, endQual map[int]string) []piece {
	var out []piece
	prevKey := "^"
	pos := 0
	emit := func(from, to int) {
		if from >= to {
			return
		}
		a, b := li.lineOf(from), li.lineOf(to-1)
		// A line a definition starts or ends on belongs to the definition.
		if li.start(a) < from {
			a++
		}
		if li.end(b) > to {
			b--
		}
		out = append(out, chunkLines(content, li, a, b, "gap:"+prevKey)...)
	}
	for _, c := range covered {
		emit(pos, c.Start)
		if q, ok := endQual[c.End]; ok {
			prevKey = q
		}
		pos = max(pos, c.End)
	}
	emit(pos, len(content))
	return out
}

// defType decides the node type of defs[i].
func defType(defs []facts.Def, i int) nodeType {
	d := &defs[i]
	if d.Kind == facts.Class {
		if isStruct(d.Signature) {
			return ntStruct
		}
		return ntClass
	}
	if d.Owner != "" || d.Parent >= 0 && d.Parent < len(defs) && defs[d.Parent].Kind == facts.Class {
		return ntMethod
	}
	return ntFunction
}

// isStruct recognises struct declarations by their keyword.
func isStruct(sig string) bool {
	for _, w := range strings.FieldsFunc(sig, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) {
		if w == "struct" {
			return true
		}
	}
	return false
}

// attachComments returns where a definition's handle starts: at the first
// line of the contiguous comment, attribute or decorator lines directly
// above it (no blank line between), else at the start of its own line
// (keywords before the name included), else at the definition itself.
func attachComments(content []byte, li *lineIndex, start int, lang string) int {
	line := li.lineOf(start)
	// Keywords and modifiers before the definition on its line ("type ",
	// "export default ", "pub ") belong to it; another statement does not.
	prefix := content[li.start(line):start]
	if bytes.ContainsAny(prefix, ";{}=") {
		return start
	}
	first := li.start(line)
	for n := line - 1; n >= 1; n-- {
		t := bytes.TrimSpace(li.line(content, n))
		if len(t) == 0 || !isCommentLine(t, lang) {
			break
		}
		first = li.start(n)
	}
	return first
}

func isCommentLine(t []byte, lang string) bool {
	switch {
	case bytes.HasPrefix(t, []byte("//")), bytes.HasPrefix(t, []byte("/*")), bytes.HasPrefix(t, []byte("*")),
		bytes.HasPrefix(t, []byte("--")), bytes.HasPrefix(t, []byte(";")):
		return true
	case bytes.HasPrefix(t, []byte("@")), bytes.HasPrefix(t, []byte("#[")):
		return true // decorators, annotations, Rust attributes
	case t[0] == '#':
		switch lang {
		case "c", "cpp", "objc", "objcpp":
			return false // preprocessor
		}
		return true
	}
	return false
}

// mergeSpans sorts spans and merges overlapping ones.
func mergeSpans(s []Span) []Span {
	sort.Slice(s, func(i, j int) bool { return s[i].Start < s[j].Start })
	var out []Span
	for _, x := range s {
		if n := len(out); n > 0 && x.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, x.End)
			continue
		}
		out = append(out, x)
	}
	return out
}

// subtract returns whole minus holes, as sorted disjoint spans.
func subtract(whole Span, holes []Span) []Span {
	var out []Span
	pos := whole.Start
	for _, h := range mergeSpans(holes) {
		if h.Start > pos {
			out = append(out, Span{pos, min(h.Start, whole.End)})
		}
		pos = max(pos, h.End)
	}
	if pos < whole.End {
		out = append(out, Span{pos, whole.End})
	}
	return out
}
