package render

import (
	"math"
	"sort"
)

// drawLinks draws the chosen links along their routes (offset by ox, oy),
// each with an arrowhead and a count pill near the head; a pill that would
// cover a card or another pill moves away from the head, or is left out.
func (a *archDraw) drawLinks(lay lresult, ox, oy float64) {
	sc, m := a.sc, a.m
	maxCount := 1
	for _, l := range a.links {
		maxCount = max(maxCount, l.count)
	}
	// Arrows over the district fills, labels over the arrows.
	var labels []rect
	for i := range m.districts {
		b := lay.boxes[i]
		labels = append(labels, rect{b.x + ox, b.y + oy, b.w, b.h})
	}
	type pending struct {
		route []pt // top to bottom
		up    bool
		label string
	}
	var pills []pending
	order := make([]int, len(a.links))
	for i := range order {
		order[i] = i
	}
	// Light arrows first so heavy ones stay on top.
	sort.SliceStable(order, func(x, y int) bool { return a.links[order[x]].count < a.links[order[y]].count })
	for _, i := range order {
		l, r := a.links[i], lay.routes[i]
		if len(r.pts) < 2 {
			continue
		}
		pts := make([]pt, len(r.pts))
		for k, p := range r.pts {
			pts[k] = pt{p.x + ox, p.y + oy}
		}
		route := append([]pt(nil), pts...)
		col := colAccent
		if r.up {
			col = colCycle
		}
		w := 1.2 + 3.2*math.Sqrt(float64(l.count)/float64(maxCount))
		head := 7 + w*1.6
		// Shorten the line at the arrowhead end so its round cap does not
		// poke through the tip.
		var tip pt
		var dir float64
		if r.up {
			tip, dir = pts[0], -1
			pts[0].y += head * 0.8
		} else {
			tip, dir = pts[len(pts)-1], 1
			pts[len(pts)-1].y -= head * 0.8
		}
		// One path per segment keeps each rasterised box small (a long
		// route's bounding box would span the canvas); the colour is
		// blended in advance so the overlapping joints do not darken.
		line := stroke{c: over(withAlpha(col, 170), colBackground), w: w}
		for k := 1; k < len(pts); k++ {
			sc.path(routePath(pts[k-1:k+1]), none, line)
		}
		sc.path(arrowHead(tip, 0, dir, head), col, stroke{})
		pills = append(pills, pending{route: route, up: r.up, label: comma(l.count)})
	}
	head := func(p pending) pt {
		if p.up {
			return p.route[0]
		}
		return p.route[len(p.route)-1]
	}
	sort.SliceStable(pills, func(x, y int) bool {
		hx, hy := head(pills[x]), head(pills[y])
		if hx.y != hy.y {
			return hx.y < hy.y
		}
		return hx.x < hy.x
	})
	for _, p := range pills {
		col := colAccent
		if p.up {
			col = colCycle
		}
		w := sc.measure(p.label, 10.5, bold) + 10
		h := 16.0
		// Candidate places along the route: near the arrowhead first,
		// then near the tail.
		first, last := p.route[:2], p.route[len(p.route)-2:]
		var cands []pt
		for step := 0.0; step < 4; step++ {
			if p.up {
				cands = append(cands, onSegment(first, first[0].y+20+step*18))
			} else {
				cands = append(cands, onSegment(last, last[1].y-20-step*18))
			}
		}
		for step := 0.0; step < 3; step++ {
			if p.up {
				cands = append(cands, onSegment(last, last[1].y-20-step*18))
			} else {
				cands = append(cands, onSegment(first, first[0].y+20+step*18))
			}
		}
		for _, c := range cands {
			r := rect{c.x - w/2, c.y - h/2, w, h}
			clash := false
			for _, q := range labels {
				if r.overlaps(q) {
					clash = true
					break
				}
			}
			if !clash {
				sc.pill(c.x, c.y, p.label, 10.5, bold, colPanel, col, withAlpha(col, 120))
				labels = append(labels, r)
				break
			}
		}
	}
}

// onSegment returns the point at height y on the route segment from
// seg[0] down to seg[1], drawn as routePath draws it (a cubic with
// vertical tangents); y is clamped to the segment.
func onSegment(seg []pt, y float64) pt {
	a, b := seg[0], seg[1]
	y = math.Max(a.y, math.Min(b.y, y))
	if math.Abs(a.x-b.x) < 0.5 || b.y-a.y < 1e-9 {
		return pt{a.x, y}
	}
	my := (a.y + b.y) / 2
	at := func(t float64) (float64, float64) {
		u := 1 - t
		return u*u*u*a.x + 3*u*u*t*a.x + 3*u*t*t*b.x + t*t*t*b.x,
			u*u*u*a.y + 3*u*u*t*my + 3*u*t*t*my + t*t*t*b.y
	}
	lo, hi := 0.0, 1.0 // y grows with t
	for i := 0; i < 30; i++ {
		mid := (lo + hi) / 2
		if _, ym := at(mid); ym < y {
			lo = mid
		} else {
			hi = mid
		}
	}
	x, _ := at((lo + hi) / 2)
	return pt{x, y}
}
