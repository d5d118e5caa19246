package render

import (
	"image"
	"image/draw"
	"math"
)

// toRGBA returns img as an *image.RGBA with origin (0, 0), copying only
// when it must.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	b := img.Bounds()
	m := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(m, m.Rect, img, b.Min, draw.Src)
	return m
}

// resample scales img to w×h: an area average when shrinking (sharp,
// alias-free thumbnails at the cost of one pass over the source), bilinear
// when enlarging.
func resample(img image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, max(w, 0), max(h, 0)))
	if w <= 0 || h <= 0 || img == nil || img.Bounds().Empty() {
		return dst
	}
	src := toRGBA(img)
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if sw == w && sh == h {
		copy(dst.Pix, src.Pix)
		return dst
	}
	fx, fy := float64(sw)/float64(w), float64(sh)/float64(h)
	for y := 0; y < h; y++ {
		y0, y1 := span(y, fy, sh)
		for x := 0; x < w; x++ {
			x0, x1 := span(x, fx, sw)
			var r, g, b, a, n uint32
			if x1-x0 == 1 && y1-y0 == 1 && (fx < 1 || fy < 1) {
				bilinear(src, (float64(x)+0.5)*fx-0.5, (float64(y)+0.5)*fy-0.5, dst.Pix[dst.PixOffset(x, y):])
				continue
			}
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[src.PixOffset(x0, sy):]
				for i := 0; i < (x1-x0)*4; i += 4 {
					r += uint32(row[i])
					g += uint32(row[i+1])
					b += uint32(row[i+2])
					a += uint32(row[i+3])
				}
				n += uint32(x1 - x0)
			}
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8((r+n/2)/n), uint8((g+n/2)/n), uint8((b+n/2)/n), uint8((a+n/2)/n)
		}
	}
	return dst
}

// span returns the source pixels [lo, hi) that destination pixel i covers
// at factor f (at least one).
func span(i int, f float64, limit int) (int, int) {
	lo := int(math.Floor(float64(i) * f))
	hi := int(math.Ceil(float64(i+1) * f))
	lo = min(max(lo, 0), limit-1)
	hi = min(max(hi, lo+1), limit)
	return lo, hi
}

// bilinear samples src at (x, y) into out[0:4].
func bilinear(src *image.RGBA, x, y float64, out []uint8) {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	x = math.Max(0, math.Min(x, float64(sw-1)))
	y = math.Max(0, math.Min(y, float64(sh-1)))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, sw-1), min(y0+1, sh-1)
	tx, ty := x-float64(x0), y-float64(y0)
	p00, p10 := src.Pix[src.PixOffset(x0, y0):], src.Pix[src.PixOffset(x1, y0):]
	p01, p11 := src.Pix[src.PixOffset(x0, y1):], src.Pix[src.PixOffset(x1, y1):]
	for c := 0; c < 4; c++ {
		top := float64(p00[c])*(1-tx) + float64(p10[c])*tx
		bot := float64(p01[c])*(1-tx) + float64(p11[c])*tx
		out[c] = uint8(math.Round(top*(1-ty) + bot*ty))
	}
}
