package render

import (
	"math"
	"sort"
)

// feedbackOrder ranks nodes so that few (light) edges point backwards:
// the greedy heuristic of Eades, Lin and Smyth, with weights.
func feedbackOrder(n int, edges []ledge) []int {
	outW := make([]float64, n)
	inW := make([]float64, n)
	outs := make([][]int, n)
	ins := make([][]int, n)
	for i, e := range edges {
		if e.from == e.to {
			continue
		}
		w := math.Max(e.weight, 1e-3)
		outW[e.from] += w
		inW[e.to] += w
		outs[e.from] = append(outs[e.from], i)
		ins[e.to] = append(ins[e.to], i)
	}
	removed := make([]bool, n)
	var head, tail []int
	remove := func(v int) {
		removed[v] = true
		for _, ei := range outs[v] {
			inW[edges[ei].to] -= math.Max(edges[ei].weight, 1e-3)
		}
		for _, ei := range ins[v] {
			outW[edges[ei].from] -= math.Max(edges[ei].weight, 1e-3)
		}
	}
	const eps = 1e-9
	for left := n; left > 0; {
		progress := true
		for progress {
			progress = false
			for v := 0; v < n; v++ {
				if !removed[v] && outW[v] < eps {
					tail = append(tail, v)
					remove(v)
					left--
					progress = true
				}
			}
			for v := 0; v < n; v++ {
				if !removed[v] && inW[v] < eps {
					head = append(head, v)
					remove(v)
					left--
					progress = true
				}
			}
		}
		if left == 0 {
			break
		}
		bestV, bestD := -1, math.Inf(-1)
		for v := 0; v < n; v++ {
			if !removed[v] && outW[v]-inW[v] > bestD+eps {
				bestV, bestD = v, outW[v]-inW[v]
			}
		}
		head = append(head, bestV)
		remove(bestV)
		left--
	}
	rank := make([]int, n)
	for i, v := range head {
		rank[v] = i
	}
	for i, v := range tail {
		rank[v] = n - 1 - i
	}
	return rank
}

// placeInOrder finds centres x that keep the order and the minimum
// separations seps[i] (between i-1 and i) and minimise the weighted
// squared distance to desired: isotonic regression by pooling adjacent
// violators on the offset-shifted targets.
func placeInOrder(desired, weight, seps []float64) []float64 {
	n := len(desired)
	off := make([]float64, n)
	for i := 1; i < n; i++ {
		off[i] = off[i-1] + seps[i]
	}
	type block struct {
		sum, w float64
		n      int
	}
	var blocks []block
	for i := 0; i < n; i++ {
		w := math.Max(weight[i], 1e-6)
		blocks = append(blocks, block{(desired[i] - off[i]) * w, w, 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.w <= b.sum/b.w {
				break
			}
			blocks = blocks[:len(blocks)-2]
			blocks = append(blocks, block{a.sum + b.sum, a.w + b.w, a.n + b.n})
		}
	}
	out := make([]float64, 0, n)
	for _, b := range blocks {
		v := b.sum / b.w
		for k := 0; k < b.n; k++ {
			out = append(out, v+off[len(out)])
		}
	}
	return out
}

// assignPorts spreads the edges leaving a box's bottom (bottom) or
// entering its top across that edge of the box, ordered by where they go,
// each as close as it can be to the other end.
func assignPorts(chains [][]*lslot, boxes []rect, slotOf []*lslot, minX float64, bottom bool) []float64 {
	ports := make([]float64, len(chains))
	type req struct {
		edge   int
		toward float64
	}
	byNode := map[int][]req{}
	for i, chain := range chains {
		if chain == nil {
			continue
		}
		var node int
		var other *lslot
		if bottom {
			node, other = chain[0].node, chain[1]
		} else {
			node, other = chain[len(chain)-1].node, chain[len(chain)-2]
		}
		byNode[node] = append(byNode[node], req{i, other.x - minX})
	}
	nodes := make([]int, 0, len(byNode))
	for v := range byNode {
		nodes = append(nodes, v)
	}
	sort.Ints(nodes)
	for _, v := range nodes {
		rs := byNode[v]
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].toward < rs[b].toward })
		b := boxes[v]
		margin := math.Min(18, b.w/4)
		lo, hi := b.x+margin, b.right()-margin
		spacing := math.Min(26, (hi-lo)/math.Max(1, float64(len(rs)-1)))
		desired := make([]float64, len(rs))
		weight := make([]float64, len(rs))
		seps := make([]float64, len(rs))
		for i, r := range rs {
			// Lean towards the other end, but keep the bundle centred.
			even := lo + (hi-lo)*(float64(i)+0.5)/float64(len(rs))
			desired[i] = 0.5*math.Max(lo, math.Min(hi, r.toward)) + 0.5*even
			if len(rs) == 1 {
				desired[i] = math.Max(lo, math.Min(hi, r.toward))
			}
			weight[i] = 1
			if i > 0 {
				seps[i] = spacing
			}
		}
		xs := placeInOrder(desired, weight, seps)
		// Shift the bundle back inside the box if it spilled over.
		if len(xs) > 0 {
			if d := lo - xs[0]; d > 0 {
				for i := range xs {
					xs[i] += d
				}
			}
			if d := xs[len(xs)-1] - hi; d > 0 {
				for i := range xs {
					xs[i] -= d
				}
			}
		}
		for i, r := range rs {
			ports[r.edge] = xs[i]
		}
	}
	return ports
}
