package render

import (
	"fmt"
	"math"
	"sort"
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
	stats := join(plural(len(m.mods), "module", "modules"), plural(m.classes, "class", "classes"),
		plural(m.funcs, "function", "functions"), plural(m.imports, "import", "imports"), plural(m.calls, "call", "calls"))
	if tests > 0 {
		stats = join(stats, plural(tests, "test file", "test files"))
	}
	sc.text(margin, y+48, stats, 13, regular, colText, start)
	y += 64
	legendW := a.legend(margin, y)
	y += 34
	headW := math.Max(legendW, math.Max(sc.measure(stats, 13, regular), tw+sc.measure("architecture", 18, regular)+12))
	ox, oy := margin+math.Max(0, (headW-lay.w)/2), y+8

	maxCount := 1
	for _, l := range a.links {
		maxCount = max(maxCount, l.count)
	}
	for i := range m.districts {
		b := lay.boxes[i]
		b.x += ox
		b.y += oy
		a.district(i, b)
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
		col   int
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
		pills = append(pills, pending{at: tip, up: r.up, label: comma(l.count), col: i})
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
	if len(notes) > 0 {
		sc.text(margin, bottom+6, strings.Join(notes, "   ·   "), 12, regular, colMuted, start)
		bottom += 20
	}
	sc.w = math.Ceil(math.Max(ox+lay.w, margin+headW) + margin)
	sc.h = math.Ceil(bottom + margin - 8)
}

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

func (a *archDraw) districtHeight(i int) float64 {
	d := &a.m.districts[i]
	if len(d.mods) == 1 {
		syms := a.symbols(a.m.mods[d.mods[0]].node)
		rows := min(len(syms), a.rows)
		h := districtHead + float64(max(rows, 1))*rowH + districtPad
		if len(syms) > rows {
			h += rowH
		}
		return h
	}
	rows := min(len(d.mods), a.rows)
	h := districtHead + float64(rows)*a.rowH + districtPad
	if len(d.mods) > rows {
		h += rowH
	}
	if len(d.subdirs) > 1 || len(d.dirs) > 0 {
		h += 18
	}
	return h
}

// district draws one district card at b.
func (a *archDraw) district(i int, b rect) {
	if len(a.m.districts[i].mods) == 1 {
		a.moduleDistrict(i, b)
		return
	}
	sc, d := a.sc, &a.m.districts[i]
	hue := districtHues[d.hue]
	sc.box(b)
	sc.rect(b, 8, hue.fill, stroke{c: hue.line, w: 1.2})
	// Header.
	nameW := b.w - 24
	sc.text(b.x+12, b.y+21, sc.fonts.fitLeft(d.label, nameW, 14, bold), 14, bold, hue.ink, start)
	stats := join(plural(len(d.mods), "file", "files"), compact(d.classes)+" classes", compact(d.funcs)+" funcs")
	sc.text(b.x+12, b.y+39, sc.fonts.fit(stats, b.w-24, 11, regular), 11, regular, colText, start)
	y := b.y + districtHead
	rows := min(len(d.mods), a.rows)
	inner := rect{b.x + 6, y, b.w - 12, float64(rows) * a.rowH}
	sc.rect(inner, 5, colPanel, stroke{c: withAlpha(hue.line, 110), w: 0.8})
	for k := 0; k < rows; k++ {
		mm := &a.m.mods[d.mods[k]]
		ry := y + float64(k)*a.rowH
		if k > 0 {
			sc.rect(rect{inner.x + 8, ry, inner.w - 16, 0.8}, 0, colRule, stroke{})
		}
		counts := fmt.Sprintf("%dc %df", mm.classes, mm.funcs)
		if mm.classes == 0 {
			counts = fmt.Sprintf("%df", mm.funcs)
		}
		cw := sc.measure(counts, 10.5, regular)
		name := mm.path
		if d.dir != "" && d.dir != "." {
			name = strings.TrimPrefix(name, d.dir+"/")
		}
		nameF, nameCol := regular, colInk
		if mm.test {
			nameCol = colMuted
		}
		extra := 0.0
		if mm.hub {
			sc.rect(rect{inner.x + 1, ry + 2, inner.w - 2, a.rowH - 4}, 3, colHubSoft, stroke{})
			sc.rect(rect{inner.x + 1, ry + 3, 3, a.rowH - 6}, 1.5, colHub, stroke{})
			nameF, nameCol = bold, hex(0xa63e00)
			tag := fmt.Sprintf("in %s", compact(mm.fanIn))
			extra = sc.measure(tag, 10, bold) + 8
			sc.text(inner.right()-8-cw-6, ry+14.5, tag, 10, bold, colHub, end)
		}
		maxName := inner.w - 20 - cw - extra - 8
		sc.text(inner.x+10, ry+14.5, sc.fonts.fitLeft(name, maxName, 12, nameF), 12, nameF, nameCol, start)
		sc.text(inner.right()-8, ry+14.5, counts, 10.5, regular, colMuted, end)
		if a.detail {
			if sample := a.samples(mm.node); sample != "" {
				sc.text(inner.x+10, ry+28, sc.fonts.fit(sample, inner.w-20, 10.5, mono), 10.5, mono, colMuted, start)
			}
		}
	}
	y += float64(rows) * a.rowH
	if more := len(d.mods) - rows; more > 0 {
		sc.text(b.x+16, y+15, "+"+plural(more, "more module", "more modules"), 11.5, italic, colText, start)
		y += rowH
	}
	switch {
	case len(d.dirs) > 0:
		sc.text(b.x+12, y+14, sc.fonts.fit(strings.Join(trimDirs(d.dirs), " · "), b.w-24, 10.5, regular), 10.5, regular, colMuted, start)
	case len(d.subdirs) > 1:
		var parts []string
		for _, s := range d.subdirs {
			parts = append(parts, s.name+" "+compact(s.files))
		}
		sc.text(b.x+12, y+14, sc.fonts.fit("dirs: "+strings.Join(parts, " · "), b.w-24, 10.5, regular), 10.5, regular, colMuted, start)
	}
}

// moduleDistrict draws a district of one module: the module is the card,
// and its rows are the module's classes and functions.
func (a *archDraw) moduleDistrict(i int, b rect) {
	sc, d := a.sc, &a.m.districts[i]
	mm := &a.m.mods[d.mods[0]]
	hue := districtHues[d.hue]
	sc.box(b)
	sc.rect(b, 8, hue.fill, stroke{c: hue.line, w: 1.2})
	nameW := b.w - 24
	if mm.hub {
		tag := "hub · in " + compact(mm.fanIn)
		tw := sc.measure(tag, 10, bold) + 10
		sc.badge(b.right()-10-tw, b.y+17, tag, 10, colHubSoft, colHub)
		nameW -= tw + 8
	}
	sc.text(b.x+12, b.y+21, sc.fonts.fitLeft(mm.path, nameW, 14, bold), 14, bold, hue.ink, start)
	stats := join(plural(mm.classes, "class", "classes"), plural(mm.funcs, "function", "functions"))
	if mm.test {
		stats = join("test file", stats)
	}
	sc.text(b.x+12, b.y+39, sc.fonts.fit(stats, b.w-24, 11, regular), 11, regular, colText, start)
	syms := a.symbols(mm.node)
	rows := min(len(syms), a.rows)
	y := b.y + districtHead
	inner := rect{b.x + 6, y, b.w - 12, float64(max(rows, 1)) * rowH}
	sc.rect(inner, 5, colPanel, stroke{c: withAlpha(hue.line, 110), w: 0.8})
	if rows == 0 {
		sc.text(inner.x+10, y+14.5, "no classes or functions", 11.5, italic, colMuted, start)
	}
	for k := 0; k < rows; k++ {
		n := syms[k]
		ry := y + float64(k)*rowH
		if k > 0 {
			sc.rect(rect{inner.x + 8, ry, inner.w - 16, 0.8}, 0, colRule, stroke{})
		}
		kind, kcol := "fn", colMuted
		if n.Kind == graph.Class {
			kind, kcol = "class", hue.ink
		}
		loc := fmt.Sprintf("L%d", n.StartLine)
		lw := sc.measure(loc, 10.5, regular)
		kw := sc.measure("class", 9.5, bold) + 8
		sc.text(inner.x+10, ry+14, kind, 9.5, bold, kcol, start)
		sc.text(inner.x+10+kw, ry+14.5, sc.fonts.fit(n.Qual, inner.w-28-kw-lw, 11.5, mono), 11.5, mono, colInk, start)
		sc.text(inner.right()-8, ry+14.5, loc, 10.5, regular, colMuted, end)
	}
	if more := len(syms) - rows; more > 0 {
		sc.text(b.x+16, y+inner.h+15, "+"+plural(more, "more symbol", "more symbols"), 11.5, italic, colText, start)
	}
}

// symbols lists a module's classes and functions in source order.
func (a *archDraw) symbols(module int) []*graph.Node {
	var out []*graph.Node
	for _, i := range a.g.InFile(a.g.Nodes[module].Path) {
		if n := a.g.Nodes[i]; n.Kind == graph.Class || n.Kind == graph.Func {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(x, y int) bool {
		if out[x].StartLine != out[y].StartLine {
			return out[x].StartLine < out[y].StartLine
		}
		return out[x].ID < out[y].ID
	})
	return out
}

// samples lists a module's classes, then its top-level functions, in
// source order.
func (a *archDraw) samples(module int) string {
	var classes, funcs []*graph.Node
	for _, i := range a.g.InFile(a.g.Nodes[module].Path) {
		n := a.g.Nodes[i]
		switch {
		case n.Kind == graph.Class:
			classes = append(classes, n)
		case n.Kind == graph.Func && !strings.Contains(n.Qual, ".") && n.Owner == "":
			funcs = append(funcs, n)
		}
	}
	byLine := func(ns []*graph.Node) {
		sort.SliceStable(ns, func(x, y int) bool { return ns[x].StartLine < ns[y].StartLine })
	}
	byLine(classes)
	byLine(funcs)
	var names []string
	for _, n := range append(classes, funcs...) {
		names = append(names, n.Name)
	}
	return strings.Join(names, ", ")
}

func trimDirs(dirs []string) []string {
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = d + "/"
	}
	return out
}

// compact formats counts: 999, 1,234, 12.3k, 123k.
func compact(n int) string {
	switch {
	case n >= 100000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	case n >= 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return comma(n)
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
