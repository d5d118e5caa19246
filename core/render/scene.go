package render

import (
	"image"
	"image/color"
	"math"
)

// rect is an axis-aligned rectangle in user units (1x pixels).
type rect struct{ x, y, w, h float64 }

func (r rect) right() float64  { return r.x + r.w }
func (r rect) bottom() float64 { return r.y + r.h }
func (r rect) cx() float64     { return r.x + r.w/2 }
func (r rect) cy() float64     { return r.y + r.h/2 }

// overlaps reports whether two rectangles share interior area.
func (r rect) overlaps(o rect) bool {
	return r.x < o.right() && o.x < r.right() && r.y < o.bottom() && o.y < r.bottom()
}

// stroke describes how a shape's outline is drawn; a zero color means none.
type stroke struct {
	c    color.NRGBA
	w    float64
	dash []float64
}

// shape is a filled and/or stroked rectangle or path.
type shape struct {
	// A path when d is set, else a rectangle with corner radius rx.
	d    string
	r    rect
	rx   float64
	fill color.NRGBA
	line stroke
}

// fontID selects one of the embedded Go fonts.
type fontID uint8

const (
	regular fontID = iota
	bold
	mono
	monoBold
	italic
	numFonts
)

// anchor is a text's horizontal alignment relative to its x.
type anchor uint8

const (
	start anchor = iota
	middle
	end
)

// text is one line of text; y is the baseline; w is its width in the Go
// font, measured when the text is placed.
type text struct {
	x, y  float64
	w     float64
	s     string
	size  float64
	font  fontID
	fill  color.NRGBA
	align anchor
}

// picImage is a raster image placed in a rectangle (evidence thumbnails).
type picImage struct {
	r   rect
	img image.Image
}

// scene is a picture's display list. Shapes are drawn first (in order),
// then images, then texts, in SVG and PNG alike.
type scene struct {
	w, h   float64
	bg     color.NRGBA
	title  string // SVG <title>
	shapes []shape
	images []picImage
	texts  []text
	boxes  []rect // cards that must not overlap (checked by tests)
	fonts  *fontSet
}

func newScene(title string) *scene {
	return &scene{title: title, bg: colBackground, fonts: newFontSet()}
}

func (s *scene) rect(r rect, rx float64, fill color.NRGBA, line stroke) {
	s.shapes = append(s.shapes, shape{r: r, rx: rx, fill: fill, line: line})
}

func (s *scene) path(d string, fill color.NRGBA, line stroke) {
	s.shapes = append(s.shapes, shape{d: d, fill: fill, line: line})
}

// box records a card's rectangle for the overlap check.
func (s *scene) box(r rect) { s.boxes = append(s.boxes, r) }

func (s *scene) text(x, y float64, str string, size float64, f fontID, fill color.NRGBA, a anchor) {
	if str == "" {
		return
	}
	s.texts = append(s.texts, text{x: x, y: y, w: s.measure(str, size, f), s: str, size: size, font: f, fill: fill, align: a})
}

func (s *scene) image(r rect, img image.Image) {
	s.images = append(s.images, picImage{r: r, img: img})
}

// measure returns a text's advance width in user units.
func (s *scene) measure(str string, size float64, f fontID) float64 {
	return s.fonts.measure(str, size, f)
}

func (s *scene) pixelSize(scale float64) (int, int) {
	return int(math.Ceil(s.w * scale)), int(math.Ceil(s.h * scale))
}
