// Package words shortens and counts the way every answer of ccd does:
// cards, tool results, the board and the pictures cut long text to a
// budget with an ellipsis and say "1 caller", "3 callers".
package words

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Ellipsis ends text that was cut.
const Ellipsis = "…"

// Cut shortens s to at most n runes, the last one an ellipsis when
// anything was cut. Line breaks are kept.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + Ellipsis
}

// Clip is Cut on one line: runs of white space, line breaks included,
// become one space first.
func Clip(s string, n int) string {
	return Cut(strings.Join(strings.Fields(s), " "), n)
}

// CutBytes shortens s to at most n bytes, on a rune boundary, the last
// of them an ellipsis when anything was cut.
func CutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n-len(Ellipsis), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + Ellipsis
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and the word for it: "1 caller", "3 callers".
func Count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, one, many))
}
