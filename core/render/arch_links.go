package render

// pickLinks chooses the links to draw. Districts are ranked so that few
// links point backwards (importers above what they import). The heaviest
// forward links are candidates; a candidate implied by a path of other
// candidates (A→B→C makes A→C) is left out; only the few heaviest backward
// links are kept, as warnings.
func (a *archDraw) pickLinks() {
	m := a.m
	nd := len(m.districts)
	all := make([]ledge, len(m.links))
	for i, l := range m.links {
		all[i] = ledge{from: l.from, to: l.to, weight: float64(l.count)}
	}
	rank := feedbackOrder(nd, all)
	limit := max(12, nd*3/2)
	var cands []link
	backs := 0
	hasOut := make([]bool, nd)
	for _, l := range m.links { // heaviest first
		if rank[l.from] > rank[l.to] {
			if backs >= 3 || len(m.links) > 12 && l.count*20 < m.links[0].count {
				a.backOmitted++
				continue
			}
			backs++
			cands = append(cands, l)
			continue
		}
		// Over the limit, only a district's strongest dependency.
		if len(cands) >= limit && hasOut[l.from] {
			a.omitted++
			continue
		}
		hasOut[l.from] = true
		cands = append(cands, l)
	}
	// reach[u][v]: v is reachable from u over forward candidates.
	succ := make([][]int, nd)
	for _, l := range cands {
		if rank[l.from] < rank[l.to] {
			succ[l.from] = append(succ[l.from], l.to)
		}
	}
	byRank := make([]int, nd)
	for v, r := range rank {
		byRank[r] = v
	}
	reach := make([][]bool, nd)
	for k := nd - 1; k >= 0; k-- {
		u := byRank[k]
		reach[u] = make([]bool, nd)
		for _, w := range succ[u] {
			reach[u][w] = true
			for v, ok := range reach[w] {
				if ok {
					reach[u][v] = true
				}
			}
		}
	}
	// A link is implied when a path of other candidates leads the same way
	// and none of its links is much lighter (a path through a light link
	// must not hide a heavy direct one): widest paths, by bottleneck.
	weight := make([][]int, nd)
	for i := range weight {
		weight[i] = make([]int, nd)
	}
	for _, l := range cands {
		if rank[l.from] < rank[l.to] {
			weight[l.from][l.to] = l.count
		}
	}
	widest := make([][]int, nd) // widest[u][v]: best bottleneck of any path
	for k := nd - 1; k >= 0; k-- {
		u := byRank[k]
		widest[u] = make([]int, nd)
		for _, w := range succ[u] {
			widest[u][w] = max(widest[u][w], weight[u][w])
			for v, b := range widest[w] {
				widest[u][v] = max(widest[u][v], min(weight[u][w], b))
			}
		}
	}
	implied := func(u, v int) bool {
		for _, w := range succ[u] {
			if w != v && reach[w][v] && 6*min(weight[u][w], widest[w][v]) >= weight[u][v] {
				return true
			}
		}
		return false
	}
	reduce := len(cands) > 12 // small pictures show every link
	for _, l := range cands {
		if reduce && rank[l.from] < rank[l.to] && implied(l.from, l.to) {
			a.implied++
			continue
		}
		a.links = append(a.links, l)
	}
}
