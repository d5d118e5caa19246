package retrieval

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
)

// stopWords are the words a person would not grep for.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or of to in on for from with by at as is are was be been it its
		this that these those how where what which when why who does do did can could should would will into out
		up down over under than then there here some any all each every other such not no yes via per using use used
		find code file files function functions method where's i we you they them their our my your me one two`) {
		stopWords[w] = true
	}
}

// Words are the words of a question a grep loop would try: lower-cased,
// at least three letters, no stop words.
func Words(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Grep is the keyword grep loop baseline: for each word of the question,
// a case-insensitive grep over every file; files are ranked by how many of
// the words they contain, then by how often, then by path.
func Grep(files []File, q string) []string {
	words := Words(q)
	type hit struct {
		path          string
		distinct, all int
	}
	var hits []hit
	for _, f := range files {
		lower := f.Lower
		if lower == nil {
			lower = bytes.ToLower(f.Content)
		}
		h := hit{path: f.Path}
		for _, w := range words {
			if n := bytes.Count(lower, []byte(w)); n > 0 {
				h.distinct++
				h.all += n
			}
		}
		if h.distinct > 0 {
			hits = append(hits, h)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.distinct != b.distinct {
			return a.distinct > b.distinct
		}
		if a.all != b.all {
			return a.all > b.all
		}
		return a.path < b.path
	})
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.path
	}
	return out
}
