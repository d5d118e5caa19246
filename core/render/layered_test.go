package render

import (
	"fmt"
	"math"
	"testing"
)

// randomLayout lays out a deterministic pseudo-random graph.
func randomLayout(seed uint32, n, m int) ([]lnode, []ledge, lresult) {
	rnd := func(k int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % k
	}
	nodes := make([]lnode, n)
	for i := range nodes {
		nodes[i] = lnode{w: 120 + float64(rnd(160)), h: 40 + float64(rnd(200))}
	}
	edges := make([]ledge, m)
	for i := range edges {
		a, b := rnd(n), rnd(n)
		if rnd(5) > 0 && a > b { // mostly downward, some cycles
			a, b = b, a
		}
		edges[i] = ledge{from: a, to: b, weight: float64(1 + rnd(50))}
	}
	return nodes, edges, layered(nodes, edges, layeredOpts{maxPerLayer: 5, gapX: 40, gapY: 78, dummyW: 14})
}

// routePoints samples a route as routePath draws it.
func routePoints(pts []pt) []pt {
	var out []pt
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		my := (a.y + b.y) / 2
		for k := 0; k <= 20; k++ {
			t := float64(k) / 20
			u := 1 - t
			// Cubic from a to b with control points (a.x, my), (b.x, my).
			x := u*u*u*a.x + 3*u*u*t*a.x + 3*u*t*t*b.x + t*t*t*b.x
			y := u*u*u*a.y + 3*u*u*t*my + 3*u*t*t*my + t*t*t*b.y
			out = append(out, pt{x, y})
		}
	}
	return out
}

// TestLayeredGeometry: on random graphs, boxes never overlap, every box
// has its size, and no edge passes through a box.
func TestLayeredGeometry(t *testing.T) {
	for seed := uint32(1); seed <= 25; seed++ {
		nodes, edges, lay := randomLayout(seed, 4+int(seed)%25, int(seed)*2)
		name := fmt.Sprintf("seed %d", seed)
		for i, b := range lay.boxes {
			if b.w != nodes[i].w || b.h != nodes[i].h || b.x < -0.01 || b.y < -0.01 || b.right() > lay.w+0.01 || b.bottom() > lay.h+0.01 {
				t.Errorf("%s: box %d %+v for node %+v in %vx%v", name, i, b, nodes[i], lay.w, lay.h)
			}
			for j := i + 1; j < len(lay.boxes); j++ {
				if b.overlaps(lay.boxes[j]) {
					t.Errorf("%s: boxes %d and %d overlap", name, i, j)
				}
			}
		}
		for ei, r := range lay.routes {
			if edges[ei].from == edges[ei].to {
				if r.pts != nil {
					t.Errorf("%s: self-loop %d has a route", name, ei)
				}
				continue
			}
			if len(r.pts) < 2 {
				t.Errorf("%s: edge %d has no route", name, ei)
				continue
			}
			for _, p := range routePoints(r.pts) {
				for bi, b := range lay.boxes {
					in := rect{b.x + 1, b.y + 1, b.w - 2, b.h - 2}
					if p.x > in.x && p.x < in.right() && p.y > in.y && p.y < in.bottom() {
						t.Errorf("%s: edge %d (%d→%d) passes through box %d at (%.0f, %.0f)", name, ei, edges[ei].from, edges[ei].to, bi, p.x, p.y)
						break
					}
				}
			}
			// Routes run downwards from the upper box to the lower one.
			for k := 1; k < len(r.pts); k++ {
				if r.pts[k].y < r.pts[k-1].y-0.01 {
					t.Errorf("%s: edge %d goes up between waypoints", name, ei)
				}
			}
		}
	}
}

func TestPlaceInOrder(t *testing.T) {
	cases := []struct {
		desired, weight, seps, want []float64
	}{
		{[]float64{0, 0, 0}, []float64{1, 1, 1}, []float64{0, 10, 10}, []float64{-10, 0, 10}},
		{[]float64{0, 100}, []float64{1, 1}, []float64{0, 10}, []float64{0, 100}},
		{[]float64{50, 0}, []float64{3, 1}, []float64{0, 20}, []float64{32.5, 52.5}},
	}
	for _, c := range cases {
		got := placeInOrder(c.desired, c.weight, c.seps)
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-9 {
				t.Errorf("placeInOrder(%v, %v, %v) = %v, want %v", c.desired, c.weight, c.seps, got, c.want)
				break
			}
		}
	}
}
