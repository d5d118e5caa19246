package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
)

// BoardView is what the evidence board shows.
type BoardView struct {
	Title       string // e.g. the repository name
	Focus       string // the symbol being analysed; may be ""
	Done, Total int    // progress over the focus's affected nodes
	Claims      []BoardItem
	Evidence    []BoardEvidence
	Decisions   []BoardItem
}

// BoardItem is a claim (Kind hypothesis, finding or question) or a
// decision (plan, test, edit, mark or skip).
type BoardItem struct {
	ID, Kind, Text, Status string
	Evidence               []string // ids of linked evidence
}

// BoardEvidence is one evidence card: a picture and what it showed.
type BoardEvidence struct {
	ID, Kind       string // Kind: architecture or impact
	Title, Summary string
	Thumb          image.Image // may be nil: a placeholder is drawn
}

// Board geometry.
// BoardEvidenceShown is how many evidence cards (the latest) the board
// view draws; earlier ones are counted.
const BoardEvidenceShown = 6

const (
	boardSideW  = 372.0
	boardMidW   = 420.0
	boardGutter = 60.0
	boardItems  = 10 // claims or decisions shown per column
	thumbH      = 190.0
)

// Board draws the evidence board: a header with the focus and progress,
// claims on the left, evidence thumbnails in the centre, decisions on the
// right, with lines from each claim or decision to the evidence it cites.
// Long texts wrap and end with "…"; long columns show the most recent
// items and say how many earlier ones are left out.
func Board(b BoardView, opt Options) *Picture {
	title := strings.TrimSpace(b.Title)
	sc := newScene("evidence board")
	if title != "" {
		sc.title = title + " — evidence board"
	}
	d := &boardDraw{sc: sc, b: b, scale: opt.scale(), evBox: map[string]rect{}}
	d.draw(title)
	return newPicture(sc, opt)
}

type boardDraw struct {
	sc    *scene
	b     BoardView
	scale float64
	evBox map[string]rect // evidence id -> card, for connectors
}

type connector struct {
	from, to pt
	col      color.NRGBA
}

func (d *boardDraw) draw(title string) {
	sc, b := d.sc, d.b
	x0 := margin
	leftX := x0
	midX := leftX + boardSideW + boardGutter
	rightX := midX + boardMidW + boardGutter
	width := rightX + boardSideW - x0

	// Header band.
	y := margin
	sc.text(x0, y+22, "Evidence board", 24, bold, colInk, start)
	if title != "" {
		tw := sc.measure("Evidence board", 24, bold) + 12
		sc.text(x0+tw, y+22, sc.fonts.fit(title, width-tw-300, 18, regular), 18, regular, colMuted, start)
	}
	focus := strings.TrimSpace(b.Focus)
	if focus == "" {
		sc.text(x0, y+50, "No focus yet: run impact on a symbol to set one.", 13, italic, colMuted, start)
	} else {
		sc.text(x0, y+50, "Focus", 13, bold, colText, start)
		fw := sc.measure("Focus", 13, bold) + 10
		sc.text(x0+fw, y+50, sc.fonts.fitLeft(focus, width-fw-300, 13, mono), 13, mono, colInk, start)
	}
	d.progress(x0+width-260, y+6, 260)
	y += 76
	sc.rect(rect{x0, y, width, 1}, 0, colFaint, stroke{})
	y += 20

	// Column heads.
	head := func(x, w float64, label string, n int, col color.NRGBA) {
		sc.text(x, y+14, label, 12, bold, col, start)
		sc.text(x+sc.measure(label, 12, bold)+8, y+14, fmt.Sprintf("%d", n), 12, regular, colMuted, start)
		sc.rect(rect{x, y + 22, w, 2.5}, 1, withAlpha(col, 150), stroke{})
	}
	head(leftX, boardSideW, "CLAIMS", len(b.Claims), hex(0x6741d9))
	head(midX, boardMidW, "EVIDENCE", len(b.Evidence), colAccent)
	head(rightX, boardSideW, "DECISIONS", len(b.Decisions), hex(0x1971c2))
	y += 36

	// Evidence first: claims and decisions link to its cards.
	midBottom := d.evidence(midX, y)
	var links []connector
	leftBottom, l1 := d.items(leftX, y, b.Claims, "claims", "No claims yet: record a hypothesis, finding or question.", true)
	rightBottom, l2 := d.items(rightX, y, b.Decisions, "decisions", "No decisions yet: plan, test, edit, mark or skip.", false)
	links = append(l1, l2...)
	// Connectors go under the cards: move them to the front of the list.
	var conn []shape
	for _, c := range links {
		dx := (c.to.x - c.from.x) / 2
		var p pathBuilder
		p.cmd('M', c.from.x, c.from.y)
		p.cmd('C', c.from.x+dx, c.from.y, c.to.x-dx, c.to.y, c.to.x, c.to.y)
		conn = append(conn, shape{d: p.String(), line: stroke{c: withAlpha(c.col, 120), w: 1.5}})
		conn = append(conn, shape{d: dot(c.from, 3), fill: c.col})
		conn = append(conn, shape{d: dot(c.to, 3), fill: c.col})
	}
	sc.shapes = append(conn, sc.shapes...)

	bottom := math.Max(midBottom, math.Max(leftBottom, rightBottom))
	sc.w = math.Ceil(width + 2*margin)
	sc.h = math.Ceil(bottom + margin)
}

