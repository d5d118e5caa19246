package render

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// cardRow is one side's cards before placement.
type cardRow struct {
	items     []graph.Neighbor
	more      int // neighbours not shown
	moreCalls int
	moreFiles int
	moreTests int
	one, many string
	cw, w, h  float64
}

func (d *impactDraw) cards(nbs []graph.Neighbor, one, many string) *cardRow {
	r := &cardRow{one: one, many: many, h: cardH}
	// Code before tests (tests have their own panel), else as ranked.
	nbs = append([]graph.Neighbor(nil), nbs...)
	sort.SliceStable(nbs, func(a, b int) bool {
		return !d.g.Nodes[nbs[a].Node].Test && d.g.Nodes[nbs[b].Node].Test
	})
	shown := nbs
	if len(nbs) > impactMaxPerSide {
		shown = nbs[:impactMaxPerSide-1]
		r.more = len(nbs) - len(shown)
		files := map[string]bool{}
		for _, nb := range nbs[len(shown):] {
			r.moreCalls += nb.Calls
			files[d.g.Nodes[nb.Node].Path] = true
			if d.g.Nodes[nb.Node].Test {
				r.moreTests++
			}
		}
		r.moreFiles = len(files)
	}
	r.items = shown
	n := len(shown)
	if r.more > 0 {
		n++
	}
	if n == 0 {
		r.cw, r.w = 300, 300
		r.h = 44
		return r
	}
	r.cw = math.Min(232, math.Max(150, (impactRowMax-float64(n-1)*impactGap)/float64(n)))
	r.w = float64(n)*r.cw + float64(n-1)*impactGap
	return r
}

// place returns the card rectangles, centred on axis (the "+N more" card
// last).
func (r *cardRow) place(axis, top float64) []rect {
	n := len(r.items)
	if r.more > 0 {
		n++
	}
	if n == 0 {
		return []rect{{axis - r.w/2, top, r.w, r.h}}
	}
	out := make([]rect, n)
	x := axis - r.w/2
	for i := range out {
		out[i] = rect{x, top, r.cw, r.h}
		x += r.cw + impactGap
	}
	return out
}

func (r *cardRow) draw(d *impactDraw, boxes []rect, ink, soft color.NRGBA) {
	sc := d.sc
	if len(r.items) == 0 && r.more == 0 {
		b := boxes[0]
		sc.box(b)
		sc.rect(b, 8, colPanel, stroke{c: colFaint, w: 1, dash: []float64{5, 4}})
		sc.text(b.cx(), b.y+27, "no "+r.many+" found", 13, italic, colMuted, middle)
		return
	}
	for i, nb := range r.items {
		d.neighborCard(boxes[i], nb, ink, soft)
	}
	if r.more > 0 {
		b := boxes[len(boxes)-1]
		sc.box(b)
		sc.rect(b, 8, colPanel, stroke{c: withAlpha(ink, 150), w: 1.2, dash: []float64{5, 4}})
		sc.text(b.cx(), b.y+32, "+"+comma(r.more)+" more", 16, bold, ink, middle)
		what := r.many
		if r.moreTests == r.more {
			what = "tests"
		} else if r.moreTests > 0 {
			what += fmt.Sprintf(" (%d tests)", r.moreTests)
		}
		sc.text(b.cx(), b.y+52, sc.fonts.fit(what, b.w-16, 11.5, regular), 11.5, regular, colText, middle)
		sc.text(b.cx(), b.y+68, sc.fonts.fit(join(counted(r.moreCalls, "call", "calls"), counted(r.moreFiles, "file", "files")), b.w-16, 10.5, regular), 10.5, regular, colMuted, middle)
	}
}

