package tokcount

import (
	"unicode"
	"unicode/utf8"
)

// nextPiece returns the end of the cl100k pre-tokenisation piece that starts
// at i. It mirrors the pattern
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// alternative by alternative, with the same leftmost-first, greedy and
// backtracking outcome.
func nextPiece(t []byte, i int) int {
	c, n := utf8.DecodeRune(t[i:])
	// 's 't 're 've 'm 'll 'd, any case.
	if c == '\'' {
		if j := contraction(t, i+1); j > 0 {
			return j
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if isLetter(c) {
		return letters(t, i+n)
	}
	if c != '\r' && c != '\n' && !isNumber(c) && i+n < len(t) {
		if c2, _ := utf8.DecodeRune(t[i+n:]); isLetter(c2) {
			return letters(t, i+n)
		}
	}
	// \p{N}{1,3}
	if isNumber(c) {
		j := i + n
		for k := 1; k < 3 && j < len(t); k++ {
			r, m := utf8.DecodeRune(t[j:])
			if !isNumber(r) {
				break
			}
			j += m
		}
		return j
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	start := i
	if c == ' ' && i+1 < len(t) {
		if r, _ := utf8.DecodeRune(t[i+1:]); isOther(r) {
			start = i + 1
		}
	}
	if r, _ := utf8.DecodeRune(t[start:]); isOther(r) {
		j := start
		for j < len(t) {
			r, m := utf8.DecodeRune(t[j:])
			if !isOther(r) {
				break
			}
			j += m
		}
		for j < len(t) && (t[j] == '\r' || t[j] == '\n') {
			j++
		}
		return j
	}
	// From here c is whitespace. Find the whole run.
	end, lastNL := i, -1
	for end < len(t) {
		r, m := utf8.DecodeRune(t[end:])
		if !isSpace(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = end
		}
		end += m
	}
	// \s*[\r\n]+ : up to and including the run's last newline.
	if lastNL >= 0 {
		return lastNL + 1
	}
	// \s+(?!\S) : the run, minus its last character when text follows.
	if end == len(t) {
		return end
	}
	_, lastSize := utf8.DecodeLastRune(t[i:end])
	if end-lastSize > i {
		return end - lastSize
	}
	// \s+
	return end
}

// contraction matches s t re ve m ll d (any case) at j, returning the end
// of the piece including the apostrophe, or 0.
func contraction(t []byte, j int) int {
	lower := func(k int) byte {
		if k >= len(t) {
			return 0
		}
		b := t[k]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		return b
	}
	switch lower(j) {
	case 's', 't', 'm', 'd':
		return j + 1
	case 'r', 'v':
		if lower(j+1) == 'e' {
			return j + 2
		}
	case 'l':
		if lower(j+1) == 'l' {
			return j + 2
		}
	}
	return 0
}

func letters(t []byte, j int) int {
	for j < len(t) {
		r, m := utf8.DecodeRune(t[j:])
		if !isLetter(r) {
			break
		}
		j += m
	}
	return j
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

// isSpace is \s of the regex engine tiktoken-go uses: the Unicode White_Space
// characters.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// isOther is [^\s\p{L}\p{N}].
func isOther(r rune) bool { return !isSpace(r) && !isLetter(r) && !isNumber(r) }