// dot is a small filled circle as a path.
func dot(c pt, r float64) string {
	var p pathBuilder
	p.cmd('M', c.x-r, c.y)
	p.cmd('C', c.x-r, c.y-r*0.552, c.x-r*0.552, c.y-r, c.x, c.y-r)
	p.cmd('C', c.x+r*0.552, c.y-r, c.x+r, c.y-r*0.552, c.x+r, c.y)
	p.cmd('C', c.x+r, c.y+r*0.552, c.x+r*0.552, c.y+r, c.x, c.y+r)
	p.cmd('C', c.x-r*0.552, c.y+r, c.x-r, c.y+r*0.552, c.x-r, c.y)
	p.cmd('Z')
	return p.String()
}

// progress draws "done / total" with a bar at (x, y), w wide.
func (d *boardDraw) progress(x, y, w float64) {
	sc, b := d.sc, d.b
	total := max(b.Total, 0)
	done := min(max(b.Done, 0), total)
	label := "Progress"
	value := fmt.Sprintf("%d / %d addressed", done, total)
	if total == 0 {
		value = "nothing to address yet"
	}
	sc.text(x, y+14, label, 12, bold, colText, start)
	sc.text(x+w, y+14, value, 12, regular, colMuted, end)
	bar := rect{x, y + 24, w, 10}
	sc.rect(bar, 5, colRule, stroke{})
	if total > 0 && done > 0 {
		fw := math.Max(10, w*float64(done)/float64(total))
		col := colAccent
		if done == total {
			col = colCallee
		}
		sc.rect(rect{x, bar.y, fw, 10}, 5, col, stroke{})
	}
}

// items draws a column of claims or decisions and returns its bottom and
// the connectors to evidence cards.
func (d *boardDraw) items(x, y float64, items []BoardItem, many, empty string, left bool) (float64, []connector) {
	sc := d.sc
	if len(items) == 0 {
		b := rect{x, y, boardSideW, 64}
		sc.box(b)
		sc.rect(b, 8, colPanel, stroke{c: colFaint, w: 1, dash: []float64{5, 4}})
		for i, l := range sc.fonts.wrap(empty, b.w-32, 12, italic, 2) {
			sc.text(x+16, y+27+float64(i)*16, l, 12, italic, colMuted, start)
		}
		return b.bottom(), nil
	}
	if len(items) > boardItems {
		hidden := len(items) - boardItems
		items = items[hidden:]
		sc.text(x+4, y+12, fmt.Sprintf("+%d earlier %s", hidden, many), 12, italic, colMuted, start)
		y += 24
	}
	var links []connector
	for _, it := range items {
		fill, ink := kindColor(strings.ToLower(it.Kind))
		textLines := sc.fonts.wrap(it.Text, boardSideW-32, 12.5, regular, 5)
		if len(textLines) == 0 {
			textLines = []string{"(no text)"}
		}
		h := 40 + float64(len(textLines))*17 + 10
		if len(it.Evidence) > 0 {
			h += 22
		}
		b := rect{x, y, boardSideW, h}
		sc.box(b)
		sc.rect(b, 8, colPanel, stroke{c: withAlpha(ink, 110), w: 1})
		sc.rect(rect{b.x, b.y + 8, 3.5, b.h - 16}, 1.5, ink, stroke{})
		kind := strings.ToUpper(strings.TrimSpace(it.Kind))
		if kind == "" {
			kind = "NOTE"
		}
		bw := sc.badge(x+14, y+20, kind, 9.5, fill, ink)
		right := b.right() - 12
		if id := strings.TrimSpace(it.ID); id != "" {
			sc.text(right, y+24, id, 11, bold, colMuted, end)
			right -= sc.measure(id, 11, bold) + 10
		}
		if st := strings.TrimSpace(it.Status); st != "" {
			sc.text(right, y+24, sc.fonts.fit(st, right-(x+14+bw+10), 11, italic), 11, italic, colText, end)
		}
		ty := y + 48
		for _, l := range textLines {
			sc.text(x+14, ty, l, 12.5, regular, colInk, start)
			ty += 17
		}
		if len(it.Evidence) > 0 {
			cx := x + 14
			sc.text(cx, ty+8, "cites", 10.5, regular, colMuted, start)
			cx += sc.measure("cites", 10.5, regular) + 6
			for _, id := range it.Evidence {
				w := sc.measure(id, 10, bold) + 10
				if cx+w > b.right()-12 {
					sc.text(cx, ty+8, "…", 10.5, regular, colMuted, start)
					break
				}
				sc.badge(cx, ty+4, id, 10, colAccentSoft, colAccent)
				cx += w + 4
				eb, ok := d.evBox[id]
				if !ok {
					continue
				}
				if left {
					links = append(links, connector{pt{b.right(), b.cy()}, pt{eb.x, eb.y + thumbH/2 + 8}, ink})
				} else {
					links = append(links, connector{pt{b.x, b.cy()}, pt{eb.right(), eb.y + thumbH/2 + 8}, ink})
				}
			}
		}
		y += h + 12
	}
	return y - 12, links
}

