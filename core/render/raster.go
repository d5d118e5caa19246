package render

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// raster draws the scene at the given scale into img (of the picture's
// pixel size): the background, then the shapes (through oksvg and rasterx,
// from the same SVG the picture serialises, minus what oksvg cannot draw),
// then images, then texts with the embedded Go fonts.
func (s *scene) raster(scale float64, img *image.RGBA) error {
	if err := loadFonts(); err != nil {
		return err
	}
	pw, ph := img.Rect.Dx(), img.Rect.Dy()
	draw.Draw(img, img.Bounds(), image.NewUniform(s.bg), image.Point{}, draw.Src)

	icon, err := oksvg.ReadIconStream(bytes.NewReader(s.svg(scale, false)), oksvg.IgnoreErrorMode)
	if err != nil {
		return fmt.Errorf("rasterise picture: parse shapes: %w", err)
	}
	icon.SetTarget(0, 0, s.w*scale, s.h*scale)
	sc := newBoxScanner(img)
	icon.Draw(rasterx.NewDasher(pw, ph, sc), 1)

	for _, im := range s.images {
		dst := image.Rect(int(im.r.x*scale+0.5), int(im.r.y*scale+0.5), int(im.r.right()*scale+0.5), int(im.r.bottom()*scale+0.5))
		scaled := resample(im.img, dst.Dx(), dst.Dy())
		draw.Draw(img, dst, scaled, image.Point{}, draw.Over)
	}

	faces := newFontSet()
	for i := range s.texts {
		t := &s.texts[i]
		fc := faces.face(t.font, t.size*scale)
		x := fixed.Int26_6(t.x * scale * 64)
		if t.align != start {
			w := font.MeasureString(fc, t.s)
			if t.align == middle {
				w /= 2
			}
			x -= w
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(t.fill), Face: fc, Dot: fixed.Point26_6{X: x, Y: fixed.Int26_6(t.y * scale * 64)}}
		d.DrawString(t.s)
	}
	return nil
}
