package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/ccd-dev/ccd/core/graph"
)

// Impact view geometry.
const (
	impactMaxPerSide = 8 // boxes per side, "+N more" included
	impactRowMax     = 1380.0
	impactGap        = 16.0
	impactChannel    = 96.0
	cardH            = 92.0
)

// Impact draws the blast radius of node (an index into g.Nodes): the
// target in the centre, its callers above and callees below (aggregated
// to classes when the target is a class or module; at most 8 boxes a side,
// then "+N more"), call counts on the arrows, weak edges (name-match,
// inferred) dashed, and the tests that reach it through its callers at any
// depth. depth bounds the upstream count shown in the subtitle (<= 0:
// unlimited).
func Impact(g *graph.Graph, node int, depth int, opt Options) *Picture {
	sc := newScene("impact")
	if g == nil || len(g.Nodes) == 0 {
		emptyPicture(sc, "Impact", "The graph is empty.", "Index a directory that holds source files (ccd init), then ask again.")
		return newPicture(sc, opt)
	}
	if node < 0 || node >= len(g.Nodes) {
		emptyPicture(sc, "Impact", fmt.Sprintf("No symbol number %d: the graph has %s.", node, counted(len(g.Nodes), "node", "nodes")),
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
	stats := join(counted(len(im.Callers), "caller", "callers"),
		fmt.Sprintf("%s upstream in %s (%s)", comma(len(im.Upstream)), counted(len(files), "file", "files"), depthText),
		counted(len(im.Callees), "callee", "callees"), counted(len(im.Tests), "affected test", "affected tests"))
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
	if n == 1 && verb == "call it" {
		verb = "calls it"
	}
	return fmt.Sprintf("%s %s directly", counted(n, "symbol", "symbols"), verb)
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