// evidence draws the centre column and records each card's rectangle.
func (d *boardDraw) evidence(x, y float64) float64 {
	sc, evs := d.sc, d.b.Evidence
	if len(evs) == 0 {
		b := rect{x, y, boardMidW, 64}
		sc.box(b)
		sc.rect(b, 8, colPanel, stroke{c: colFaint, w: 1, dash: []float64{5, 4}})
		sc.text(x+16, y+27, "No evidence yet: init draws the architecture,", 12, italic, colMuted, start)
		sc.text(x+16, y+43, "impact draws a symbol's blast radius.", 12, italic, colMuted, start)
		return b.bottom()
	}
	if len(evs) > BoardEvidenceShown {
		hidden := len(evs) - BoardEvidenceShown
		evs = evs[hidden:]
		sc.text(x+4, y+12, fmt.Sprintf("+%d earlier evidence", hidden), 12, italic, colMuted, start)
		y += 24
	}
	for _, ev := range evs {
		title := sc.fonts.wrap(strings.TrimSpace(ev.Title), boardMidW-32, 13, bold, 2)
		summary := sc.fonts.wrap(ev.Summary, boardMidW-32, 11.5, regular, 3)
		h := 8 + thumbH + 8 + 26 + float64(len(title))*17 + float64(len(summary))*15 + 10
		b := rect{x, y, boardMidW, h}
		sc.box(b)
		sc.rect(b, 10, colPanel, stroke{c: colFaint, w: 1})
		if id := strings.TrimSpace(ev.ID); id != "" {
			d.evBox[id] = b
		}
		frame := rect{x + 8, y + 8, boardMidW - 16, thumbH}
		d.thumb(frame, ev)
		ty := frame.bottom() + 24
		cx := x + 16
		if id := strings.TrimSpace(ev.ID); id != "" {
			cx += sc.badge(cx, ty-5, id, 10.5, colAccent, colPanel) + 8
		}
		kind := strings.TrimSpace(ev.Kind)
		if kind == "" {
			kind = "evidence"
		}
		sc.text(cx, ty, kind, 11, bold, colMuted, start)
		ty += 20
		for _, l := range title {
			sc.text(x+16, ty, l, 13, bold, colInk, start)
			ty += 17
		}
		for _, l := range summary {
			sc.text(x+16, ty, l, 11.5, regular, colText, start)
			ty += 15
		}
		y += h + 14
	}
	return y - 14
}

// thumb draws an evidence picture fitted into frame, or a placeholder.
func (d *boardDraw) thumb(frame rect, ev BoardEvidence) {
	sc := d.sc
	sc.rect(frame, 6, hex(0xf1f3f5), stroke{})
	img := ev.Thumb
	if img == nil || img.Bounds().Empty() {
		sc.rect(frame, 6, hex(0xf1f3f5), stroke{c: colFaint, w: 1, dash: []float64{5, 4}})
		sc.text(frame.cx(), frame.cy()-4, "no picture", 13, italic, colMuted, middle)
		sc.text(frame.cx(), frame.cy()+14, strings.TrimSpace(ev.Kind), 11, regular, colMuted, middle)
		return
	}
	ib := img.Bounds()
	k := math.Min(frame.w/float64(ib.Dx()), frame.h/float64(ib.Dy()))
	w, h := float64(ib.Dx())*k, float64(ib.Dy())*k
	r := rect{frame.cx() - w/2, frame.cy() - h/2, w, h}
	// Shrink once to the pixels the picture will use, so neither the SVG
	// nor the PNG carries the full-size image.
	pw, ph := int(math.Round(w*d.scale)), int(math.Round(h*d.scale))
	sc.image(r, resample(img, max(pw, 1), max(ph, 1)))
	sc.rect(r, 0, none, stroke{c: colFaint, w: 1})
}

// Thumbnail renders p and shrinks it to at most maxW pixels wide (keeping
// its aspect ratio), for BoardEvidence.Thumb. It returns nil when p cannot
// be drawn.
func Thumbnail(p *Picture, maxW int) image.Image {
	if p == nil {
		return nil
	}
	img, err := p.Image()
	if err != nil {
		return nil
	}
	b := img.Bounds()
	if maxW <= 0 || b.Dx() <= maxW {
		return img
	}
	h := max(1, int(math.Round(float64(b.Dy())*float64(maxW)/float64(b.Dx()))))
	return resample(img, maxW, h)
}
