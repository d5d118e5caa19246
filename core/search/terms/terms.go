// Package terms splits text into the identifier-aware search terms of ccd's
// retrieval index.
//
// A word is a maximal run of letters, digits and underscores. Every word
// yields its whole lowercased form ("parsehttprequest", "snake_case_name")
// and, when it is compound, each lowercased part: camelCase and PascalCase
// humps ("parse", "http", "request"; an acronym ends where a new hump
// starts: "HTTPServer" → "http", "server"), snake_case pieces and digit runs
// ("int64" → "int", "64"). Terms shorter than two bytes or longer than
// MaxLen are dropped. Query patterns go through the same splitting, so a
// search for "ServeHTTP", "serve_http" or "serve http" all meet the code
// that says ServeHTTP.
package terms

import (
	"unicode"
	"unicode/utf8"
)

// MaxLen is the longest term kept, in bytes; longer words (hashes, base64
// blobs) are not indexed at all.
const MaxLen = 64

// MinLen is the shortest term kept, in bytes.
const MinLen = 2

// Each calls fn for every term of text, in order: a word's whole form first
// (whole=true), then its parts. The slice passed to fn is reused after fn
// returns; copy it to keep it.
func Each(text []byte, fn func(term []byte, whole bool)) {
	var wb, pb [MaxLen * 2]byte
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf && !isWordByte(c) {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(text[i:])
			if !isWordRune(r) {
				i += n
				continue
			}
		}
		j := wordEnd(text, i)
		word(text[i:j], wb[:0], pb[:0], fn)
		i = j
	}
}

// Words returns the whole lowercased words of s, in order, without parts
// (duplicates kept).
func Words(s string) []string {
	var out []string
	Each([]byte(s), func(t []byte, whole bool) {
		if whole {
			out = append(out, string(t))
		}
	})
	return out
}

// Parts returns the lowercased parts of one word ("parseHTTPRequest" →
// parse, http, request), or nil when the word is not compound.
func Parts(w string) []string {
	var out []string
	Each([]byte(w), func(t []byte, whole bool) {
		if !whole {
			out = append(out, string(t))
		}
	})
	return out
}

// IsWordRune reports whether r belongs to words: letters, digits, '_'.
func IsWordRune(r rune) bool { return isWordRune(r) }

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordByte(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordEnd(t []byte, i int) int {
	for i < len(t) {
		c := t[i]
		if c < utf8.RuneSelf {
			if !isWordByte(c) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if !isWordRune(r) {
			return i
		}
		i += n
	}
	return i
}

// class of a rune for splitting.
const (
	clLower = iota
	clUpper
	clDigit
	clUnder
)

func class(r rune) int {
	switch {
	case r == '_':
		return clUnder
	case '0' <= r && r <= '9', r >= utf8.RuneSelf && unicode.IsDigit(r):
		return clDigit
	case 'A' <= r && r <= 'Z', r >= utf8.RuneSelf && unicode.IsUpper(r):
		return clUpper
	}
	return clLower
}

// word emits the whole form and parts of w.
func word(w []byte, wb, pb []byte, fn func([]byte, bool)) {
	if len(w) > MaxLen {
		return
	}
	whole := lower(wb, w)
	if len(whole) >= MinLen {
		fn(whole, true)
	}
	// Find part boundaries.
	type span struct{ a, b int }
	var spans [16]span
	parts := spans[:0]
	start := -1
	prevCl := -1
	for i := 0; i < len(w); {
		r, n := rune(w[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(w[i:])
		}
		cl := class(r)
		if cl == clUnder {
			if start >= 0 {
				parts = append(parts, span{start, i})
				start = -1
			}
			prevCl = cl
			i += n
			continue
		}
		if start < 0 {
			start = i
		} else {
			split := false
			switch {
			case cl == clDigit && prevCl != clDigit, cl != clDigit && prevCl == clDigit:
				split = true
			case cl == clUpper && prevCl == clLower:
				split = true
			case cl == clLower && prevCl == clUpper:
				// "HTTPServer": the last upper letter before a lower one
				// starts the new hump.
				_, pn := utf8.DecodeLastRune(w[:i])
				if i-pn > start {
					parts = append(parts, span{start, i - pn})
					start = i - pn
				}
			}
			if split {
				parts = append(parts, span{start, i})
				start = i
			}
		}
		prevCl = cl
		i += n
	}
	if start >= 0 {
		parts = append(parts, span{start, len(w)})
	}
	if len(parts) < 2 {
		// Not compound (leading/trailing underscores aside): emit the bare
		// word when underscores were trimmed from it.
		if len(parts) == 1 && parts[0].b-parts[0].a != len(w) && parts[0].b-parts[0].a >= MinLen {
			fn(lower(pb, w[parts[0].a:parts[0].b]), false)
		}
		return
	}
	for _, p := range parts {
		if p.b-p.a >= MinLen {
			fn(lower(pb, w[p.a:p.b]), false)
		}
	}
}

// lower appends the lowercase form of w to buf.
func lower(buf, w []byte) []byte {
	buf = buf[:0]
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(w[i:])
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
		i += n
	}
	return buf
}
