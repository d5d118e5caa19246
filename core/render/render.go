// Package render draws ccd's pictures: the architecture map of a workspace
// (Architecture), the blast radius of one symbol (Impact) and the evidence
// board (Board). Each returns a laid-out *Picture:
//
//	p := render.Architecture(g, "myrepo", render.Options{Scale: 2})
//	svg := p.SVG()      // standalone SVG with <text>, fonts and arrowheads as paths
//	png, err := p.PNG() // the same picture rasterised, p.Size() pixels
//
// A view is laid out once into a scene of shapes, images and texts. SVG
// serialises the scene; PNG rasterises its shapes with oksvg/rasterx from
// the same SVG (minus what oksvg cannot draw), through a scanner that only
// touches each path's bounding box, then draws images and texts with the
// embedded Go fonts, and encodes with a parallel, deterministic encoder.
// The same input gives the same bytes, however many cores encode them.
//
// Large inputs are summarised rather than drawn in full: at most 24
// districts, a few modules each, the strongest links between them, at most
// 8 boxes a side in an impact view, the latest items of a board, and a
// "+N more" wherever something is left out. Empty or invalid input draws a
// picture that says so. The example pictures in docs/ are written by
//
//	go test ./core/render -run TestExamples -examples ../../docs
package render

import (
	"bytes"
	"image"
	"math"
	"sync"
)

// Options tune a picture.
type Options struct {
	// Scale is the PNG's pixel density: 0 or 1 draws at 1x, 2 at 2x
	// (values are clamped to [0.25, 4]). The SVG's user units are the same
	// at every scale; its width and height attributes follow Scale.
	Scale float64
}

func (o Options) scale() float64 {
	s := o.Scale
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	return math.Max(0.25, math.Min(4, s))
}

// Picture is a laid-out view, ready to serialise as SVG or PNG. Its
// methods may be called from several goroutines at once.
type Picture struct {
	sc    *scene
	scale float64
}

// SVG returns the picture as a standalone SVG document.
func (p *Picture) SVG() []byte { return p.sc.svg(p.scale, true) }

// PNG rasterises the picture at the chosen scale and encodes it as PNG.
func (p *Picture) PNG() ([]byte, error) {
	w, h := p.Size()
	pix := getPix(w * h * 4)
	defer putPix(pix)
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	if err := p.sc.raster(p.scale, img); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Image rasterises the picture at the chosen scale.
func (p *Picture) Image() (*image.RGBA, error) {
	w, h := p.Size()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := p.sc.raster(p.scale, img); err != nil {
		return nil, err
	}
	return img, nil
}

// pixPool recycles canvases between PNG calls: a large picture's canvas
// is tens of megabytes, and touching fresh memory costs more than drawing.
var pixPool sync.Pool

func getPix(n int) []uint8 {
	if b, ok := pixPool.Get().(*[]uint8); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]uint8, n)
}

func putPix(b []uint8) { pixPool.Put(&b) }

// Size returns the pixel size of the PNG at the chosen scale.
func (p *Picture) Size() (w, h int) { return p.sc.pixelSize(p.scale) }

// Boxes returns the rectangles of the picture's cards in SVG user units
// (1x pixels): districts, symbol cards, board items. They never overlap.
func (p *Picture) Boxes() []image.Rectangle {
	out := make([]image.Rectangle, len(p.sc.boxes))
	for i, b := range p.sc.boxes {
		out[i] = image.Rect(int(math.Floor(b.x)), int(math.Floor(b.y)), int(math.Ceil(b.x+b.w)), int(math.Ceil(b.y+b.h)))
	}
	return out
}

func newPicture(sc *scene, opt Options) *Picture {
	return &Picture{sc: sc, scale: opt.scale()}
}
