package render

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// Impact view geometry.
const (
	impactMaxPerSide = 8 // boxes per side, "+N more" included (seed 000)
	impactRowMax     = 1380.0
	impactGap        = 16.0
	impactChannel    = 96.0
	cardH            = 92.0
)

// Impact draws the blast radius of node (an index into g.Nodes): the
// target in the centre, its callers above and callees below (aggregated
// to classes when the target is a class or module; at most 8 boxes a side,
// then "+N more"), call counts on the arrows, weak edges (name-match,
// inferred) dashed, and the tests its inbound slice reaches within depth
// (<= 0: unlimited).
func Impact(g *graph.Graph, node int, depth int, opt Options) *Picture {
	sc := newScene("impact")
	if g == nil || len(g.Nodes) == 0 {
		emptyPicture(sc, "Impact", "The graph is empty.", "Index a directory that holds source files (ccd init), then ask again.")
		return newPicture(sc, opt)
	}
	if node < 0 || node >= len(g.Nodes) {
		emptyPicture(sc, "Impact", fmt.Sprintf("No symbol number %d: the graph has %s.", node, plural(len(g.Nodes), "node", "nodes")),
			"Look the symbol up first (ccd query NAME) and pass its node.")
		return newPicture(sc, opt)
	}
	im := g.Impact(node, depth, graph.Filter{})
	d := &impactDraw{sc: sc, g: g, im: im, depth: depth}
	sc.title = "impact of " + d.name(node)
	d.draw()
	return newPicture(sc, opt)
}

type impactDraw struct {
	sc    *scene
	g     *graph.Graph
	im    graph.Impact
	depth int
}

// name is how a node is called in the picture: its qualified name, or
// its path for a module.
func (d *impactDraw) name(i int) string {
	n := d.g.Nodes[i]
	if n.Kind == graph.Module || n.Qual == "" {
		return n.Path
	}
	return n.Qual
}

func weak(c graph.Confidence) bool { return c < graph.Resolved }

func (d *impactDraw) draw() {
	sc, g, im := d.sc, d.g, d.im
	depthText := fmt.Sprintf("depth %d", d.depth)
	if d.depth <= 0 {
		depthText = "unlimited depth"
	}

	// Header.
	y := margin
	sc.text(margin, y+22, "Impact", 24, bold, colInk, start)
	tw := sc.measure("Impact", 24, bold) + 12
	sc.text(margin+tw, y+22, sc.fonts.fitLeft(d.name(im.Target), impactRowMax-tw, 18, regular), 18, regular, colMuted, start)
	files := im.Files(g)
	stats := join(plural(len(im.Callers), "caller", "callers"),
		fmt.Sprintf("%s upstream in %s (%s)", comma(len(im.Upstream)), plural(len(files), "file", "files"), depthText),
		plural(len(im.Callees), "callee", "callees"), plural(len(im.Tests), "affected test", "affected tests"))
	sc.text(margin, y+48, stats, 13, regular, colText, start)
	y += 64
	legendW := d.legend(margin, y)
	y += 40

	// Rows and the centre card, centred on one axis.
	up := d.cards(im.Callers, "caller", "callers")
	down := d.cards(im.Callees, "callee", "callees")
	center := d.centerCard()
	width := math.Max(math.Max(up.w, down.w), center.w)
	width = math.Max(width, math.Max(legendW, sc.measure(stats, 13, regular)))
	axis := margin + width/2

	sc.text(margin, y+12, "CALLERS", 11, bold, colCaller, start)
	sc.text(margin+sc.measure("CALLERS", 11, bold)+10, y+12, d.sideNote(len(im.Callers), "call it"), 11, regular, colMuted, start)
	y += 22
	upTop := y
	y += up.h + impactChannel
	cb := rect{axis - center.w/2, y, center.w, center.h}
	y += center.h + impactChannel
	downTop := y
	y += down.h
	sc.text(margin, y+20, "CALLEES", 11, bold, colCallee, start)
	sc.text(margin+sc.measure("CALLEES", 11, bold)+10, y+20, d.sideNote(len(im.Callees), "it calls"), 11, regular, colMuted, start)
	y += 22

	upBoxes := up.place(axis, upTop)
	downBoxes := down.place(axis, downTop)
	d.arrows(up, upBoxes, cb, true)
	d.arrows(down, downBoxes, cb, false)
	up.draw(d, upBoxes, colCaller, colCallerSoft)
	down.draw(d, downBoxes, colCallee, colCalleeSoft)
	center.draw(d, cb)

	y += 36
	y = d.tests(margin, y, width)
	sc.w = math.Ceil(width + 2*margin)
	sc.h = math.Ceil(y + margin)
}

