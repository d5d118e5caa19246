package search

import (
	"bytes"
	"sort"

	"github.com/ccd-dev/ccd/core/facts"
)

// Documentation within code: the text that says what the code is for, in
// its author's words, which are the words a question uses. docSpans finds
// it; prepare counts its words in the doc field besides the body.

// docSpans returns the byte spans of a code file's documentation, sorted
// and merged: the comment lines directly above each definition
// (decorators and attributes left out), each Python definition's
// docstring, a Python module's docstring and the comment directly above a
// Go file's package clause.
func docSpans(content []byte, lang string, defs []facts.Def, li *lineIndex) []Span {
	if len(defs) == 0 && lang == "" {
		return nil
	}
	var out []Span
	for _, d := range defs {
		if d.StartByte < 0 || d.EndByte > len(content) || d.StartByte >= d.EndByte || d.Anonymous() {
			continue
		}
		out = appendCommentLines(out, content, li, d.StartByte, lang)
		if lang == "python" {
			if s, ok := pyDocstring(content, li, li.lineOf(d.StartByte)+1, d.EndByte, true); ok {
				out = append(out, s)
			}
		}
	}
	switch lang {
	case "python":
		if s, ok := pyDocstring(content, li, 1, len(content), false); ok {
			out = append(out, s)
		}
	case "go":
		if at := packageClause(content); at >= 0 {
			out = appendCommentLines(out, content, li, at, lang)
		}
	}
	return mergeSpans(out)
}

// appendCommentLines appends the comment lines directly above the line of
// start (see attachComments), leaving out decorators and attributes.
func appendCommentLines(out []Span, content []byte, li *lineIndex, start int, lang string) []Span {
	first := li.lineOf(attachComments(content, li, start, lang))
	for n := first; n < li.lineOf(start); n++ {
		t := bytes.TrimSpace(li.line(content, n))
		if len(t) == 0 || t[0] == '@' || bytes.HasPrefix(t, []byte("#[")) || bytes.HasPrefix(t, []byte("//go:")) {
			continue
		}
		out = append(out, Span{li.start(n), li.end(n)})
	}
	return out
}

// packageClause returns the offset of the first line that starts with
// "package ", or -1.
func packageClause(content []byte) int {
	for at := 0; at < len(content); {
		if bytes.HasPrefix(content[at:], []byte("package ")) {
			return at
		}
		nl := bytes.IndexByte(content[at:], '\n')
		if nl < 0 {
			break
		}
		at += nl + 1
	}
	return -1
}

// pyDocstring finds a docstring: the string literal that is the first
// statement of a body. For a definition (def true) the body starts after
// the first line, from line from on, that ends with a colon (the header);
// for a module it starts at line from, comment lines skipped. The search
// stops at end.
func pyDocstring(content []byte, li *lineIndex, from, end int, def bool) (Span, bool) {
	n := from
	if def {
		// The header may span lines (a long parameter list).
		for ; n <= li.lines() && li.start(n) < end; n++ {
			if bytes.HasSuffix(bytes.TrimSpace(li.line(content, n-1)), []byte(":")) {
				break
			}
		}
		if n > li.lines() || !bytes.HasSuffix(bytes.TrimSpace(li.line(content, n-1)), []byte(":")) {
			return Span{}, false
		}
	}
	for ; n <= li.lines() && li.start(n) < end; n++ {
		t := bytes.TrimSpace(li.line(content, n))
		if len(t) == 0 || !def && t[0] == '#' {
			continue
		}
		at := li.start(n) + bytes.Index(li.line(content, n), t)
		q := t
		if len(q) > 0 && bytes.IndexByte([]byte("rRuUbB"), q[0]) >= 0 {
			q = q[1:]
		}
		var delim []byte
		switch {
		case bytes.HasPrefix(q, []byte(`"""`)), bytes.HasPrefix(q, []byte(`'''`)):
			delim = q[:3]
		case bytes.HasPrefix(q, []byte(`"`)), bytes.HasPrefix(q, []byte(`'`)):
			delim = q[:1]
		default:
			return Span{}, false
		}
		open := at + (len(t) - len(q)) + len(delim)
		stop := min(end, len(content))
		if len(delim) == 1 {
			stop = min(stop, li.end(n))
		}
		if open > stop {
			return Span{}, false
		}
		c := bytes.Index(content[open:stop], delim)
		if c < 0 {
			return Span{}, false
		}
		return Span{at, open + c + len(delim)}, true
	}
	return Span{}, false
}

// intersect returns the parts of s that lie in spans (sorted, disjoint).
func intersect(s Span, spans []Span) []Span {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > s.Start })
	var out []Span
	for ; i < len(spans) && spans[i].Start < s.End; i++ {
		a, b := max(s.Start, spans[i].Start), min(s.End, spans[i].End)
		if a < b {
			out = append(out, Span{a, b})
		}
	}
	return out
}
