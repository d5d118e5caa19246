package render

import (
	"math"
	"sort"
)

// A layered (Sugiyama-style) layout: cycles are broken by reversing a few
// edges, nodes go into layers top-down with a width limit, long edges get
// dummy waypoints so they pass between boxes instead of through them,
// barycentre sweeps reduce crossings, and a least-squares placement pulls
// each box towards its neighbours without letting boxes overlap.

// lnode is a box to place; bottom boxes go below all the others, in
// layers of their own.
type lnode struct {
	w, h   float64
	bottom bool
}

type ledge struct {
	from, to int
	weight   float64
}

// lroute is an edge's path from the upper box's bottom to the lower box's
// top. up is set when the edge was reversed to break a cycle: it then
// points from the lower box to the upper one.
type lroute struct {
	pts []pt
	up  bool
}

type layeredOpts struct {
	maxPerLayer int
	gapX        float64 // between neighbouring boxes
	gapY        float64 // channel between layers
	dummyW      float64 // width a passing edge takes in a layer
}

type lresult struct {
	boxes  []rect
	routes []lroute // parallel to the edges; nil pts for self-loops
	w, h   float64
}

// lslot is a box or an edge's waypoint in a layer.
type lslot struct {
	node int // real node, or -1 for a dummy
	w    float64
	x    float64 // centre
}

