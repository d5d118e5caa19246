package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"testing"
)

// TestEncodePNGRoundTrip encodes opaque and translucent images of one or
// many bands and decodes them with the standard library.
func TestEncodePNGRoundTrip(t *testing.T) {
	for _, c := range []struct {
		w, h   int
		opaque bool
	}{{1, 1, true}, {37, 5, true}, {300, 3*bandRows + 17, true}, {64, bandRows + 1, false}} {
		img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
		seed := uint32(c.w*7 + c.h)
		for i := 0; i < len(img.Pix); i += 4 {
			seed = seed*1664525 + 1013904223
			a := uint8(0xff)
			if !c.opaque {
				a = uint8(seed >> 24)
			}
			// Flat runs with noise, like a picture: premultiplied values.
			v := uint8(i / 4 / 50 * 40)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = mulAlpha(v, a), mulAlpha(uint8(seed>>8), a), mulAlpha(uint8(seed>>16)&0xf0, a), a
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%dx%d: %v", c.w, c.h, err)
		}
		if got.Bounds() != img.Bounds() {
			t.Fatalf("%dx%d: decoded %v", c.w, c.h, got.Bounds())
		}
		bad := 0
		for y := 0; y < c.h; y++ {
			for x := 0; x < c.w; x++ {
				want := color.NRGBAModel.Convert(img.RGBAAt(x, y)).(color.NRGBA)
				have := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA)
				if want.A == 0 && have.A == 0 {
					continue
				}
				if diff(want.R, have.R) > 1 || diff(want.G, have.G) > 1 || diff(want.B, have.B) > 1 || want.A != have.A {
					bad++
				}
			}
		}
		if bad > 0 {
			t.Errorf("%dx%d opaque=%v: %d pixels differ", c.w, c.h, c.opaque, bad)
		}
	}
	if err := encodePNG(&bytes.Buffer{}, image.NewRGBA(image.Rect(0, 0, 0, 5))); err == nil {
		t.Error("an empty image encoded without error")
	}
}

func mulAlpha(v, a uint8) uint8 { return uint8((uint32(v)*uint32(a) + 127) / 255) }

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestAdler32Combine(t *testing.T) {
	a, b := []byte("the quick brown fox "), bytes.Repeat([]byte("jumps over the lazy dog "), 5000)
	whole := adler32Of(append(append([]byte(nil), a...), b...))
	if got := adler32Combine(adler32Of(a), adler32Of(b), len(b)); got != whole {
		t.Errorf("combined %08x, want %08x", got, whole)
	}
}

func adler32Of(p []byte) uint32 {
	h := adler32.New()
	h.Write(p)
	return h.Sum32()
}

// TestEncodePNGCoreCount: the bytes do not depend on how many cores
// compress the bands.
func TestEncodePNGCoreCount(t *testing.T) {
	img, err := Architecture(shopGraph(), "shop", Options{Scale: 2}).Image()
	if err != nil {
		t.Fatal(err)
	}
	encode := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if !bytes.Equal(encode(1), encode(4)) {
		t.Error("PNG bytes differ between 1 and 4 cores")
	}
}
