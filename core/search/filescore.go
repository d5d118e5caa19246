package search

import (
	"math/bits"
	"slices"
	"sync"
)

// File-level relevance.
//
// A question in plain words is answered by a file, and the words of a
// question are spread over the file's handles: the package comment says
// what the file is about, one function holds two of the words, another
// holds three. A handle scored alone cannot see that its file holds them
// all. So a text search also scores every file it touches as one
// document, with BM25F over the same postings: a file's frequency of a
// word is the sum over its handles (names and signatures weighing more
// than bodies), normalised by the file's length, and its path is one more
// field (runtime/netpoll_epoll.go names "epoll"). A handle's score is then
// its own plus a share of its file's.

// Weights of the file-level score (see fileScores). Measured on
// testdata/retrieval/questions.tsv, recall moves by a question or two at
// most when any of them is halved or doubled.
const (
	fileNameWeight = 3.0  // a word in a handle's name, per occurrence, against 1 in a body
	fileSigWeight  = 1.0  // in a signature or qualified name
	fileDocWeight  = 1.0  // in documentation, besides its count in the body
	filePathWeight = 1.0  // the path names the word: this times the word's idf over paths
	fileB          = 0.75 // length normalisation of files
	fileK1         = 1.2  // saturation of a file's frequency of a word
	fileShare      = 1.0  // how much of its file's score a handle gets
	// fileCoverMin is the least coverage (share of the question, see
	// textHits) a file needs for its score to count; handleCoverMin the
	// least a handle needs to be shown on its own.
	fileCoverMin   = 0.3
	handleCoverMin = 0.5
	// minStanding is the least standing (its file's score over the best
	// file's) a handle's own score is scaled by, squared.
	minStanding = 0.1
)

// fileAccum gathers, for one query, each touched file's weighted
// frequency of every query word.
type fileAccum struct {
	pos   []int32      // by file number: row + 1, 0 while untouched
	files []*fileEntry // by row
	tf    []float64    // by row, then word
	mask  []uint64     // by row: the words the file holds
	words int
}

var fileAccumPool = sync.Pool{New: func() any { return &fileAccum{} }}

// getFileAccum returns an empty accumulator for an index with slots file
// numbers and a query of words words.
func getFileAccum(slots, words int) *fileAccum {
	fa := fileAccumPool.Get().(*fileAccum)
	if len(fa.pos) < slots {
		fa.pos = make([]int32, slots)
	}
	fa.words = words
	return fa
}

func putFileAccum(fa *fileAccum) {
	for _, f := range fa.files {
		if int(f.num) < len(fa.pos) {
			fa.pos[f.num] = 0
		}
	}
	fa.files, fa.tf, fa.mask = fa.files[:0], fa.tf[:0], fa.mask[:0]
	fileAccumPool.Put(fa)
}

// row returns the row of the file numbered num, adding one.
func (fa *fileAccum) row(ix *Index, num uint32) int32 {
	if r := fa.pos[num]; r > 0 {
		return r - 1
	}
	f := ix.fileSlots[num]
	fa.files = append(fa.files, f)
	fa.mask = append(fa.mask, 0)
	for range fa.words {
		fa.tf = append(fa.tf, 0)
	}
	r := int32(len(fa.files) - 1)
	fa.pos[num] = r + 1
	return r
}

// add counts a file's weighted frequency tf of word wi.
func (fa *fileAccum) add(row int32, wi int, tf float64) {
	fa.tf[int(row)*fa.words+wi] += tf
	fa.mask[row] |= 1 << uint(wi)
}

// fileScores returns the BM25F score of every row of fa over the query
// words: for each word the file holds, idf (over files) times the
// saturated frequency, normalised by the file's length, plus the path
// field. pathMasks gives, by row, the words each file's path names. The
// caller holds the read lock.
func (ix *Index) fileScores(fa *fileAccum, pathMasks []uint64, stems []string) []float64 {
	nf := max(len(ix.files), 1)
	avg := max(float64(ix.fileLenTotal)/float64(nf), 1)
	df := make([]int, fa.words)
	for r := range fa.files {
		for m := fa.mask[r] | pathMasks[r]; m != 0; m &= m - 1 {
			df[bits.TrailingZeros64(m)]++
		}
	}
	idfs := make([]float64, fa.words)
	pathIDF := make([]float64, fa.words)
	for wi := range idfs {
		idfs[wi] = idf(nf, df[wi])
		pathIDF[wi] = idf(nf, len(ix.byPathStem[stems[wi]]))
	}
	out := make([]float64, len(fa.files))
	for r, f := range fa.files {
		norm := 1 / (1 - fileB + fileB*float64(f.length)/avg)
		s := 0.0
		for m := pathMasks[r]; m != 0; m &= m - 1 {
			s += filePathWeight * pathIDF[bits.TrailingZeros64(m)]
		}
		tf := fa.tf[r*fa.words : (r+1)*fa.words]
		for m := fa.mask[r]; m != 0; m &= m - 1 {
			wi := bits.TrailingZeros64(m)
			s += idfs[wi] * sat(tf[wi]*norm)
		}
		out[r] = s
	}
	return out
}

// sat is BM25's saturation of a normalised frequency, with the files' k1.
func sat(x float64) float64 { return x * (fileK1 + 1) / (fileK1 + x) }

// standFiles is how many of the best files may show handles that hold
// too little of the query themselves (see textHits).
const standFiles = 64

// kthLargest returns the k-th largest of xs (the smallest when there are
// fewer), without changing xs.
func kthLargest(xs []float64, k int) float64 {
	if len(xs) == 0 {
		return 0
	}
	if len(xs) <= k {
		return slices.Min(xs)
	}
	// A min-heap of the k largest seen.
	h := make([]float64, 0, k)
	for _, x := range xs {
		if len(h) < k {
			h = append(h, x)
			for i := len(h) - 1; i > 0; {
				p := (i - 1) / 2
				if h[p] <= h[i] {
					break
				}
				h[p], h[i] = h[i], h[p]
				i = p
			}
			continue
		}
		if x <= h[0] {
			continue
		}
		h[0] = x
		for i := 0; ; {
			l, m := 2*i+1, i
			if l < k && h[l] < h[m] {
				m = l
			}
			if r := l + 1; r < k && h[r] < h[m] {
				m = r
			}
			if m == i {
				break
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	return h[0]
}
