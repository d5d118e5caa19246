package search

import (
	"math"
	"strings"
	"sync"

	"github.com/ccd-dev/ccd/core/search/terms"
)

// Ranking: BM25 per field, combined with field boosts.
//
// Each field (name, signature/qualified name, body) gets its own saturated
// term frequency, tf' = tf / (1 - b + b·len/avglen), scored
// tf'·(k1+1)/(k1+tf'), and the fields are summed with weights name 6,
// signature 2.5, body 1, times the term's idf = ln(1 + (N-df+0.5)/(df+0.5)).
// Summing saturated fields (rather than BM25F's saturation of the weighted
// sum) keeps the boosts decisive: one hit in a name is worth more than any
// number of hits in a body, so the definition of Foo outranks every file
// that merely calls Foo.
var (
	fieldWeight = [nFields]float64{6, 2.5, 1}
	fieldB      = [nFields]float64{0.3, 0.5, 0.75}
)

const k1 = 1.2

// accum is a dense score accumulator over doc numbers.
type accum struct {
	score   []float64
	mask    []uint64 // which query words matched
	touched []uint32
}

var accumPool = sync.Pool{New: func() any { return &accum{} }}

func getAccum(n int) *accum {
	a := accumPool.Get().(*accum)
	if len(a.score) < n {
		a.score = make([]float64, n)
		a.mask = make([]uint64, n)
	}
	return a
}

func putAccum(a *accum) {
	for _, d := range a.touched {
		a.score[d] = 0
		a.mask[d] = 0
	}
	a.touched = a.touched[:0]
	accumPool.Put(a)
}

// qword is one word of a text query and the terms that satisfy it.
type qword struct {
	text  string
	terms []uint32 // term numbers; several for a prefix or a split word
}

// maxWords bounds the words of one pattern (a 64-bit match mask).
const maxWords = 64

// maxPrefixTerms bounds how many terms a prefix expands to.
const maxPrefixTerms = 200

// textQuery turns a pattern into words. A word ending in '*' matches every
// term with that prefix. A compound word the index has never seen whole
// ("HTTPServer" when the code says httpServerImpl) is replaced by its parts,
// each required. The caller holds the read lock.
func (ix *Index) textQuery(pattern string) []qword {
	var out []qword
	seen := map[string]bool{}
	for _, field := range strings.FieldsFunc(pattern, func(r rune) bool {
		return !(terms.IsWordRune(r) || r == '*')
	}) {
		if strings.HasSuffix(field, "*") {
			stem := strings.ToLower(strings.TrimRight(field, "*"))
			if len(stem) >= terms.MinLen && !seen[stem+"*"] && !strings.Contains(stem, "*") {
				seen[stem+"*"] = true
				out = append(out, qword{text: stem + "*", terms: ix.prefixTerms(stem)})
				continue
			}
		}
		for _, w := range terms.Words(strings.ReplaceAll(field, "*", " ")) {
			if seen[w] {
				continue
			}
			seen[w] = true
			if t, ok := ix.dict[w]; ok {
				out = append(out, qword{text: w, terms: []uint32{t}})
				continue
			}
			parts := terms.Parts(w)
			if len(parts) == 0 {
				out = append(out, qword{text: w}) // matches nothing
				continue
			}
			for _, p := range parts {
				if seen[p] {
					continue
				}
				seen[p] = true
				q := qword{text: p}
				if t, ok := ix.dict[p]; ok {
					q.terms = []uint32{t}
				}
				out = append(out, q)
			}
		}
	}
	if len(out) > maxWords {
		out = out[:maxWords]
	}
	return out
}

// prefixTerms returns the terms starting with stem, most frequent first.
func (ix *Index) prefixTerms(prefix string) []uint32 {
	var out []uint32
	for _, n := range ix.byStem[stem(prefix)] {
		if strings.HasPrefix(ix.terms[n].text, prefix) {
			out = append(out, n)
		}
	}
	if len(out) > maxPrefixTerms {
		sortByDF(ix, out)
		out = out[:maxPrefixTerms]
	}
	return out
}

func sortByDF(ix *Index, ts []uint32) {
	sortSlice(ts, func(a, b uint32) bool { return len(ix.terms[a].post) > len(ix.terms[b].post) })
}

// idf of a term with df postings among N docs.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// fieldMask selects fields for scoring.
type fieldMask uint8

const (
	allFields  fieldMask = 1<<fName | 1<<fSig | 1<<fBody
	nameFields fieldMask = 1<<fName | 1<<fSig
)

// scoreWords accumulates BM25 scores of words into a, restricted to docs
// keep accepts (nil: all) and to the fields in mask; a doc's mask bit i is
// set when it matched word i. The caller holds the read lock.
func (ix *Index) scoreWords(a *accum, words []qword, mask fieldMask, keep func(*doc) bool) {
	n := max(ix.nDocs, 1)
	var avg [nFields]float64
	for f := range avg {
		avg[f] = max(float64(ix.fieldLen[f])/float64(n), 1)
	}
	for wi, w := range words {
		bit := uint64(1) << uint(wi)
		for _, t := range w.terms {
			post := ix.terms[t].post
			weight := idf(n, len(post))
			for _, p := range post {
				d := &ix.docs[p.doc]
				var tf [nFields]uint32
				tf[fName], tf[fSig], tf[fBody] = unpackTF(p.tf)
				s := 0.0
				for f := 0; f < nFields; f++ {
					if tf[f] == 0 || mask&(1<<f) == 0 {
						continue
					}
					x := float64(tf[f]) / (1 - fieldB[f] + fieldB[f]*float64(d.lens[f])/avg[f])
					s += fieldWeight[f] * x * (k1 + 1) / (k1 + x)
				}
				if s == 0 || keep != nil && !keep(d) {
					continue
				}
				if a.mask[p.doc] == 0 && a.score[p.doc] == 0 {
					a.touched = append(a.touched, p.doc)
				}
				a.score[p.doc] += weight * s
				a.mask[p.doc] |= bit
			}
		}
	}
}

// textHits runs a text search: docs that match every word, or, when none
// does and there are several words, docs that match some of them with the
// score scaled by the square of the fraction matched (partial is then
// true).
func (ix *Index) textHits(pattern string, mask fieldMask, keep func(*doc) bool) (h *hits, partial bool) {
	words := ix.textQuery(pattern)
	h = newHits()
	if len(words) == 0 {
		return h, false
	}
	a := getAccum(len(ix.docs))
	defer putAccum(a)
	ix.scoreWords(a, words, mask, keep)
	full := uint64(1)<<uint(len(words)) - 1
	if len(words) == maxWords {
		full = ^uint64(0)
	}
	for _, d := range a.touched {
		if a.mask[d] == full {
			h.score[d] = a.score[d]
		}
	}
	if len(h.score) > 0 || len(words) < 2 {
		return h, false
	}
	h.cover = map[uint32]float64{}
	for _, d := range a.touched {
		frac := float64(popcount(a.mask[d])) / float64(len(words))
		if frac >= 0.5 {
			h.score[d] = a.score[d] * frac * frac
			h.cover[d] = frac
		}
	}
	return h, len(h.score) > 0
}

func popcount(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}