// sideNote is the grey text after CALLERS / CALLEES.
func (d *impactDraw) sideNote(n int, verb string) string {
	if n == 0 {
		return "none found"
	}
	return fmt.Sprintf("%s %s directly", plural(n, "symbol", "symbols"), verb)
}

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
		sc.text(b.cx(), b.y+68, sc.fonts.fit(join(plural(r.moreCalls, "call", "calls"), plural(r.moreFiles, "file", "files")), b.w-16, 10.5, regular), 10.5, regular, colMuted, middle)
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
		return plural(nb.Calls, "call", "calls")
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
		what := join(plural(len(classes), "class", "classes"), plural(len(funcs), "function", "functions"))
		if n.Kind == graph.Class {
			what = plural(len(funcs), "method", "methods")
			if len(classes) > 0 {
				what = join(what, plural(len(classes), "nested class", "nested classes"))
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

// tests draws the affected-tests panel at (x, y) and returns its bottom.
func (d *impactDraw) tests(x, y, w float64) float64 {
	sc, g := d.sc, d.g
	ts := d.im.Tests
	depthText := fmt.Sprintf("within depth %d", d.depth)
	if d.depth <= 0 {
		depthText = "at any depth"
	}
	cols := max(1, int((w-24)/300))
	maxRows := 4
	shown := len(ts)
	if shown > cols*maxRows {
		shown = cols*maxRows - 1
	}
	rows := (shown + cols - 1) / cols
	if shown < len(ts) {
		rows = maxRows
	}
	h := 44 + float64(max(rows, 1))*20 + 8
	b := rect{x, y, w, h}
	sc.box(b)
	sc.rect(b, 10, colTestSoft, stroke{c: withAlpha(colTest, 120), w: 1})
	title := fmt.Sprintf("Affected tests (%d)", len(ts))
	sc.text(x+16, y+24, title, 13, bold, colTest, start)
	sc.text(x+24+sc.measure(title, 13, bold), y+24, "tests whose call paths reach the target "+depthText, 11.5, regular, colMuted, start)
	if len(ts) == 0 {
		sc.text(x+16, y+50, "No test reaches it: a change here is unguarded. Consider adding one.", 12, italic, colText, start)
		return b.bottom()
	}
	colW := (w - 24) / float64(cols)
	for k := 0; k < shown; k++ {
		t := g.Nodes[ts[k]]
		cx := x + 16 + float64(k/rows)*colW
		cy := y + 50 + float64(k%rows)*20
		label := d.name(ts[k])
		if t.Kind != graph.Module {
			label = t.Name
		}
		base := t.Path[strings.LastIndexByte(t.Path, '/')+1:]
		lw := sc.measure(label, 12, bold)
		maxL := colW - 24
		if lw+8+sc.measure(base, 10.5, mono) > maxL {
			lw = math.Min(lw, maxL*0.6)
		}
		sc.rect(rect{cx, cy - 8, 6, 6}, 3, colTest, stroke{})
		sc.text(cx+12, cy-1, sc.fonts.fit(label, lw, 12, bold), 12, bold, colInk, start)
		sc.text(cx+12+lw+8, cy-1, sc.fonts.fitLeft(base, maxL-lw-8, 10.5, mono), 10.5, mono, colMuted, start)
	}
	if shown < len(ts) {
		k := shown
		cx := x + 16 + float64(k/rows)*colW
		cy := y + 50 + float64(k%rows)*20
		sc.text(cx+12, cy-1, "+"+comma(len(ts)-shown)+" more tests", 12, italic, colText, start)
	}
	return b.bottom()
}

// legend draws the key and returns its width.
func (d *impactDraw) legend(x, y float64) float64 {
	sc := d.sc
	x0, cy := x, y+10
	line := func(col color.NRGBA, dash []float64, label string) {
		sc.path(fmt.Sprintf("M %s %s L %s %s", num(x), num(cy), num(x+26), num(cy)), none, stroke{c: col, w: 2, dash: dash})
		sc.path(arrowHead(pt{x + 34, cy}, 1, 0, 9), col, stroke{})
		x += 40
		sc.text(x, cy+4, label, 11.5, regular, colText, start)
		x += sc.measure(label, 11.5, regular) + 22
	}
	swatch := func(fill, border color.NRGBA, label string) {
		sc.rect(rect{x, cy - 8, 28, 16}, 4, fill, stroke{c: border, w: 1})
		x += 34
		sc.text(x, cy+4, label, 11.5, regular, colText, start)
		x += sc.measure(label, 11.5, regular) + 22
	}
	swatch(colTargetSoft, colTarget, "target")
	swatch(colCallerSoft, colCaller, "caller")
	swatch(colCalleeSoft, colCallee, "callee")
	line(colCaller, nil, "call (×N call sites)")
	line(colWeak, []float64{6, 4}, "weak: name-match / inferred")
	return x - x0 - 22
}
