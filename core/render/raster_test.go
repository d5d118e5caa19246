package render

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"testing"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// drawShapes rasterises a picture's shapes with the given scanner.
func drawShapes(t testing.TB, sc *scene, mk func(img *image.RGBA) rasterx.Scanner) *image.RGBA {
	t.Helper()
	w, h := sc.pixelSize(1)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(sc.bg), image.Point{}, draw.Src)
	icon, err := oksvg.ReadIconStream(bytes.NewReader(sc.svg(1, false)), oksvg.IgnoreErrorMode)
	if err != nil {
		t.Fatal(err)
	}
	icon.SetTarget(0, 0, sc.w, sc.h)
	icon.Draw(rasterx.NewDasher(w, h, mk(img)), 1)
	return img
}

// TestBoxScannerMatchesStock draws the same shapes with rasterx's stock
// scanner (which composites the whole canvas per path) and with ours
// (only each path's bounding box): the pixels must agree.
func TestBoxScannerMatchesStock(t *testing.T) {
	pics := map[string]*Picture{
		"arch":  Architecture(shopGraph(), "shop", Options{}),
		"board": Board(testBoard(), Options{}),
	}
	for name, p := range pics {
		stock := drawShapes(t, p.sc, func(img *image.RGBA) rasterx.Scanner {
			return rasterx.NewScannerGV(img.Rect.Dx(), img.Rect.Dy(), img, img.Rect)
		})
		ours := drawShapes(t, p.sc, func(img *image.RGBA) rasterx.Scanner { return newBoxScanner(img) })
		differ, worst := 0, 0
		for i := range stock.Pix {
			d := int(stock.Pix[i]) - int(ours.Pix[i])
			if d < 0 {
				d = -d
			}
			if d > 2 {
				differ++
			}
			worst = max(worst, d)
		}
		// Both use x/image/vector; large canvases switch it to floating
		// point math, small boxes to fixed point, so edges may differ by
		// a shade.
		if differ > len(stock.Pix)/2000 || worst > 40 {
			t.Errorf("%s: %d channel values differ by more than 2 (worst %d)", name, differ, worst)
		}
	}
}

func TestFitAndWrap(t *testing.T) {
	fs := newFontSet()
	long := "The quick brown fox jumps over the lazy dog and keeps running far beyond the edge of the card"
	cases := []struct {
		name     string
		s        string
		maxW     float64
		maxLines int
		lines    int  // expected number of lines
		ellipsis bool // last line ends with "…"
	}{
		{"fits", "short text", 200, 3, 1, false},
		{"wraps", long, 200, 6, 3, false},
		{"truncates", long, 200, 2, 2, true},
		{"one line", long, 120, 1, 1, true},
		{"long word", strings.Repeat("abcdefghij", 12), 150, 10, 5, false},
		{"long word cut", strings.Repeat("abcdefghij", 12), 150, 3, 3, true},
		{"path", "internal/abi/a/b/c/d/e/f/g/h/very_long_file_name.go", 120, 4, 3, false},
		{"blank", "   \n\t ", 100, 3, 0, false},
	}
	for _, c := range cases {
		lines := fs.wrap(c.s, c.maxW, 12, regular, c.maxLines)
		if len(lines) != c.lines {
			t.Errorf("%s: %d lines %q, want %d", c.name, len(lines), lines, c.lines)
			continue
		}
		for _, l := range lines {
			if w := fs.measure(l, 12, regular); w > c.maxW+0.01 {
				t.Errorf("%s: line %q is %.1f wide, max %.1f", c.name, l, w, c.maxW)
			}
		}
		if len(lines) > 0 && strings.HasSuffix(lines[len(lines)-1], "…") != c.ellipsis {
			t.Errorf("%s: last line %q, ellipsis want %v", c.name, lines[len(lines)-1], c.ellipsis)
		}
		if !c.ellipsis && strings.Join(strings.Fields(strings.Join(lines, "")), "") != strings.Join(strings.Fields(c.s), "") {
			t.Errorf("%s: wrapping lost text: %q", c.name, lines)
		}
	}
	if got := fs.fit("hello world", 1000, 12, bold); got != "hello world" {
		t.Errorf("fit changed a fitting text: %q", got)
	}
	if got := fs.fitLeft("a/b/c/d/e/file.go", 60, 12, regular); !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "file.go") {
		t.Errorf("fitLeft = %q, want …/file.go", got)
	}
}

func TestResample(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 40, 20))
	draw.Draw(src, image.Rect(0, 0, 20, 20), image.NewUniform(color.RGBA{255, 0, 0, 255}), image.Point{}, draw.Src)
	draw.Draw(src, image.Rect(20, 0, 40, 20), image.NewUniform(color.RGBA{0, 0, 255, 255}), image.Point{}, draw.Src)
	for _, sz := range []image.Point{{10, 5}, {40, 20}, {80, 40}, {3, 1}} {
		out := resample(src, sz.X, sz.Y)
		if out.Bounds().Size() != sz {
			t.Fatalf("size %v, want %v", out.Bounds().Size(), sz)
		}
		if c := out.RGBAAt(0, 0); c.R < 200 || c.B > 50 {
			t.Errorf("%v: left pixel %v, want red", sz, c)
		}
		if c := out.RGBAAt(sz.X-1, sz.Y-1); c.B < 200 || c.R > 50 {
			t.Errorf("%v: right pixel %v, want blue", sz, c)
		}
	}
	if out := resample(nil, 10, 10); out.Bounds().Dx() != 10 {
		t.Error("nil source")
	}
}

func TestNumAndEscape(t *testing.T) {
	for in, want := range map[float64]string{0: "0", -0.001: "0", 1.006: "1.01", 12.3456: "12.35", -4.5: "-4.5", 100: "100"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
	if got := escape("a<b>&\"c\"\x00\x07\td"); got != "a&lt;b&gt;&amp;&quot;c&quot; d" {
		t.Errorf("escape = %q", got)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := comma(n); got != want {
			t.Errorf("comma(%d) = %q, want %q", n, got, want)
		}
	}
}