// neighborCard draws one caller or callee.
func (d *impactDraw) neighborCard(b rect, nb graph.Neighbor, ink, soft color.NRGBA) {
	sc, n := d.sc, d.g.Nodes[nb.Node]
	sc.box(b)
	border := stroke{c: withAlpha(ink, 160), w: 1.2}
	if weak(nb.Confidence) {
		border = stroke{c: colWeak, w: 1.2, dash: []float64{5, 3}}
	}
	sc.rect(b, 8, soft, border)
	sc.rect(rect{b.x, b.y + 8, 3.5, b.h - 16}, 1.5, ink, stroke{})
	pad := 12.0
	kind := n.Kind.String()
	sc.text(b.x+pad, b.y+17, kind, 9.5, bold, ink, start)
	switch {
	case weak(nb.Confidence):
		sc.text(b.right()-pad+2, b.y+17, nb.Confidence.String(), 9.5, bold, colWeak, end)
	case n.Test:
		sc.text(b.right()-pad+2, b.y+17, "test", 9.5, bold, colTest, end)
	}
	lines := sc.fonts.wrap(d.name(nb.Node), b.w-2*pad, 12.5, bold, 2)
	ty := b.y + 35
	for _, l := range lines {
		sc.text(b.x+pad, ty, l, 12.5, bold, colInk, start)
		ty += 15
	}
	sc.text(b.x+pad, b.bottom()-24, sc.fonts.fitLeft(n.Loc(), b.w-2*pad, 10.5, mono), 10.5, mono, colText, start)
	sc.text(b.x+pad, b.bottom()-9, sc.fonts.fit(siteText(nb), b.w-2*pad, 10, regular), 10, regular, colMuted, start)
}

// siteText says where the calls are: "L12, L40 in server.go".
func siteText(nb graph.Neighbor) string {
	var parts []string
	for _, s := range nb.Sites {
		var ls []string
		for _, l := range s.Lines {
			ls = append(ls, fmt.Sprintf("L%d", l))
		}
		if len(ls) == 0 {
			continue
		}
		base := s.Path[strings.LastIndexByte(s.Path, '/')+1:]
		parts = append(parts, strings.Join(ls, ", ")+" in "+base)
	}
	if len(parts) == 0 {
		return counted(nb.Calls, "call", "calls")
	}
	return "calls at " + strings.Join(parts, "; ")
}

// arrows draws the edges between one side's cards and the centre card,
// with the call count in a pill at the far end.
func (d *impactDraw) arrows(r *cardRow, boxes []rect, cb rect, callers bool) {
	sc := d.sc
	type edge struct {
		b     rect
		calls int
		conf  graph.Confidence
		more  bool
	}
	var es []edge
	for i, nb := range r.items {
		es = append(es, edge{boxes[i], nb.Calls, nb.Confidence, false})
	}
	if r.more > 0 {
		es = append(es, edge{boxes[len(boxes)-1], r.moreCalls, graph.Resolved, true})
	}
	if len(es) == 0 {
		return
	}
	// Ports along the centre card's edge, in the cards' order.
	lo, hi := cb.x+24, cb.right()-24
	for i, e := range es {
		px := cb.cx()
		if len(es) > 1 {
			px = lo + (hi-lo)*float64(i)/float64(len(es)-1)
		}
		// Lean each port towards its card, so nearly vertical arrows stay so.
		px = 0.5*px + 0.5*math.Max(lo, math.Min(hi, e.b.cx()))
		col := colAccent
		if callers {
			col = colCaller
		} else {
			col = colCallee
		}
		line := stroke{c: withAlpha(col, 190), w: 1.2 + math.Min(3, math.Log1p(float64(e.calls)))}
		if weak(e.conf) {
			col = colWeak
			line = stroke{c: colWeak, w: 1.4, dash: []float64{6, 4}}
		}
		if e.more {
			col = colMuted
			line = stroke{c: withAlpha(colMuted, 200), w: 1.2, dash: []float64{2, 3}}
		}
		var from, to pt
		if callers {
			from, to = pt{e.b.cx(), e.b.bottom()}, pt{px, cb.y}
		} else {
			from, to = pt{px, cb.bottom()}, pt{e.b.cx(), e.b.y}
		}
		head := 8 + line.w
		stem := to
		stem.y -= head * 0.8
		sc.path(routePath([]pt{from, stem}), none, line)
		sc.path(arrowHead(to, 0, 1, head), col, stroke{})
		label := "×" + comma(e.calls)
		if callers {
			sc.pill(from.x, from.y+17, label, 10.5, bold, colPanel, col, withAlpha(col, 130))
		} else {
			sc.pill(to.x, to.y-20, label, 10.5, bold, colPanel, col, withAlpha(col, 130))
		}
	}
}

