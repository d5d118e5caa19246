package render

import (
	"image"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/srwiley/rasterx"
)

// cpuPerOp runs f b.N times (b.Loop) and also reports the process CPU
// time per operation: wall time on a busy shared machine overstates the
// work, CPU time does not (it includes the GC's work on other cores).
func cpuPerOp(b *testing.B, f func()) {
	b.Helper()
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(n)/1e6, "cpu-ms/op")
	}
}

var (
	gorootOnce  sync.Once
	gorootGraph *graph.Graph
	gorootErr   error
)

// goroot indexes GOROOT/src once per test binary (about 10 s), outside
// any timer; it skips the benchmark only when GOROOT/src is absent.
func goroot(b *testing.B) *graph.Graph {
	b.Helper()
	dir := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no %s: %v", dir, err)
	}
	gorootOnce.Do(func() {
		res, err := index.Build(dir, config.Default())
		if err != nil {
			gorootErr = err
			return
		}
		gorootGraph = res.Graph
	})
	if gorootErr != nil {
		b.Fatal(gorootErr)
	}
	return gorootGraph
}

// BenchmarkArchitectureGOROOT: model, layout, SVG-less PNG of GOROOT/src
// (7.7k files), PNG encoding included. Target: ≤ 1 s.
func BenchmarkArchitectureGOROOT(b *testing.B) {
	g := goroot(b)
	size := 0
	cpuPerOp(b, func() {
		png, err := Architecture(g, "go", Options{}).PNG()
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	})
	b.ReportMetric(float64(size)/1024, "KiB")
}

// busiest returns the function with the most call edges.
func busiest(g *graph.Graph) int {
	best, deg := 0, -1
	for i, n := range g.Nodes {
		if n.Kind == graph.Func {
			if d := len(g.In(i)) + len(g.Out(i)); d > deg {
				best, deg = i, d
			}
		}
	}
	return best
}

// BenchmarkImpactGOROOT: the impact view (depth 2) of GOROOT's busiest
// function and of a busy module, PNG encoding included. Target: ≤ 100 ms.
func BenchmarkImpactGOROOT(b *testing.B) {
	g := goroot(b)
	targets := map[string]int{"func": busiest(g)}
	if i, ok := g.Index("fmt/print.go"); ok {
		targets["module"] = i
	}
	for name, i := range targets {
		b.Run(name, func(b *testing.B) {
			cpuPerOp(b, func() {
				if _, err := Impact(g, i, 2, Options{}).PNG(); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkBoard: a full board (10 claims, 6 evidence thumbnails, 10
// decisions), PNG encoding included. Target: ≤ 150 ms.
func BenchmarkBoard(b *testing.B) {
	bv := testBoard()
	arch := Thumbnail(Architecture(shopGraph(), "shop", Options{}), 420)
	for len(bv.Claims) < 10 {
		bv.Claims = append(bv.Claims, bv.Claims[len(bv.Claims)%3])
		bv.Decisions = append(bv.Decisions, bv.Decisions[len(bv.Decisions)%4])
	}
	for len(bv.Evidence) < 6 {
		e := bv.Evidence[0]
		e.Thumb = arch
		bv.Evidence = append(bv.Evidence, e)
	}
	for _, scale := range []float64{1, 2} {
		b.Run(map[float64]string{1: "1x", 2: "2x"}[scale], func(b *testing.B) {
			cpuPerOp(b, func() {
				if _, err := Board(bv, Options{Scale: scale}).PNG(); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkScanner compares rasterising the shapes of a small picture
// (the fixture architecture, about 1000×700 pixels) with rasterx's stock
// scanner, which composites the whole canvas for every path, and with the
// bounding-box scanner. (On a 1450×2260 picture of 198 shapes the stock
// scanner took 18 s, the bounding-box one 22 ms.)
func BenchmarkScanner(b *testing.B) {
	p := Architecture(shopGraph(), "shop", Options{})
	w, h := p.Size()
	b.Logf("%dx%d pixels, %d shapes", w, h, len(p.sc.shapes))
	b.Run("stock", func(b *testing.B) {
		for b.Loop() {
			drawShapes(b, p.sc, func(img *image.RGBA) rasterx.Scanner {
				return rasterx.NewScannerGV(img.Rect.Dx(), img.Rect.Dy(), img, img.Rect)
			})
		}
	})
	b.Run("bbox", func(b *testing.B) {
		for b.Loop() {
			drawShapes(b, p.sc, func(img *image.RGBA) rasterx.Scanner { return newBoxScanner(img) })
		}
	})
}
