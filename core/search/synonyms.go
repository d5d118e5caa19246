package search

import "strings"

// Programming vocabulary: code names an operation by one of several
// words (decode, parse, unmarshal; detect, guess, sniff), and a question
// need not use the one its answer uses. A question's word also matches
// the other words of its group, and their common English forms, at
// synonymWeight of its weight.
//
// Measured on testdata/retrieval/questions.tsv, this table lifted Go
// recall@8 from 82 to 84 of 93 and left Python alone. A table of the
// abbreviations code uses (conn, ctx, req, var, gen ...) did not help:
// the short forms are everywhere in code (var and func are Go keywords),
// so they matched far more than they found, and it was left out.

// related are groups of words programmers use for the same operation or
// thing.
var related = `
	decode parse unmarshal deserialize
	encode marshal serialize
	delete remove erase
	detect guess sniff infer
	wildcard glob
	copy clone duplicate
	verify validate
	split tokenize
	join concatenate concat
	kill terminate
	fetch download retrieve
	search lookup locate
	hash digest checksum
	escape quote
	unescape unquote
	release free
	cancel abort
	timeout deadline
	settings config options
	cache memoize
`

// synonymWeight scales a synonym's match, against 1 for the word itself
// (as much as another English form of the word, variantWeight).
const synonymWeight = variantWeight

// synonyms maps a light stem to the groups holding a word of that stem.
var synonyms = map[string][][]string{}

func init() {
	for _, line := range strings.Split(related, "\n") {
		ws := strings.Fields(line)
		if len(ws) < 2 {
			continue
		}
		for _, w := range ws {
			st := lightStem(w)
			synonyms[st] = append(synonyms[st], ws)
		}
	}
}

// synonymTerms returns the dictionary terms of w's synonyms (each word of
// its groups but w's own forms, and their other English forms) and their
// weights. The caller holds the read lock.
func (ix *Index) synonymTerms(w string) (ts []uint32, weights []float64) {
	own := lightStem(w)
	seen := map[uint32]bool{}
	add := func(t uint32, wt float64) {
		if !seen[t] {
			seen[t] = true
			ts, weights = append(ts, t), append(weights, wt)
		}
	}
	for _, g := range synonyms[own] {
		for _, s := range g {
			if lightStem(s) == own {
				continue
			}
			if t, ok := ix.dict[s]; ok {
				add(t, synonymWeight)
			}
			for _, v := range ix.variants(s) {
				add(v, synonymWeight*variantWeight)
			}
		}
	}
	return ts, weights
}
