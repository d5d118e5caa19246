package lsp

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// lines splits a file's text into lines without their terminators.
func lines(text []byte) [][]byte {
	ls := bytes.Split(text, []byte("\n"))
	for i, l := range ls {
		ls[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return ls
}

// isIdent reports whether b can be part of an identifier in the languages
// ccd parses ($ for JS/PHP/shell, non-ASCII letters as bytes >= 0x80).
func isIdent(b byte) bool {
	return b == '_' || b == '$' || b >= 0x80 || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// wordAt reports whether name occurs at line[i:] as a whole word.
func wordAt(line []byte, i int, name string) bool {
	if i < 0 || i+len(name) > len(line) || string(line[i:i+len(name)]) != name {
		return false
	}
	if i > 0 && isIdent(line[i-1]) {
		return false
	}
	end := i + len(name)
	return end >= len(line) || !isIdent(line[end])
}

// findWord returns the byte offsets of name as a whole word in line, at or
// after from.
func findWord(line []byte, name string, from int) []int {
	var out []int
	if name == "" {
		return nil
	}
	for i := from; i <= len(line)-len(name); {
		j := bytes.Index(line[i:], []byte(name))
		if j < 0 {
			break
		}
		if wordAt(line, i+j, name) {
			out = append(out, i+j)
		}
		i += j + 1
	}
	return out
}

// callColumn finds the byte offset of a call's callee name on a line: after
// the receiver when there is one, preferring an occurrence followed by an
// argument list. ok is false when the name is not on the line.
func callColumn(line []byte, name, recv string) (int, bool) {
	from := 0
	if recv != "" {
		// The receiver as written ends before the name: search after its
		// last occurrence that is followed by the name.
		last := recv
		if k := bytes.LastIndexAny([]byte(recv), ".:>"); k >= 0 && k+1 < len(recv) {
			last = recv[k+1:]
		}
		if hits := findWord(line, last, 0); len(hits) > 0 {
			for _, h := range hits {
				if len(findWord(line, name, h+len(last))) > 0 {
					from = h + len(last)
					break
				}
			}
		}
	}
	hits := findWord(line, name, from)
	if len(hits) == 0 && from > 0 {
		hits = findWord(line, name, 0)
	}
	if len(hits) == 0 {
		return 0, false
	}
	for _, h := range hits {
		rest := bytes.TrimLeft(line[h+len(name):], " \t")
		if len(rest) > 0 && (rest[0] == '(' || rest[0] == '<' || rest[0] == '[' || rest[0] == '`') {
			return h, true
		}
	}
	return hits[0], true
}

// utf16Col converts a byte offset in line to UTF-16 code units, LSP's
// default position encoding.
func utf16Col(line []byte, off int) uint32 {
	if off > len(line) {
		off = len(line)
	}
	n := 0
	for b := line[:off]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		u := utf16.RuneLen(r)
		if u < 0 {
			u = 1
		}
		n += u
		b = b[size:]
	}
	return uint32(n)
}

// byteCol converts a UTF-16 column back to a byte offset in line.
func byteCol(line []byte, col uint32) int {
	n := uint32(0)
	for i := 0; i < len(line); {
		if n >= col {
			return i
		}
		r, size := utf8.DecodeRune(line[i:])
		u := utf16.RuneLen(r)
		if u < 0 {
			u = 1
		}
		n += uint32(u)
		i += size
	}
	return len(line)
}

// callPosition locates a call's callee on its 1-based line, or on one of
// the next two lines (chained calls written across lines).
func callPosition(ls [][]byte, line int, name, recv string) (protocol.Position, bool) {
	for l := line; l <= line+2 && l >= 1 && l <= len(ls); l++ {
		if off, ok := callColumn(ls[l-1], name, recv); ok {
			return protocol.Position{Line: uint32(l - 1), Character: utf16Col(ls[l-1], off)}, true
		}
	}
	return protocol.Position{}, false
}

// identAt returns the identifier starting at a position, or "".
func identAt(ls [][]byte, pos protocol.Position) string {
	if int(pos.Line) >= len(ls) {
		return ""
	}
	line := ls[pos.Line]
	i := byteCol(line, pos.Character)
	j := i
	for j < len(line) && isIdent(line[j]) {
		j++
	}
	return string(line[i:j])
}

// SplitLines splits a file's text into lines without their terminators.
func SplitLines(text []byte) [][]byte { return lines(text) }

// FindWord returns the byte offsets of name as a whole word in line.
func FindWord(line []byte, name string) []int { return findWord(line, name, 0) }

// CallColumn finds the byte offset of a call's callee name on a line
// (after the receiver, preferring an occurrence followed by an argument
// list); ok is false when the name is not on the line.
func CallColumn(line []byte, name, recv string) (int, bool) { return callColumn(line, name, recv) }

// IsIdentByte reports whether b can be part of an identifier.
func IsIdentByte(b byte) bool { return isIdent(b) }

// ByteColUTF16 converts a column in UTF-16 code units to a byte offset in
// line.
func ByteColUTF16(line []byte, col uint32) int { return byteCol(line, col) }
