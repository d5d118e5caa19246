package render

import (
	"bytes"
	"encoding/base64"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
)

// svg serialises the scene. full adds what oksvg does not draw (texts,
// images, the background and the style sheet); without it the document
// holds the shapes only, for rasterising.
func (s *scene) svg(scale float64, full bool) []byte {
	var b bytes.Buffer
	b.Grow(256 + 120*len(s.shapes) + 140*len(s.texts))
	pw, ph := s.pixelSize(scale)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="`)
	b.WriteString(strconv.Itoa(pw))
	b.WriteString(`" height="`)
	b.WriteString(strconv.Itoa(ph))
	b.WriteString(`" viewBox="0 0 `)
	b.WriteString(num(s.w))
	b.WriteByte(' ')
	b.WriteString(num(s.h))
	b.WriteString("\">\n")
	if full {
		b.WriteString("<title>")
		b.WriteString(escape(s.title))
		b.WriteString("</title>\n<style>\ntext{white-space:pre}\n")
		for f := fontID(0); f < numFonts; f++ {
			b.WriteString(".f")
			b.WriteString(strconv.Itoa(int(f)))
			b.WriteString("{font-family:")
			b.WriteString(svgFamily[f])
			switch f {
			case bold, monoBold:
				b.WriteString(";font-weight:bold")
			case italic:
				b.WriteString(";font-style:italic")
			}
			b.WriteString("}\n")
		}
		b.WriteString("</style>\n")
		b.WriteString(`<rect x="0" y="0" width="`)
		b.WriteString(num(s.w))
		b.WriteString(`" height="`)
		b.WriteString(num(s.h))
		b.WriteString(`" fill="`)
		b.WriteString(colorHex(s.bg))
		b.WriteString("\"/>\n")
	}
	for i := range s.shapes {
		writeShape(&b, &s.shapes[i])
	}
	if !full {
		b.WriteString("</svg>\n")
		return b.Bytes()
	}
	for _, im := range s.images {
		var pb bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&pb, im.img); err != nil {
			continue // an image that cannot be encoded is left out of the SVG
		}
		b.WriteString(`<image x="`)
		b.WriteString(num(im.r.x))
		b.WriteString(`" y="`)
		b.WriteString(num(im.r.y))
		b.WriteString(`" width="`)
		b.WriteString(num(im.r.w))
		b.WriteString(`" height="`)
		b.WriteString(num(im.r.h))
		b.WriteString(`" preserveAspectRatio="none" href="data:image/png;base64,`)
		b.WriteString(base64.StdEncoding.EncodeToString(pb.Bytes()))
		b.WriteString("\"/>\n")
	}
	for i := range s.texts {
		writeText(&b, &s.texts[i])
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func writeShape(b *bytes.Buffer, sh *shape) {
	if sh.d != "" {
		b.WriteString(`<path d="`)
		b.WriteString(sh.d)
		b.WriteByte('"')
	} else {
		b.WriteString(`<rect x="`)
		b.WriteString(num(sh.r.x))
		b.WriteString(`" y="`)
		b.WriteString(num(sh.r.y))
		b.WriteString(`" width="`)
		b.WriteString(num(sh.r.w))
		b.WriteString(`" height="`)
		b.WriteString(num(sh.r.h))
		b.WriteByte('"')
		if sh.rx > 0 {
			// oksvg needs ry as well, or it draws square corners.
			b.WriteString(` rx="`)
			b.WriteString(num(sh.rx))
			b.WriteString(`" ry="`)
			b.WriteString(num(sh.rx))
			b.WriteByte('"')
		}
	}
	writePaint(b, "fill", sh.fill)
	if sh.line.c.A > 0 && sh.line.w > 0 {
		writePaint(b, "stroke", sh.line.c)
		b.WriteString(` stroke-width="`)
		b.WriteString(num(sh.line.w))
		b.WriteByte('"')
		if len(sh.line.dash) > 0 {
			b.WriteString(` stroke-dasharray="`)
			for i, d := range sh.line.dash {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(num(d))
			}
			b.WriteByte('"')
		}
		if sh.d != "" {
			b.WriteString(` stroke-linecap="round" stroke-linejoin="round"`)
		}
	}
	b.WriteString("/>\n")
}

func writePaint(b *bytes.Buffer, attr string, c color.NRGBA) {
	b.WriteByte(' ')
	b.WriteString(attr)
	b.WriteString(`="`)
	if c.A == 0 {
		b.WriteString(`none"`)
		return
	}
	b.WriteString(colorHex(c))
	b.WriteByte('"')
	if c.A < 0xff {
		b.WriteByte(' ')
		b.WriteString(attr)
		b.WriteString(`-opacity="`)
		b.WriteString(num(float64(c.A) / 255))
		b.WriteByte('"')
	}
}

func writeText(b *bytes.Buffer, t *text) {
	b.WriteString(`<text x="`)
	b.WriteString(num(t.x))
	b.WriteString(`" y="`)
	b.WriteString(num(t.y))
	b.WriteString(`" class="f`)
	b.WriteString(strconv.Itoa(int(t.font)))
	b.WriteString(`" font-size="`)
	b.WriteString(num(t.size))
	b.WriteString(`" fill="`)
	b.WriteString(colorHex(t.fill))
	b.WriteByte('"')
	switch t.align {
	case middle:
		b.WriteString(` text-anchor="middle"`)
	case end:
		b.WriteString(` text-anchor="end"`)
	}
	// The layout measured the text in the Go font; a browser without it
	// squeezes or stretches its fallback font to the same width, so texts
	// placed side by side never run into each other.
	if t.w > 0 {
		b.WriteString(` textLength="`)
		b.WriteString(num(t.w))
		b.WriteString(`" lengthAdjust="spacingAndGlyphs"`)
	}
	b.WriteByte('>')
	b.WriteString(escape(t.s))
	b.WriteString("</text>\n")
}

// num formats a coordinate with at most two decimals.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	v = math.Round(v*100) / 100
	if v == 0 {
		return "0" // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func colorHex(c color.NRGBA) string {
	const digits = "0123456789abcdef"
	return string([]byte{'#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15]})
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// escape makes s safe as XML character data, dropping characters XML
// cannot hold.
func escape(s string) string {
	clean := strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		if r < 0x20 || r == 0xfffe || r == 0xffff || (r >= 0xd800 && r < 0xe000) {
			return -1
		}
		return r
	}, s)
	return xmlEscaper.Replace(clean)
}
