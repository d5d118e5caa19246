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
	mask  image.Alpha // coverage of the current path, reused
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
	uni, ok := s.src.(*image.Uniform)
	if !ok {
		s.r.DrawOp = draw.Over
		s.r.Draw(s.dest, box, s.src, box.Min)
		return
	}
	// Coverage into an alpha mask, then a blend that skips empty pixels
	// and stores covered pixels of an opaque paint directly: most of a
	// box's pixels are one or the other.
	n := box.Dx() * box.Dy()
	if cap(s.mask.Pix) < n {
		s.mask.Pix = make([]uint8, n)
	}
	s.mask.Pix = s.mask.Pix[:n]
	s.mask.Stride = box.Dx()
	s.mask.Rect = image.Rect(0, 0, box.Dx(), box.Dy())
	s.r.DrawOp = draw.Src
	s.r.Draw(&s.mask, s.mask.Rect, image.Opaque, image.Point{})
	composite(s.dest, box, &s.mask, uni.C)
}

// composite blends colour c over dst inside box through mask (whose
// origin is box.Min).
func composite(dst *image.RGBA, box image.Rectangle, mask *image.Alpha, c color.Color) {
	r, g, b, a := c.RGBA() // premultiplied, 16 bits
	if a == 0 {
		return
	}
	r8, g8, b8, a8 := uint8(r>>8), uint8(g>>8), uint8(b>>8), uint8(a>>8)
	w := box.Dx()
	for y := 0; y < box.Dy(); y++ {
		m := mask.Pix[y*mask.Stride : y*mask.Stride+w]
		d := dst.Pix[dst.PixOffset(box.Min.X, box.Min.Y+y):]
		for x, cov := range m {
			if cov == 0 {
				continue
			}
			i := 4 * x
			if cov == 0xff && a == 0xffff {
				d[i], d[i+1], d[i+2], d[i+3] = r8, g8, b8, a8
				continue
			}
			// Porter-Duff over with coverage: ma is the paint's effective
			// alpha in 16 bits.
			ma := uint32(cov) * 0x101
			sa := a * ma / 0xffff
			inv := 0xffff - sa
			d[i] = uint8((uint32(d[i])*0x101*inv/0xffff + r*ma/0xffff) >> 8)
			d[i+1] = uint8((uint32(d[i+1])*0x101*inv/0xffff + g*ma/0xffff) >> 8)
			d[i+2] = uint8((uint32(d[i+2])*0x101*inv/0xffff + b*ma/0xffff) >> 8)
			d[i+3] = uint8((uint32(d[i+3])*0x101*inv/0xffff + sa) >> 8)
		}
	}
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
