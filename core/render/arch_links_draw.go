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
		at    pt
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
		pills = append(pills, pending{at: tip, up: r.up, label: comma(l.count)})
	}
	sort.SliceStable(pills, func(x, y int) bool {
		if pills[x].at.y != pills[y].at.y {
			return pills[x].at.y < pills[y].at.y
		}
		return pills[x].at.x < pills[y].at.x
	})
	for _, p := range pills {
		col := colAccent
		if p.up {
			col = colCycle
		}
		w := sc.measure(p.label, 10.5, bold) + 10
		h := 16.0
		placed := false
		for step := 0; step < 4 && !placed; step++ {
			cy := p.at.y - 20 - float64(step)*18
			if p.up {
				cy = p.at.y + 20 + float64(step)*18
			}
			r := rect{p.at.x - w/2, cy - h/2, w, h}
			clash := false
			for _, q := range labels {
				if r.overlaps(q) {
					clash = true
					break
				}
			}
			if !clash {
				sc.pill(p.at.x, cy, p.label, 10.5, bold, colPanel, col, withAlpha(col, 120))
				labels = append(labels, r)
				placed = true
			}
		}
	}

}
