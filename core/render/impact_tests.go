package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// tests draws the affected-tests panel at (x, y) and returns its bottom.
func (d *impactDraw) tests(x, y, w float64) float64 {
	sc, g := d.sc, d.g
	ts := d.im.Tests
	depthText := "at any depth"
	if !d.im.TestsComplete {
		depthText = fmt.Sprintf("(the search stopped after %d symbols: there may be more)", graph.TestBudget)
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
