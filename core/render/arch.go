package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// Architecture view geometry (user units = 1x pixels).
const (
	margin       = 32.0
	districtW    = 272.0
	districtHead = 50.0
	rowH         = 21.0
	districtPad  = 10.0
	maxDistricts = 24
)

// Architecture draws the workspace as districts (directories) of modules
// with per-module class and function counts, hub modules emphasised and
// import arrows aggregated between districts. Large workspaces are
// summarised: at most 24 districts, a few modules each, the strongest
// links, and "+N more" everywhere something is left out.
func Architecture(g *graph.Graph, repoName string, opt Options) *Picture {
	if repoName == "" {
		repoName = "workspace"
	}
	sc := newScene(repoName + " — architecture")
	if g == nil || g.Count(graph.Module) == 0 {
		emptyPicture(sc, repoName+" — architecture", "No modules to draw.", "Index a directory that holds source files (ccd init), then render again.")
		return newPicture(sc, opt)
	}
	m := buildArchModel(g, maxDistricts)
	a := &archDraw{sc: sc, m: m, g: g, rowH: rowH}
	a.draw(repoName)
	return newPicture(sc, opt)
}

type archDraw struct {
	g    *graph.Graph
	rowH float64 // module row height
	// detail adds a line of sample symbols under each module (small
	// workspaces).
	detail  bool
	sc      *scene
	m       *archModel
	rows    int // module rows per district
	links   []link
	upLinks bool // some drawn link points against the flow
	// Links not drawn: implied by longer paths, against the flow, over
	// the limit.
	implied, backOmitted, omitted int
}

func (a *archDraw) draw(repoName string) {
	sc, m := a.sc, a.m
	nd := len(m.districts)
	a.rows = min(12, max(3, 150/nd))
	if nd <= 3 {
		a.rows = min(30, 150/nd)
	}
	if len(m.mods) <= 48 {
		a.rows = 16
	}
	if len(m.mods) <= 24 {
		a.detail = true
		a.rowH = 34
	}
	a.pickLinks()

	// Districts in a layered layout: importers above what they import.
	nodes := make([]lnode, nd)
	for i := range m.districts {
		nodes[i] = lnode{w: districtW, h: a.districtHeight(i)}
	}
	edges := make([]ledge, len(a.links))
	for i, l := range a.links {
		edges[i] = ledge{from: l.from, to: l.to, weight: float64(l.count)}
	}
	perLayer := int(math.Ceil(math.Sqrt(float64(nd) * 1.3)))
	lay := layered(nodes, edges, layeredOpts{maxPerLayer: perLayer, gapX: 40, gapY: 78, dummyW: 14})
	for _, r := range lay.routes {
		a.upLinks = a.upLinks || r.up
	}

	// Header: title, totals, legend.
	y := margin
	sc.text(margin, y+22, repoName, 24, bold, colInk, start)
	tw := sc.measure(repoName, 24, bold)
	sc.text(margin+tw+12, y+22, "architecture", 18, regular, colMuted, start)
	tests := 0
	for _, mm := range m.mods {
		if mm.test {
			tests++
		}
	}
	stats := join(counted(len(m.mods), "module", "modules"), counted(m.classes, "class", "classes"),
		counted(m.funcs, "function", "functions"), counted(m.imports, "import", "imports"), counted(m.calls, "call", "calls"))
	if tests > 0 {
		stats = join(stats, counted(tests, "test file", "test files"))
	}
	sc.text(margin, y+48, stats, 13, regular, colText, start)
	y += 64
	legendW := a.legend(margin, y)
	y += 34
	headW := math.Max(legendW, math.Max(sc.measure(stats, 13, regular), tw+sc.measure("architecture", 18, regular)+12))
	ox, oy := margin+math.Max(0, (headW-lay.w)/2), y+8

	for i := range m.districts {
		b := lay.boxes[i]
		b.x += ox
		b.y += oy
		a.district(i, b)
	}
	a.drawLinks(lay, ox, oy)

	// Footer: what was left out.
	bottom := oy + lay.h + 22
	var notes []string
	shown := 0
	for i := range m.districts {
		shown += min(len(m.districts[i].mods), a.rows)
	}
	if shown < len(m.mods) {
		notes = append(notes, fmt.Sprintf("%s of %s modules listed (hubs and most depended-on first)", comma(shown), comma(len(m.mods))))
	}
	if len(a.links) < len(m.links) {
		var why []string
		if a.implied > 0 {
			why = append(why, fmt.Sprintf("%s implied by longer paths", comma(a.implied)))
		}
		if a.backOmitted > 0 {
			why = append(why, fmt.Sprintf("%s light ones against the flow", comma(a.backOmitted)))
		}
		if a.omitted > 0 {
			why = append(why, fmt.Sprintf("%s weakest", comma(a.omitted)))
		}
		notes = append(notes, fmt.Sprintf("%d of %d district links drawn (left out: %s)", len(a.links), len(m.links), strings.Join(why, ", ")))
	}
	if m.linkKind == "calls" {
		notes = append(notes, "no imports resolved: arrows count calls")
	}
	width := math.Max(ox+lay.w, margin+headW) - margin
	for _, l := range sc.fonts.wrap(strings.Join(notes, "   ·   "), width, 12, regular, 3) {
		sc.text(margin, bottom+6, l, 12, regular, colMuted, start)
		bottom += 18
	}
	sc.w = math.Ceil(margin + width + margin)
	sc.h = math.Ceil(bottom + margin - 8)
}

