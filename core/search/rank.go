package search

import "sort"

// ranked is one doc with its score.
type ranked struct {
	doc   uint32
	score float64
}

// typeOrder breaks score ties: definitions, then sections, then the rest.
var typeOrder = [...]int{ntFunction: 0, ntMethod: 0, ntClass: 0, ntStruct: 0, ntSection: 1, ntCodeBlock: 2, ntParagraph: 3, ntChunk: 4, ntFile: 5}

// better orders ranked docs: score, then node type, path and line.
func (ix *Index) better(a, b ranked) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	da, db := &ix.docs[a.doc], &ix.docs[b.doc]
	if typeOrder[da.typ] != typeOrder[db.typ] {
		return typeOrder[da.typ] < typeOrder[db.typ]
	}
	if da.file.path != db.file.path {
		return da.file.path < db.file.path
	}
	return da.lineA < db.lineA
}

// rank returns h's best k docs (all when k <= 0), best first. A large
// result is cut with a bounded heap instead of a full sort.
func (ix *Index) rank(h *hits, k int) []ranked {
	if k <= 0 || k >= len(h.score) {
		out := make([]ranked, 0, len(h.score))
		for n, s := range h.score {
			out = append(out, ranked{n, s})
		}
		sort.Slice(out, func(i, j int) bool { return ix.better(out[i], out[j]) })
		return out
	}
	// heap[0] is the worst of the best k seen so far.
	heap := make([]ranked, 0, k)
	worse := func(i, j int) bool { return ix.better(heap[j], heap[i]) }
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(heap) && worse(l, m) {
				m = l
			}
			if r := l + 1; r < len(heap) && worse(r, m) {
				m = r
			}
			if m == i {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for n, s := range h.score {
		r := ranked{n, s}
		if len(heap) < k {
			heap = append(heap, r)
			for i := len(heap) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(i, p) {
					break
				}
				heap[i], heap[p] = heap[p], heap[i]
				i = p
			}
			continue
		}
		if ix.better(r, heap[0]) {
			heap[0] = r
			down(0)
		}
	}
	sort.Slice(heap, func(i, j int) bool { return ix.better(heap[i], heap[j]) })
	return heap
}
