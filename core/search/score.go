package search

import (
	"math"
	"path"
	"strings"
	"sync"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/search/terms"
)

// Ranking: BM25 per field, combined with field boosts.
//
// Each field (name, signature/qualified name, body, doc) gets its own
// saturated term frequency, tf' = tf / (1 - b + b·len/avglen), scored
// tf'·(k1+1)/(k1+tf'), and the fields are summed with weights name 6,
// signature 2.5, body 1, doc 2, times the term's idf = ln(1 + (N-df+0.5)/(df+0.5)).
// The doc field holds the words of the handle's doc comment or docstring
// (which count in the body too): the author's own account of what the
// code is for, in the words a question uses. Measured on the first three
// question sets of testdata/retrieval, it lifted Go recall@1 from 96 to
// 103 of 152 (recall@8 139 to 138, MRR 0.735 to 0.761) and Python from
// 75 to 76 of 110 (recall@8 100 to 101, MRR 0.777 to 0.784); weights 1 to
// 4 and b 0.3 to 0.75 all came within a question or two of that.
// Summing saturated fields (rather than BM25F's saturation of the weighted
// sum) keeps the boosts decisive: one hit in a name is worth more than any
// number of hits in a body, so the definition of Foo outranks every file
// that merely calls Foo.
var (
	fieldWeight = [nFields]float64{6, 2.5, 1, 2}
	fieldB      = [nFields]float64{0.3, 0.5, 0.75, 0.5}
)

const k1 = 1.2

// accum is a dense score accumulator over doc numbers. A doc's score,
// word mask and file row sit in one entry: scoring a posting touches one
// cache line.
type accum struct {
	e       []accEntry
	touched []uint32
}

// accEntry is one doc's accumulated score.
type accEntry struct {
	score float64
	mask  uint64 // which query words matched
	// row is the doc's file's row in the query's fileAccum (set only
	// when there is one).
	row int32
}

var accumPool = sync.Pool{New: func() any { return &accum{} }}

func getAccum(n int) *accum {
	a := accumPool.Get().(*accum)
	if len(a.e) < n {
		a.e = make([]accEntry, n)
	}
	return a
}

func putAccum(a *accum) {
	for _, d := range a.touched {
		a.e[d] = accEntry{}
	}
	a.touched = a.touched[:0]
	accumPool.Put(a)
}

// qword is one word of a text query and the terms that satisfy it.
type qword struct {
	text  string
	terms []uint32 // term numbers; several for a prefix or a split word
	// weights scale the terms' scores (nil: all 1): a word's other
	// English forms count less than the word itself.
	weights []float64
	// optional marks a question word that code uses too ("once",
	// "handle"): it adds to a handle's score but a handle without it
	// misses nothing (see softWords).
	optional bool
}

// variantWeight scales a match of another form of a query word.
const variantWeight = 0.7

