package report

import (
	"fmt"
	"sort"
	"strconv"
)

// Languages renders file counts per language, most files first, at most n
// of them: "go 1,380, python 32, +2 more"; "no known language" when empty.
func Languages(m map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	xs := make([]kv, 0, len(m))
	for k, v := range m {
		xs = append(xs, kv{k, v})
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v > xs[j].v
		}
		return xs[i].k < xs[j].k
	})
	if len(xs) == 0 {
		return "no known language"
	}
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		if i == n {
			out += fmt.Sprintf("+%d more", len(xs)-n)
			break
		}
		out += x.k + " " + Thousands(x.v)
	}
	return out
}

// Thousands formats n with comma separators: 18,201.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
