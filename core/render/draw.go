package render

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/words"
)

// pt is a point in user units.
type pt struct{ x, y float64 }

// pathBuilder writes SVG path data with rounded coordinates.
type pathBuilder struct{ b strings.Builder }

func (p *pathBuilder) cmd(c byte, xy ...float64) {
	if p.b.Len() > 0 {
		p.b.WriteByte(' ')
	}
	p.b.WriteByte(c)
	for i, v := range xy {
		if i > 0 {
			p.b.WriteByte(' ')
		}
		p.b.WriteString(num(v))
	}
}

func (p *pathBuilder) String() string { return p.b.String() }

// routePath draws a route as a smooth curve: straight where two waypoints
// share x (a vertical run through a layer), else a cubic with vertical
// tangents, so edges leave and enter boxes vertically.
func routePath(pts []pt) string {
	var p pathBuilder
	if len(pts) == 0 {
		return ""
	}
	p.cmd('M', pts[0].x, pts[0].y)
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if math.Abs(a.x-b.x) < 0.5 {
			p.cmd('L', b.x, b.y)
			continue
		}
		my := (a.y + b.y) / 2
		p.cmd('C', a.x, my, b.x, my, b.x, b.y)
	}
	return p.String()
}

// arrowHead is a filled triangle with its tip at tip, pointing along
// (dx, dy), of the given length.
func arrowHead(tip pt, dx, dy, length float64) string {
	n := math.Hypot(dx, dy)
	if n == 0 {
		dx, dy, n = 0, 1, 1
	}
	dx, dy = dx/n, dy/n
	half := length * 0.45
	bx, by := tip.x-dx*length, tip.y-dy*length
	var p pathBuilder
	p.cmd('M', tip.x, tip.y)
	p.cmd('L', bx-dy*half, by+dx*half)
	p.cmd('L', bx+dy*half, by-dx*half)
	p.cmd('Z')
	return p.String()
}

// pill draws a rounded label with centred text and returns its rectangle.
func (s *scene) pill(cx, cy float64, str string, size float64, f fontID, fill, ink, border color.NRGBA) rect {
	w := s.measure(str, size, f) + size*0.9
	h := size * 1.55
	r := rect{cx - w/2, cy - h/2, w, h}
	line := stroke{}
	if border.A > 0 {
		line = stroke{c: border, w: 1}
	}
	s.rect(r, h/2, fill, line)
	s.text(cx, cy+size*0.36, str, size, f, ink, middle)
	return r
}

// badge draws a small rounded tag whose left edge is at x and returns its
// width.
func (s *scene) badge(x, cy float64, str string, size float64, fill, ink color.NRGBA) float64 {
	w := s.measure(str, size, bold) + size
	h := size * 1.5
	s.rect(rect{x, cy - h/2, w, h}, 3, fill, stroke{})
	s.text(x+w/2, cy+size*0.36, str, size, bold, ink, middle)
	return w
}

// comma formats n with thousands separators.
func comma(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// counted is n with thousands separators and its word: "1 module",
// "2,481 modules".
func counted(n int, one, many string) string {
	return comma(n) + " " + words.Plural(n, one, many)
}

// join joins the non-empty parts with " · ".
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// withAlpha returns c with alpha a (0..255).
func withAlpha(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}
