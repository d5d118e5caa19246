package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

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
	stats := join(counted(len(d.mods), "file", "files"), compact(d.classes)+" classes", compact(d.funcs)+" funcs")
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
		sc.text(b.x+16, y+15, "+"+counted(more, "more module", "more modules"), 11.5, italic, colText, start)
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
	stats := join(counted(mm.classes, "class", "classes"), counted(mm.funcs, "function", "functions"))
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
		sc.text(b.x+16, y+inner.h+15, "+"+counted(more, "more symbol", "more symbols"), 11.5, italic, colText, start)
	}
}

// symbols lists a module's classes and functions in source order.
func (a *archDraw) symbols(module int) []*graph.Node {
	var out []*graph.Node
	for _, i := range a.g.InFile(a.g.Nodes[module].Path) {
		if n := a.g.Nodes[i]; n.Kind == graph.Class || n.Kind == graph.Func && !n.Anonymous() {
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
		case n.Kind == graph.Func && !strings.Contains(n.Qual, ".") && n.Owner == "" && !n.Anonymous():
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