// centerCard measures the target's card.
type centerCard struct {
	w, h  float64
	title []string
	sig   []string
	info  []string // extra lines: counts, samples
}

func (d *impactDraw) centerCard() *centerCard {
	sc, g := d.sc, d.g
	i := d.im.Target
	n := g.Nodes[i]
	c := &centerCard{w: 520}
	if l := sc.measure(d.name(i), 18, bold) + 48; l > c.w {
		c.w = math.Min(680, l)
	}
	inner := c.w - 48
	c.title = sc.fonts.wrap(d.name(i), inner, 18, bold, 2)
	if n.Signature != "" && n.Kind != graph.Module {
		c.sig = sc.fonts.wrap(n.Signature, inner, 12, mono, 3)
	}
	switch n.Kind {
	case graph.Module, graph.Class:
		var classes, funcs []string
		for _, k := range g.Descendants(i) {
			m := g.Nodes[k]
			switch m.Kind {
			case graph.Class:
				classes = append(classes, m.Name)
			case graph.Func:
				funcs = append(funcs, m.Name)
			}
		}
		what := join(counted(len(classes), "class", "classes"), counted(len(funcs), "function", "functions"))
		if n.Kind == graph.Class {
			what = counted(len(funcs), "method", "methods")
			if len(classes) > 0 {
				what = join(what, counted(len(classes), "nested class", "nested classes"))
			}
		}
		c.info = append(c.info, "contains "+what)
		sample := append(classes, funcs...)
		if len(sample) > 0 {
			c.info = append(c.info, sc.fonts.wrap(strings.Join(sample, ", "), inner, 11.5, mono, 2)...)
		}
	}
	c.h = 34 + float64(len(c.title))*22 + 20
	if len(c.sig) > 0 {
		c.h += float64(len(c.sig))*16 + 8
	}
	c.h += float64(len(c.info))*16 + 18
	return c
}

func (c *centerCard) draw(d *impactDraw, b rect) {
	sc, n := d.sc, d.g.Nodes[d.im.Target]
	sc.box(b)
	sc.rect(rect{b.x - 4, b.y - 4, b.w + 8, b.h + 8}, 14, withAlpha(colTarget, 40), stroke{})
	sc.rect(b, 11, colTargetSoft, stroke{c: colTarget, w: 2})
	x := b.x + 24
	bw := sc.badge(x, b.y+22, strings.ToUpper(n.Kind.String()), 10, colTarget, colPanel)
	sc.text(x+bw+10, b.y+26, "target", 11, italic, colMuted, start)
	y := b.y + 34 + 18
	for _, l := range c.title {
		sc.text(x, y, l, 18, bold, colInk, start)
		y += 22
	}
	y -= 2
	sc.text(x, y, sc.fonts.fitLeft(locRange(n), b.w-48, 12, mono), 12, mono, colText, start)
	y += 20
	if len(c.sig) > 0 {
		y += 4
		for _, l := range c.sig {
			sc.text(x, y, l, 12, mono, hex(0x5c3c00), start)
			y += 16
		}
		y += 4
	}
	for k, l := range c.info {
		f, col := regular, colText
		if k > 0 {
			f, col = mono, colMuted
		}
		sc.text(x, y, l, 11.5, f, col, start)
		y += 16
	}
}

// locRange is path:start-end.
func locRange(n *graph.Node) string {
	if n.StartLine == 0 {
		return n.Path
	}
	if n.EndLine > n.StartLine {
		return fmt.Sprintf("%s:%d-%d", n.Path, n.StartLine, n.EndLine)
	}
	return n.Loc()
}