func layered(nodes []lnode, edges []ledge, o layeredOpts) lresult {
	n := len(nodes)
	res := lresult{boxes: make([]rect, n), routes: make([]lroute, len(edges))}
	if n == 0 {
		return res
	}
	// 1. Break cycles: order nodes greedily (sinks last, sources first,
	// else the node with the largest out-minus-in weight), reverse edges
	// that point backwards in that order.
	rank := feedbackOrder(n, edges)
	type dag struct {
		u, v int
		up   bool
	}
	dedges := make([]dag, len(edges))
	preds := make([][]int, n)
	succs := make([][]int, n)
	connected := make([]bool, n)
	for i, e := range edges {
		if e.from == e.to {
			dedges[i] = dag{-1, -1, false}
			continue
		}
		d := dag{e.from, e.to, false}
		if rank[e.from] > rank[e.to] {
			d = dag{e.to, e.from, true}
		}
		dedges[i] = d
		preds[d.v] = append(preds[d.v], d.u)
		succs[d.u] = append(succs[d.u], d.v)
		connected[d.u], connected[d.v] = true, true
	}

	// 2. Layers: topological order by rank; each node goes one below its
	// lowest predecessor, or further down while its layer is full.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return rank[order[a]] < rank[order[b]] })
	layer := make([]int, n)
	count := map[int]int{}
	maxLayer := -1
	for _, v := range order {
		if !connected[v] || nodes[v].bottom {
			continue
		}
		l := 0
		for _, u := range preds[v] {
			l = max(l, layer[u]+1)
		}
		for o.maxPerLayer > 0 && count[l] >= o.maxPerLayer {
			l++
		}
		layer[v] = l
		count[l]++
		maxLayer = max(maxLayer, l)
	}
	// Sources sink to just above their highest successor when there is
	// room, which shortens their edges (and the dummies they need).
	for k := len(order) - 1; k >= 0; k-- {
		v := order[k]
		if !connected[v] || nodes[v].bottom || len(preds[v]) > 0 {
			continue
		}
		target := math.MaxInt
		for _, w := range succs[v] {
			target = min(target, layer[w]-1)
		}
		for l := target; l > layer[v]; l-- {
			if o.maxPerLayer <= 0 || count[l] < o.maxPerLayer {
				count[layer[v]]--
				layer[v] = l
				count[l]++
				break
			}
		}
	}
	// Unconnected nodes fill free places from the bottom layer up, then
	// new layers below; bottom nodes get layers of their own below those.
	for _, v := range order {
		if connected[v] || nodes[v].bottom {
			continue
		}
		placed := false
		for l := maxLayer; l >= 0 && !placed; l-- {
			if o.maxPerLayer <= 0 || count[l] < o.maxPerLayer {
				layer[v], placed = l, true
			}
		}
		if !placed {
			maxLayer++
			layer[v] = maxLayer
		}
		count[layer[v]]++
	}
	first := maxLayer + 1
	for _, v := range order {
		if !nodes[v].bottom {
			continue
		}
		l := first
		for _, u := range preds[v] {
			l = max(l, layer[u]+1)
		}
		for o.maxPerLayer > 0 && count[l] >= o.maxPerLayer {
			l++
		}
		layer[v] = l
		count[l]++
		maxLayer = max(maxLayer, l)
	}
	nl := maxLayer + 1
	// Edges out of bottom nodes may now point upwards: flip them.
	for i, d := range dedges {
		if d.u >= 0 && layer[d.u] > layer[d.v] {
			dedges[i] = dag{d.v, d.u, !d.up}
		}
	}

	// 3. Slots: real nodes, then dummies for edges spanning layers.
	slots := make([][]*lslot, nl)
	slotOf := make([]*lslot, n)
	for _, v := range order {
		s := &lslot{node: v, w: nodes[v].w}
		slots[layer[v]] = append(slots[layer[v]], s)
		slotOf[v] = s
	}
	chains := make([][]*lslot, len(edges)) // per edge: upper, dummies..., lower
	weightOf := func(i int) float64 { return 1 + math.Log1p(math.Max(0, edges[i].weight)) }
	for i, d := range dedges {
		if d.u < 0 {
			continue
		}
		chain := []*lslot{slotOf[d.u]}
		for l := layer[d.u] + 1; l < layer[d.v]; l++ {
			s := &lslot{node: -1, w: o.dummyW}
			slots[l] = append(slots[l], s)
			chain = append(chain, s)
		}
		chain = append(chain, slotOf[d.v])
		chains[i] = chain
	}
	// Links between neighbouring slots, weighted by the edge they carry.
	type link struct {
		a, b *lslot
		w    float64
	}
	var links []link
	for i, chain := range chains {
		if chain == nil {
			continue
		}
		w := weightOf(i)
		if len(chain) > 2 {
			w *= 1.5 // keep long edges straight
		}
		for k := 0; k+1 < len(chain); k++ {
			links = append(links, link{chain[k], chain[k+1], w})
		}
	}
	up := map[*lslot][]link{}   // links to the layer above
	down := map[*lslot][]link{} // links to the layer below
	for _, lk := range links {
		down[lk.a] = append(down[lk.a], lk)
		up[lk.b] = append(up[lk.b], lk)
	}

	// 4. Order layers by barycentre sweeps, keeping the best ordering.
	pos := map[*lslot]float64{}
	setPos := func() {
		for _, row := range slots {
			for i, s := range row {
				pos[s] = float64(i)
			}
		}
	}
	setPos()
	crossings := func() int {
		c := 0
		for l := 0; l+1 < nl; l++ {
			var segs [][2]float64
			for _, s := range slots[l] {
				for _, lk := range down[s] {
					segs = append(segs, [2]float64{pos[lk.a], pos[lk.b]})
				}
			}
			for i := range segs {
				for j := i + 1; j < len(segs); j++ {
					if (segs[i][0]-segs[j][0])*(segs[i][1]-segs[j][1]) < 0 {
						c++
					}
				}
			}
		}
		return c
	}
	best := crossings()
	bestOrder := snapshot(slots)
	for iter := 0; iter < 16 && best > 0; iter++ {
		downward := iter%2 == 0
		for k := 1; k < nl; k++ {
			l := k
			if !downward {
				l = nl - 1 - k
			}
			row := slots[l]
			key := make(map[*lslot]float64, len(row))
			for _, s := range row {
				var nbs []link
				if downward {
					nbs = up[s]
				} else {
					nbs = down[s]
				}
				sum, wsum := 0.0, 0.0
				for _, lk := range nbs {
					other := lk.a
					if !downward {
						other = lk.b
					}
					sum += pos[other] * lk.w
					wsum += lk.w
				}
				if wsum > 0 {
					key[s] = sum / wsum
				} else {
					key[s] = pos[s]
				}
			}
			sort.SliceStable(row, func(a, b int) bool { return key[row[a]] < key[row[b]] })
			for i, s := range row {
				pos[s] = float64(i)
			}
		}
		if c := crossings(); c < best {
			best = c
			bestOrder = snapshot(slots)
		}
	}
	slots = bestOrder
	setPos()

	// 5. Horizontal placement: pack, then pull towards neighbours.
	for _, row := range slots {
		x := 0.0
		for i, s := range row {
			if i > 0 {
				x += gapBetween(row[i-1], s, o)
			}
			s.x = x + s.w/2
			x += s.w
		}
	}
	for iter := 0; iter < 8; iter++ {
		for k := 0; k < nl; k++ {
			l := k
			useUp := iter%2 == 0
			if !useUp {
				l = nl - 1 - k
			}
			row := slots[l]
			desired := make([]float64, len(row))
			weight := make([]float64, len(row))
			for i, s := range row {
				nbs := up[s]
				if !useUp {
					nbs = down[s]
				}
				if iter >= 6 { // final passes balance both sides
					nbs = append(append([]link(nil), up[s]...), down[s]...)
				}
				sum, wsum := 0.0, 0.0
				for _, lk := range nbs {
					other := lk.a
					if other == s {
						other = lk.b
					}
					sum += other.x * lk.w
					wsum += lk.w
				}
				switch {
				case wsum > 0:
					desired[i], weight[i] = sum/wsum, wsum
				case len(up[s])+len(down[s]) == 0 && i > 0:
					// Unlinked boxes stay next to their left neighbour.
					desired[i], weight[i] = row[i-1].x+row[i-1].w/2+gapBetween(row[i-1], s, o)+s.w/2, 0.05
				default:
					desired[i], weight[i] = s.x, 0.05
				}
			}
			seps := make([]float64, len(row))
			for i := 1; i < len(row); i++ {
				seps[i] = row[i-1].w/2 + gapBetween(row[i-1], row[i], o) + row[i].w/2
			}
			xs := placeInOrder(desired, weight, seps)
			for i, s := range row {
				s.x = xs[i]
			}
		}
	}
	minX := math.Inf(1)
	maxX := math.Inf(-1)
	for _, row := range slots {
		for _, s := range row {
			minX = math.Min(minX, s.x-s.w/2)
			maxX = math.Max(maxX, s.x+s.w/2)
		}
	}

	// 6. Vertical placement: boxes top-aligned in their layer.
	tops := make([]float64, nl)
	heights := make([]float64, nl)
	y := 0.0
	for l := 0; l < nl; l++ {
		for _, s := range slots[l] {
			if s.node >= 0 {
				heights[l] = math.Max(heights[l], nodes[s.node].h)
			}
		}
		tops[l] = y
		y += heights[l] + o.gapY
	}
	res.w = maxX - minX
	res.h = y - o.gapY
	for v := 0; v < n; v++ {
		s := slotOf[v]
		res.boxes[v] = rect{s.x - s.w/2 - minX, tops[layer[v]], nodes[v].w, nodes[v].h}
	}

	// 7. Routes through the waypoints, with ports spread along box edges.
	layerOf := map[*lslot]int{}
	for l, row := range slots {
		for _, s := range row {
			layerOf[s] = l
		}
	}
	bottomPorts := assignPorts(chains, res.boxes, slotOf, minX, true)
	topPorts := assignPorts(chains, res.boxes, slotOf, minX, false)
	for i, chain := range chains {
		if chain == nil {
			continue
		}
		u := chain[0].node
		ub := res.boxes[u]
		px := bottomPorts[i]
		pts := []pt{{px, ub.bottom()}}
		if lb := tops[layer[u]] + heights[layer[u]]; lb > ub.bottom()+0.5 {
			pts = append(pts, pt{px, lb})
		}
		for _, d := range chain[1 : len(chain)-1] {
			l := layerOf[d]
			x := d.x - minX
			pts = append(pts, pt{x, tops[l]}, pt{x, tops[l] + heights[l]})
		}
		v := chain[len(chain)-1].node
		pts = append(pts, pt{topPorts[i], res.boxes[v].y})
		res.routes[i] = lroute{pts: pts, up: dedges[i].up}
	}
	return res
}

func gapBetween(a, b *lslot, o layeredOpts) float64 {
	if a.node < 0 && b.node < 0 {
		return o.gapX / 4
	}
	if a.node < 0 || b.node < 0 {
		return o.gapX / 2
	}
	return o.gapX
}

func snapshot(slots [][]*lslot) [][]*lslot {
	out := make([][]*lslot, len(slots))
	for i, row := range slots {
		out[i] = append([]*lslot(nil), row...)
	}
	return out
}
