package search

import (
	"bytes"
	"unicode/utf8"
)

// piece is one handle as extraction produces it, before it is indexed.
type piece struct {
	typ    nodeType
	name   string // short name: a definition's name, a heading's text, a code block's language
	key    string // what the id is derived from: qualified name, heading path, chunk anchor
	parent string // name of the enclosing symbol (class of a method, parent heading)
	pqual  string // qualified name of the enclosing symbol
	sig    string // middle-weight text: qualified name and signature, heading path
	start  int    // byte span of the handle's content
	end    int
	lineA  int // 1-based, inclusive
	lineB  int
	// previewAt is where the preview starts (a definition's own first line,
	// after the comments attached above it).
	previewAt int
	// own lists the byte ranges indexed as the body; nil means the whole
	// span. A class's own text leaves out its methods, a section's its
	// subsections.
	own []Span
}

// lineIndex maps between byte offsets and 1-based line numbers.
type lineIndex struct {
	starts []int // byte offset of each line's first byte
	size   int
}

func newLineIndex(b []byte) *lineIndex {
	li := &lineIndex{starts: make([]int, 1, bytes.Count(b, []byte{'\n'})+1), size: len(b)}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// lines is the number of lines (a final line without a newline counts).
func (li *lineIndex) lines() int {
	if li.size == 0 {
		return 0
	}
	return len(li.starts)
}

// lineOf returns the 1-based line holding byte offset off.
func (li *lineIndex) lineOf(off int) int {
	lo, hi := 0, len(li.starts)
	for lo < hi {
		m := (lo + hi) / 2
		if li.starts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return max(lo, 1)
}

// start returns the byte offset of line n's first byte (n is 1-based).
func (li *lineIndex) start(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(li.starts) {
		return li.size
	}
	return li.starts[n-1]
}

// end returns the byte offset just past line n, newline included.
func (li *lineIndex) end(n int) int {
	if n >= len(li.starts) {
		return li.size
	}
	return li.starts[n]
}

// line returns line n's text without its line ending.
func (li *lineIndex) line(b []byte, n int) []byte {
	return bytes.TrimRight(b[li.start(n):li.end(n)], "\r\n")
}

// blank reports whether b holds only white space.
func blank(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 0
}

// PreviewLen is the approximate length of a handle's preview in bytes.
const PreviewLen = 100

// preview collapses white space in b and cuts it to about PreviewLen bytes
// at a rune boundary, adding "..." when something was cut.
func preview(b []byte) string {
	out := make([]byte, 0, PreviewLen+8)
	space := false
	i := 0
	for ; i < len(b) && len(out) < PreviewLen; i++ {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	// Finish a multi-byte rune cut in the middle, or drop it.
	for i < len(b) && !utf8.RuneStart(b[i]) && len(out) < PreviewLen+4 {
		out = append(out, b[i])
		i++
	}
	// Drop a trailing incomplete rune.
	if st := lastRuneStart(out); st < len(out) && !utf8.FullRune(out[st:]) {
		out = out[:st]
	}
	if i < len(b) && !blank(b[i:]) {
		out = append(out, "..."...)
	}
	return redactSecrets(string(bytes.ToValidUTF8(out, []byte("\uFFFD"))))
}

// lastRuneStart returns the index of the last rune-start byte among the
// final four bytes of b, or len(b) when there is none.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return len(b)
}
