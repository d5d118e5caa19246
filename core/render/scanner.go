package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// boxScanner is a rasterx.Scanner that rasterises each path only inside
// its own bounding box. rasterx's ScannerGV resets and composites a
// rasterizer the size of the whole canvas for every path, so a picture of
// a few hundred shapes costs seconds; here a path costs its own area.
type boxScanner struct {
	dest *image.RGBA
	clip image.Rectangle // zero: none
	src  image.Image
	r    vector.Rasterizer
	// The path as recorded: a move when start is set, else a line.
	pts   []fixed.Point26_6
	start []bool
	minX  fixed.Int26_6
	minY  fixed.Int26_6
	maxX  fixed.Int26_6
	maxY  fixed.Int26_6
	uni   image.Uniform
}

var _ rasterx.Scanner = (*boxScanner)(nil)

func newBoxScanner(dest *image.RGBA) *boxScanner {
	s := &boxScanner{dest: dest}
	s.uni.C = color.Black
	s.src = &s.uni
	s.Clear()
	return s
}

func (s *boxScanner) grow(p fixed.Point26_6) {
	s.minX = min(s.minX, p.X)
	s.minY = min(s.minY, p.Y)
	s.maxX = max(s.maxX, p.X)
	s.maxY = max(s.maxY, p.Y)
}

// Start begins a new subpath at a.
func (s *boxScanner) Start(a fixed.Point26_6) {
	s.grow(a)
	s.pts = append(s.pts, a)
	s.start = append(s.start, true)
}

// Line adds a segment to b.
func (s *boxScanner) Line(b fixed.Point26_6) {
	s.grow(b)
	s.pts = append(s.pts, b)
	s.start = append(s.start, false)
}

// Draw composites the recorded path over the destination, touching only
// the path's bounding box.
func (s *boxScanner) Draw() {
	if len(s.pts) == 0 {
		return
	}
	box := image.Rect(
		int(math.Floor(float64(s.minX)/64)), int(math.Floor(float64(s.minY)/64)),
		int(math.Ceil(float64(s.maxX)/64))+1, int(math.Ceil(float64(s.maxY)/64))+1,
	).Intersect(s.dest.Bounds())
	if s.clip != (image.Rectangle{}) {
		box = box.Intersect(s.clip)
	}
	if box.Empty() {
		return
	}
	s.r.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for i, p := range s.pts {
		x, y := float32(p.X)/64-ox, float32(p.Y)/64-oy
		if s.start[i] {
			// No ClosePath: rasterx sends stroke outlines as open pieces
			// that only close up as a whole, and closes fills itself.
			s.r.MoveTo(x, y)
		} else {
			s.r.LineTo(x, y)
		}
	}
	s.r.DrawOp = draw.Over
	s.r.Draw(s.dest, box, s.src, box.Min)
}

// GetPathExtent returns the recorded path's bounds.
func (s *boxScanner) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: fixed.Point26_6{X: s.minX, Y: s.minY}, Max: fixed.Point26_6{X: s.maxX, Y: s.maxY}}
}

// SetBounds is a no-op: the scanner sizes itself to each path.
func (s *boxScanner) SetBounds(w, h int) {}

// SetColor sets the paint: a color.Color or a rasterx.ColorFunc.
func (s *boxScanner) SetColor(c interface{}) {
	switch c := c.(type) {
	case color.Color:
		s.uni.C = c
		s.src = &s.uni
	case rasterx.ColorFunc:
		s.src = funcImage(c)
	}
}

// SetWinding is a no-op: the vector rasterizer fills by non-zero winding.
func (s *boxScanner) SetWinding(useNonZeroWinding bool) {}

// Clear forgets the recorded path.
func (s *boxScanner) Clear() {
	s.pts = s.pts[:0]
	s.start = s.start[:0]
	const big = fixed.Int26_6(math.MaxInt32)
	s.minX, s.minY, s.maxX, s.maxY = big, big, -big, -big
}

// SetClip restricts drawing to rect (the zero rectangle clears it).
func (s *boxScanner) SetClip(rect image.Rectangle) { s.clip = rect }

// funcImage is a paint computed per pixel (gradients).
type funcImage rasterx.ColorFunc

func (f funcImage) ColorModel() color.Model { return color.RGBAModel }
func (f funcImage) Bounds() image.Rectangle {
	return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
}
func (f funcImage) At(x, y int) color.Color { return f(x, y) }
