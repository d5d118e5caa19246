package tokcount

import "math"

// merge runs byte-pair merging on one piece and returns how many tokens
// remain: repeatedly join the adjacent pair of parts whose concatenation has
// the lowest rank, until no adjacent pair is a known token.
func (e *encoder) merge(p []byte) int {
	if len(p) == 1 {
		return 1
	}
	return len(e.split(p)) - 1
}

// split returns the part boundaries byte-pair merging leaves in p: part i
// is p[b[i]:b[i+1]].
func (e *encoder) split(p []byte) []int {
	// bounds[i] is the start of part i; the last entry is len(p).
	// rank[i] is the rank of parts i and i+1 joined (MaxInt: not a token).
	bounds := make([]int, len(p)+1)
	rank := make([]int, len(p)+1)
	for i := range bounds {
		bounds[i] = i
	}
	pair := func(i int) int {
		if i+2 < len(bounds) {
			if r, ok := e.ranks[string(p[bounds[i]:bounds[i+2]])]; ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := range rank {
		rank[i] = pair(i)
	}
	for len(bounds) > 2 {
		best, at := math.MaxInt, -1
		for i := 0; i < len(bounds)-2; i++ {
			if rank[i] < best {
				best, at = rank[i], i
			}
		}
		if at < 0 {
			break
		}
		// Join part at+1 into part at.
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	return bounds
}