// legend draws the key in one row at (x, y) and returns its width.
func (a *archDraw) legend(x, y float64) float64 {
	sc := a.sc
	x0 := x
	cy := y + 10
	item := func(w float64, draw func(x float64), label string) {
		draw(x)
		x += w + 6
		sc.text(x, cy+4, label, 11.5, regular, colText, start)
		x += sc.measure(label, 11.5, regular) + 22
	}
	hubs, grouped := false, false
	for _, d := range a.m.districts {
		hubs = hubs || d.hubs > 0
		grouped = grouped || len(d.mods) > 1
	}
	what := "district (directory)"
	if !grouped {
		what = "module (file) and its symbols"
	}
	item(28, func(x float64) {
		sc.rect(rect{x, cy - 8, 28, 16}, 4, districtHues[0].fill, stroke{c: districtHues[0].line, w: 1})
	}, what)
	if hubs {
		item(28, func(x float64) {
			sc.rect(rect{x, cy - 8, 28, 16}, 3, colHubSoft, stroke{})
			sc.rect(rect{x, cy - 7, 3, 14}, 1.5, colHub, stroke{})
		}, "hub module (in = modules depending on it)")
	}
	if grouped {
		item(0, func(float64) {}, "3c 12f = classes, functions")
	}
	item(34, func(x float64) {
		sc.path(fmt.Sprintf("M %s %s L %s %s", num(x), num(cy), num(x+26), num(cy)), none, stroke{c: colAccent, w: 2})
		sc.path(arrowHead(pt{x + 34, cy}, 1, 0, 9), colAccent, stroke{})
	}, a.linkLegend())
	if a.upLinks {
		item(34, func(x float64) {
			sc.path(fmt.Sprintf("M %s %s L %s %s", num(x), num(cy), num(x+26), num(cy)), none, stroke{c: colCycle, w: 2})
			sc.path(arrowHead(pt{x + 34, cy}, 1, 0, 9), colCycle, stroke{})
		}, "against the flow (cycle)")
	}
	return x - x0 - 22
}

func (a *archDraw) linkLegend() string {
	if len(a.m.districts) == len(a.m.mods) {
		return a.m.linkKind + " between modules (tests left out)"
	}
	between := "districts"
	if a.m.linkKind == "calls" {
		return "calls between " + between + " (calling modules; tests left out)"
	}
	return "imports between " + between + " (importing modules; tests left out)"
}

// emptyPicture draws a title and a message card.
func emptyPicture(sc *scene, title, msg, hint string) {
	sc.text(margin, margin+22, title, 22, bold, colInk, start)
	w := math.Max(420, math.Max(sc.measure(msg, 15, bold), sc.measure(hint, 13, regular))+48)
	b := rect{margin, margin + 48, w, 86}
	sc.box(b)
	sc.rect(b, 10, colPanel, stroke{c: colFaint, w: 1})
	sc.text(b.x+24, b.y+36, msg, 15, bold, colText, start)
	sc.text(b.x+24, b.y+60, hint, 13, regular, colMuted, start)
	sc.w = math.Ceil(math.Max(b.right()+margin, margin*2+sc.measure(title, 22, bold)))
	sc.h = math.Ceil(b.bottom() + margin)
}