// weight is the scale of the word's i-th term.
func (w qword) weight(i int) float64 {
	if w.weights == nil {
		return 1
	}
	return w.weights[i]
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
	fields := strings.FieldsFunc(pattern, func(r rune) bool {
		return !(terms.IsWordRune(r) || r == '*')
	})
	// A question's function words go when other words remain; those code
	// uses too stay as optional words. A pattern without spaces is a name,
	// and every word of a name counts: errors.Is and Client.Do are not
	// questions about errors or clients.
	name := !strings.ContainsAny(strings.TrimSpace(pattern), " \t")
	var kept []string
	optional := map[string]bool{}
	required := 0
	for _, f := range fields {
		switch lf := strings.ToLower(f); {
		case name || !stopWords[lf]:
			kept = append(kept, f)
			required++
		case softWords[lf]:
			kept = append(kept, f)
			optional[lf] = true
		}
	}
	if required > 0 {
		fields = kept
	} else {
		optional = nil
	}
	for _, field := range fields {
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
			vs := ix.variants(w)
			ss, sw := ix.synonymTerms(w)
			t, ok := ix.dict[w]
			parts := terms.Parts(w)
			if ok || len(vs) > 0 || len(ss) > 0 || len(parts) == 0 {
				// The word, its other forms and its synonyms (or nothing).
				q := qword{text: w, optional: optional[w]}
				if ok {
					q.terms, q.weights = append(q.terms, t), append(q.weights, 1)
				}
				for _, v := range vs {
					q.terms, q.weights = append(q.terms, v), append(q.weights, variantWeight)
				}
				q.terms, q.weights = append(q.terms, ss...), append(q.weights, sw...)
				out = append(out, q)
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

// wordIDF is the idf of a query word over all its terms together: a doc
// matches the word when it holds any of them, so the word is as rare as
// their postings together. The rarest form alone ("makers" for make)
// would make a common word weigh like a rare one in a question's
// coverage.
func wordIDF(ix *Index, n int, w qword) float64 {
	df := 0
	for _, t := range w.terms {
		df += len(ix.terms[t].post)
	}
	if df == 0 {
		return 0
	}
	return idf(n, min(df, n))
}

// idf of a term with df postings among N docs.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// fieldMask selects fields for scoring.
type fieldMask uint8

const (
	allFields  fieldMask = 1<<fName | 1<<fSig | 1<<fBody | 1<<fDoc
	nameFields fieldMask = 1<<fName | 1<<fSig
)

// scoreWords accumulates BM25 scores of words into a, restricted to docs
// keep accepts (nil: all) and to the fields in mask; a doc's mask bit i is
// set when it matched word i. With fa, every matching posting also counts
// for its file (see filescore.go). The caller holds the read lock.
func (ix *Index) scoreWords(a *accum, fa *fileAccum, words []qword, mask fieldMask, keep func(*doc) bool) {
	n := max(ix.nDocs, 1)
	var avg [nFields]float64
	for f := range avg {
		avg[f] = max(float64(ix.fieldLen[f])/float64(n), 1)
	}
	for wi, w := range words {
		bit := uint64(1) << uint(wi)
		for ti, t := range w.terms {
			post := ix.terms[t].post
			weight := idf(n, len(post)) * w.weight(ti)
			fileScale := w.weight(ti)
			if w.optional {
				weight *= optionalWeight
				fileScale *= optionalWeight
			}
			// A term's postings come file by file: a file's frequency is
			// summed here and added to fa when the file changes.
			fnum, row, ftf := ^uint32(0), int32(-1), 0.0
			for _, p := range post {
				d := &ix.docs[p.doc]
				var tf [nFields]uint32
				tf[fName], tf[fSig], tf[fBody], tf[fDoc] = unpackTF(p.tf)
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
				e := &a.e[p.doc]
				if fa != nil {
					if d.fnum != fnum {
						if row >= 0 {
							fa.add(row, wi, ftf)
						}
						fnum, row, ftf = d.fnum, fa.row(ix, d.fnum), 0
					}
					ftf += fileScale * (fileNameWeight*float64(tf[fName]) + fileSigWeight*float64(tf[fSig]) + float64(tf[fBody]) + fileDocWeight*float64(tf[fDoc]))
					e.row = row
				}
				if e.mask == 0 && e.score == 0 {
					a.touched = append(a.touched, p.doc)
				}
				e.score += weight * s
				e.mask |= bit
			}
			if row >= 0 {
				fa.add(row, wi, ftf)
			}
		}
	}
}

// textHits runs a ranked text search. A doc's score is its BM25 over the
// words it contains times the square of its coverage, the mean of the
// share of the query's idf those words carry (a word the index does not
// know weighs as much as an average known word) and the share of its
// words: a handle with every word leads, and one with the rare words
// of a question outranks one with only its common words; with several
// words, it is also scaled by its file's standing and gets its file's
// score (see filescore.go and doc.go). Docs with less than half the
// coverage and half the words are dropped (unless they are among the
// best of one of the best files); partial is true when no doc has every
// word. The best candidates then get the priors only a code index has: a path
// that names the query's words (compress/gzip for "gzip header") lifts a
// doc, a test file sinks unless the query asks about tests.
func (ix *Index) textHits(pattern string, mask fieldMask, keep func(*doc) bool) (h *hits, partial bool) {
	words := ix.textQuery(pattern)
	h = newHits()
	if len(words) == 0 {
		return h, false
	}
	a := getAccum(len(ix.docs))
	defer putAccum(a)
	var fa *fileAccum
	// One word is a name: its file part would lift the files that use it most.
	if mask == allFields && keep == nil && len(words) > 1 {
		fa = getFileAccum(len(ix.fileSlots), len(words))
		defer putFileAccum(fa)
	}
	ix.scoreWords(a, fa, words, mask, keep)
	n := max(ix.nDocs, 1)
	// Coverage counts the required words only: full has their bits.
	wIDF := make([]float64, len(words))
	total, unknown, nReq := 0.0, 0, 0
	var full uint64
	for i, w := range words {
		if w.optional {
			continue
		}
		full |= 1 << uint(i)
		nReq++
		wIDF[i] = wordIDF(ix, n, w)
		total += wIDF[i]
		if wIDF[i] == 0 {
			unknown++
		}
	}
	if total == 0 {
		return h, false
	}
	// A word the index does not know weighs as much as the average word
	// it knows: it can match nothing, but the share of the question the
	// best docs answer must say it is missing.
	total += float64(unknown) * total / float64(nReq-unknown)
	// The path is part of every handle of its file: io/io.go's ReadFull
	// answers "io.ReadFull" though its body never says io.
	stems := queryStems(words)
	if len(words) > 1 {
		byFile := map[*fileEntry]uint64{}
		for i, st := range stems {
			for _, f := range ix.byPathStem[st] {
				byFile[f] |= 1 << uint(i)
			}
		}
		for f, m := range byFile {
			for _, d := range f.docs {
				if a.e[d].score != 0 {
					a.e[d].mask |= m
				}
			}
		}
	}
	// coverage is the share of the query a word mask holds: the idf
	// share, softened by the plain share of words (a rare word the answer
	// does not use, "lightweight DOM", must not sink the handles that
	// have the others); ok says whether it holds enough to be shown.
	// Masks repeat: with few words their coverage is computed once.
	var covCache []float64
	if len(words) <= 10 {
		covCache = make([]float64, 1<<uint(len(words)))
	}
	coverageAt := func(mask uint64, least float64) (cov float64, ok bool) {
		mask &= full
		if mask == full {
			return 1, true
		}
		if covCache != nil {
			if c := covCache[mask]; c != 0 {
				return c, c >= least || float64(popcount(mask)) >= least*float64(nReq)
			}
			defer func() { covCache[mask] = cov }()
		}
		for i := range words {
			if mask&(1<<uint(i)) != 0 {
				cov += wIDF[i]
			}
		}
		count := float64(popcount(mask)) / float64(nReq)
		cov = (cov/total + count) / 2
		return cov, cov >= least || count >= least
	}
	coverage := func(mask uint64) (float64, bool) { return coverageAt(mask, handleCoverMin) }
	// The file part of every touched file (see filescore.go), by row of fa.
	var filePart []float64
	if fa != nil {
		pm := make([]uint64, len(fa.files))
		for i, st := range stems {
			for _, f := range ix.byPathStem[st] {
				if r := fa.pos[f.num]; r > 0 {
					pm[r-1] |= 1 << uint(i)
				}
			}
		}
		filePart = ix.fileScores(fa, pm, stems)
		h.fileCover = make(map[*fileEntry]float64, len(filePart))
		for r := range filePart {
			c, ok := coverageAt(fa.mask[r]|pm[r], fileCoverMin)
			if ok {
				// Not scaled by coverage: BM25F has counted the words the
				// file holds, and a long file holds a question's filler
				// words ("make sure", "exactly") by chance, which a small
				// file that does the job does not.
				filePart[r] *= fileShare
			} else {
				filePart[r] = 0 // a file with too little of the question lifts nothing
			}
			if c < 1 {
				h.fileCover[fa.files[r]] = c
			}
		}
	}
	// A handle with too little of the query itself is shown only when it
	// is one of the best perFileFirst handles of one of the best files
	// (standFiles of them): it points into that file's answer. stand
	// holds them by row of fa; standMin is the least file part that
	// qualifies.
	var stand [][perFileFirst]uint32
	standMin := math.Inf(1)
	if filePart != nil {
		stand = make([][perFileFirst]uint32, len(filePart))
		standMin = max(kthLargest(filePart, standFiles), math.SmallestNonzeroFloat64)
	}
	setCover := func(d uint32, cov float64) {
		if cov < 1 && fa == nil {
			if h.cover == nil {
				h.cover = map[uint32]float64{}
			}
			h.cover[d] = cov
		}
	}
	// A handle's own score counts by its file's standing among the
	// files: a name that matches two words of a question in a file that
	// holds little else of it (lib2to3's diff_texts for "a line-by-line
	// diff between two texts") must not outrank the file that answers.
	bestFile := 0.0
	for _, x := range filePart {
		bestFile = max(bestFile, x)
	}
	standing := func(fp float64) float64 {
		if bestFile == 0 {
			return 1
		}
		x := max(fp/bestFile, minStanding)
		return x * x
	}
	complete := false
	for _, d := range a.touched {
		e := &a.e[d]
		mask := e.mask
		complete = complete || mask&full == full
		cov, ok := coverage(mask)
		fp := 0.0
		r := 0
		if filePart != nil {
			r = int(e.row)
			fp = filePart[r]
		}
		if ok {
			h.score[d] = e.score*cov*cov*standing(fp) + fp
			setCover(d, cov)
			continue
		}
		if fp < standMin {
			continue
		}
		// Keep the row's best perFileFirst by own score (doc+1; 0 is empty).
		x := d + 1
		for i := range stand[r] {
			if y := stand[r][i]; y == 0 || a.e[x-1].score > a.e[y-1].score {
				stand[r][i], x = x, y
				if x == 0 {
					break
				}
			}
		}
	}
	for r, best := range stand {
		for _, x := range best {
			if x == 0 {
				break
			}
			d := x - 1
			cov, _ := coverage(a.e[d].mask)
			h.score[d] = filePart[r] + a.e[d].score*cov*cov*standing(filePart[r])
			setCover(d, cov)
		}
	}
	ix.applyPriors(h, words, strings.TrimSpace(pattern))
	return h, !complete && len(h.score) > 0
}

// priorCandidates is how many of the best docs get the priors.
const priorCandidates = 400

// Priors of a text search.
const (
	textTestPenalty = 0.3 // a doc in a test file, the query not about tests
	pathBoost       = 0.6 // at most, a path naming every query word
	exactNameBoost  = 2   // a definition named exactly as a one-word query
	// qualNameBoost replaces exactNameBoost when the query qualifies the
	// name (Group.Do, io.ReadFull) and the definition's type or package is
	// that qualifier: such a name points at one definition, and the files
	// whose paths and names hold the qualifier's word (a group.go full of
	// groups) must not bury it. With 2, internal/runtime/maps/group.go
	// ranked above internal/singleflight's Group.Do.
	qualNameBoost = 4
	foldNameBoost = 1.5 // exactNameBoost, but for a name that differs in case
	// exportedBoost lifts, for a question of several words, a definition
	// its language exports by its name's case (Go): a question asks what
	// a package offers, and its exported API is where that is, above the
	// unexported helpers of an internal package that implements it too.
	// Not in tests: a test function's capital says nothing.
	// On the first three question sets it lifted Go recall@8 from 140 to
	// 142 of 152 (MRR 0.770 to 0.782; 0.1 and 0.3 gave 141). Python's
	// leading underscore says less (dataclasses does its work in _private
	// functions): the same boost for Python names without one lost a
	// question at recall@8, so Python is left out.
	exportedBoost = 0.2
)

// applyPriors scales the best docs of h by the priors of their file: the
// share of the query's words its path names, and whether it is a test;
// a one-word query also lifts the definitions of that very name
// (ParseCIDR's definition above the tests and comments that mention it).
func (ix *Index) applyPriors(h *hits, words []qword, pattern string) {
	stems := queryStems(words)
	aboutTests := false
	for _, s := range stems {
		aboutTests = aboutTests || s == "test"
	}
	cands := h.score
	if len(h.score) > priorCandidates {
		cands = map[uint32]float64{}
		for _, r := range ix.rank(h, priorCandidates) {
			cands[r.doc] = r.score
		}
	}
	// A one-identifier query, maybe qualified by its package or type
	// (io.ReadFull, Server.Serve).
	ident := !strings.ContainsAny(pattern, " \t*") && len(pattern) > 0
	name, qual := pattern, ""
	if i := strings.LastIndexByte(pattern, '.'); i > 0 && i < len(pattern)-1 {
		name, qual = pattern[i+1:], pattern[:i]
		if j := strings.LastIndexAny(qual, "./"); j >= 0 {
			qual = qual[j+1:]
		}
	}
	byFile := map[*fileEntry]float64{}
	for d := range cands {
		doc := &ix.docs[d]
		f := doc.file
		factor, ok := byFile[f]
		if !ok {
			factor = 1
			if len(words) >= 2 {
				factor += pathBoost * float64(popcount(pathMask(f, stems))) / float64(len(stems))
			}
			if !aboutTests && isTestPath(f.path) {
				factor *= textTestPenalty
			}
			byFile[f] = factor
		}
		if len(words) >= 2 && doc.typ.isDef() && exportedName(f.lang, doc.name) && !isTestPath(f.path) {
			factor *= 1 + exportedBoost
		}
		if ident && doc.typ.isDef() && (qual == "" || qual == doc.parent || qual == path.Base(path.Dir(f.path))) {
			switch {
			case doc.name == name && qual != "":
				factor *= qualNameBoost
			case doc.name == name:
				factor *= exactNameBoost
			case strings.EqualFold(doc.name, name):
				factor *= foldNameBoost
			}
		}
		h.score[d] *= factor
	}
}

// exportedName reports whether a definition's name is exported by its
// case, in a language where that is the rule (Go).
func exportedName(lang, name string) bool {
	return lang == "go" && name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// isTestPath reports whether p holds tests: a test file by its language's
// rules, or any file under a test, tests or testdata directory (Python's
// Lib/test, fixtures).
func isTestPath(p string) bool {
	if graph.IsTestFile(p) {
		return true
	}
	dirs := "/" + p
	return strings.Contains(dirs, "/test/") || strings.Contains(dirs, "/tests/") || strings.Contains(dirs, "/testdata/")
}

// queryStems are the light stems of a text query's words.
func queryStems(words []qword) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = lightStem(strings.TrimSuffix(w.text, "*"))
	}
	return out
}

// pathStems are the distinct light stems of a path's terms, its file
// extension left out (every Go file would name "go").
func pathStems(p string) []string {
	var out []string
	if ext := path.Ext(p); ext != "" && !strings.Contains(ext, "/") {
		p = strings.TrimSuffix(p, ext)
	}
	terms.Each([]byte(p), func(t []byte, whole bool) {
		st := lightStem(string(t))
		for _, o := range out {
			if o == st {
				return
			}
		}
		out = append(out, st)
	})
	return out
}

// pathMask has bit i set when the file's path names query word i.
func pathMask(f *fileEntry, stems []string) uint64 {
	var m uint64
	for i, s := range stems {
		for _, p := range f.pathStems {
			if p == s {
				m |= 1 << uint(i)
				break
			}
		}
	}
	return m
}

func popcount(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}
