// Package words shortens and counts the way every answer of ccd does:
// cards, tool results, the board and the pictures cut long text to a
// budget with an ellipsis, say "1 caller", "3 callers" and ages as "3h".
package words

import (
	"fmt"
	"strings"
	"time"
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

// FirstLine is s's first non-blank line, trimmed: the gist of a tool's
// error output.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		return strings.TrimSpace(s[:k])
	}
	return s
}

// LastLine is s's last non-blank line, trimmed: where a Python traceback
// says what went wrong.
func LastLine(s string) string {
	s = strings.TrimSpace(s)
	if k := strings.LastIndexByte(s, '\n'); k >= 0 {
		return strings.TrimSpace(s[k+1:])
	}
	return s
}

// Age rounds a duration for people: "40s", "12m", "3h", "2d".
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
