package search

import (
	"fmt"
	"os"
	"math"
	"sort"
	"sync"
)

// Related words from the corpus's own doc comments: a question says
// "alive" where the code's comments say "weak reference", and the words
// that keep company with a question word in the doc comments of the
// index are a thesaurus of the code base's own vocabulary. Each doc's
// doc-field words are kept (docTerms); a question word's related terms
// are those that occur in the doc comments holding the word far more
// often than in the corpus at large.

// Tune holds the knobs of the related-word expansion (experimental).
var Tune = struct {
	On       bool
	Optional bool    // as optional words rather than forms of the word
	Weight   float64 // weight of a related term
	MaxDocs  int     // words whose doc comments are more numerous are not expanded
	MinDocs  int     // nor words in fewer doc comments
	MinCount int     // a related term shares at least this many doc comments
	MinShare float64 // and this share of the word's
	MinLift  float64 // and is this many times likelier there than anywhere
	K        int     // related terms per word
}{On: false, Weight: 0.3, MaxDocs: 2000, MinDocs: 3, MinCount: 2, MinShare: 0.05, MinLift: 8, K: 3}

// docTermLists returns, per doc of pf, the local terms of its doc field
// that are words (letters only, three or more, no stop word).
func docTermLists(pf *prepared) [][]uint32 {
	out := make([][]uint32, len(pf.docs))
	for i, text := range pf.vocab {
		if len(text) < 3 || !isAlpha(text) || stopWords[text] {
			continue
		}
		for _, lp := range pf.post[i] {
			if lp.doc == 0 {
				continue
			}
			if _, _, _, doc := unpackTF(lp.tf); doc > 0 {
				out[lp.doc] = append(out[lp.doc], uint32(i))
			}
		}
	}
	return out
}

// relCounter counts terms densely; touched lists the counted ones.
type relCounter struct {
	n       []uint32
	touched []uint32
	seen    map[uint32]bool
}

var relPool = sync.Pool{New: func() any { return &relCounter{seen: map[uint32]bool{}} }}

// relatedTerms returns the terms related to the question word w (not
// those of skip) and their strength in (0, 1]. The caller holds the read
// lock.
func (ix *Index) relatedTerms(w qword, skip map[uint32]bool) (ts []uint32, strength []float64) {
	rc := relPool.Get().(*relCounter)
	defer func() {
		for _, t := range rc.touched {
			rc.n[t] = 0
		}
		rc.touched = rc.touched[:0]
		clear(rc.seen)
		relPool.Put(rc)
	}()
	if len(rc.n) < len(ix.terms) {
		rc.n = make([]uint32, len(ix.terms)+len(ix.terms)/8)
	}
	docs := 0
	for _, t := range w.terms {
		for _, p := range ix.terms[t].post {
			if _, _, _, doc := unpackTF(p.tf); doc == 0 || rc.seen[p.doc] {
				continue
			}
			d := &ix.docs[p.doc]
			if d.inTest() {
				continue
			}
			rc.seen[p.doc] = true
			docs++
			if docs > Tune.MaxDocs {
				return nil, nil
			}
			for _, r := range d.docTerms {
				if rc.n[r] == 0 {
					rc.touched = append(rc.touched, r)
				}
				rc.n[r]++
			}
		}
	}
	if docs < Tune.MinDocs {
		return nil, nil
	}
	n := float64(max(ix.nDocTermDocs, 1))
	type cand struct {
		t     uint32
		score float64
		share float64
	}
	var cs []cand
	least := max(uint32(Tune.MinCount), uint32(math.Ceil(Tune.MinShare*float64(docs))))
	for _, t := range rc.touched {
		c := rc.n[t]
		if c < least || skip[t] {
			continue
		}
		share := float64(c) / float64(docs)
		lift := share / (float64(max(ix.terms[t].docDF, 1)) / n)
		if lift < Tune.MinLift {
			continue
		}
		cs = append(cs, cand{t, share * math.Log(lift), share})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return cs[i].t < cs[j].t
	})
	for i := 0; i < len(cs) && i < Tune.K; i++ {
		ts, strength = append(ts, cs[i].t), append(strength, cs[i].share)
	}
	return ts, strength
}

// expandRelated adds each required word's related terms to a question's
// words. The caller holds the read lock.
func (ix *Index) expandRelated(words []qword) []qword {
	if !Tune.On || len(words) < 2 {
		return words
	}
	skip := map[uint32]bool{}
	for _, w := range words {
		for _, t := range w.terms {
			skip[t] = true
		}
	}
	n := len(words)
	for i := 0; i < n; i++ {
		w := words[i]
		if w.optional || len(w.terms) == 0 {
			continue
		}
		ts, st := ix.relatedTerms(w, skip)
		if knobs["debug"] != 0 {
			var xs []string
			for j, t := range ts {
				xs = append(xs, fmt.Sprintf("%s:%.2f", ix.terms[t].text, st[j]))
			}
			fmt.Fprintf(os.Stderr, "  %s -> %v\n", w.text, xs)
		}
		for j, t := range ts {
			skip[t] = true
			wt := Tune.Weight
			_ = st[j]
			if Tune.Optional {
				if len(words) < maxWords {
					words = append(words, qword{text: "~" + ix.terms[t].text, terms: []uint32{t}, weights: []float64{wt / optionalWeight}, optional: true})
				}
				continue
			}
			words[i].terms = append(words[i].terms, t)
			if words[i].weights == nil {
				words[i].weights = make([]float64, len(w.terms), len(w.terms)+len(ts))
				for k := range words[i].weights {
					words[i].weights[k] = 1
				}
			}
			words[i].weights = append(words[i].weights, wt)
		}
	}
	return words
}

// knobs are temporary experiment settings.
var knobs = map[string]float64{}

// SetKnob sets a temporary experiment setting.
func SetKnob(k string, v float64) { knobs[k] = v }

// ResetKnobs clears the temporary experiment settings.
func ResetKnobs() { clear(knobs) }
