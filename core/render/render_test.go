package render

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

var update = flag.Bool("update", false, "rewrite testdata/render/*.svg")

func mustIndex(t *testing.T, g *graph.Graph, id string) int {
	t.Helper()
	i, ok := g.Index(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	return i
}

// views are the pictures the golden and property tests draw.
func views(t *testing.T) map[string]*Picture {
	g := shopGraph()
	return map[string]*Picture{
		"arch_shop":           Architecture(g, "shop", Options{}),
		"impact_func":         Impact(g, mustIndex(t, g, "store/repo.go::Repo.Save"), 2, Options{}),
		"impact_class":        Impact(g, mustIndex(t, g, "store/repo.go::Repo"), 2, Options{}),
		"impact_module":       Impact(g, mustIndex(t, g, "service/service.go"), 0, Options{}),
		"board":               Board(testBoard(), Options{}),
		"arch_empty":          Architecture(graph.New(nil, nil), "empty", Options{}),
		"impact_out_of_range": Impact(g, 999, 2, Options{}),
		"board_empty":         Board(BoardView{}, Options{}),
	}
}

// TestGolden compares each view's SVG with testdata/render/<name>.svg
// (go test ./core/render -update rewrites them).
func TestGolden(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "render")
	for name, p := range views(t) {
		t.Run(name, func(t *testing.T) {
			got := p.SVG()
			path := filepath.Join(dir, name+".svg")
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./core/render -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file (%d vs %d bytes); inspect it and run -update if the change is intended:\n%s",
					name, len(got), len(want), firstDiff(string(got), string(want)))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(al), len(bl))
}

// TestSVGWellFormed parses every view's SVG as XML and checks that it has
// text, and that arrowheads are paths (no markers).
func TestSVGWellFormed(t *testing.T) {
	for name, p := range views(t) {
		svg := p.SVG()
		dec := xml.NewDecoder(bytes.NewReader(svg))
		texts := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: invalid XML: %v", name, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				switch se.Name.Local {
				case "text":
					texts++
				case "marker":
					t.Errorf("%s: uses <marker>, which oksvg cannot draw", name)
				}
			}
		}
		if texts < 3 {
			t.Errorf("%s: only %d <text> elements", name, texts)
		}
	}
}

// TestPNGSize decodes each PNG and checks it has the size Size reports,
// at 1x and 2x.
func TestPNGSize(t *testing.T) {
	g := shopGraph()
	for _, scale := range []float64{0, 1, 2} {
		for name, p := range map[string]*Picture{
			"arch":   Architecture(g, "shop", Options{Scale: scale}),
			"impact": Impact(g, mustIndex(t, g, "store/repo.go::NewRepo"), 2, Options{Scale: scale}),
			"board":  Board(testBoard(), Options{Scale: scale}),
		} {
			b, err := p.PNG()
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s@%v: %v", name, scale, err)
			}
			w, h := p.Size()
			if got := img.Bounds().Size(); got != (image.Point{w, h}) {
				t.Errorf("%s@%v: png is %v, Size says %dx%d", name, scale, got, w, h)
			}
			one := *p
			one.scale = 1
			w1, h1 := one.Size()
			want := max(scale, 1)
			if w != int(float64(w1)*want) || h != int(float64(h1)*want) {
				t.Errorf("%s@%v: %dx%d is not %v × %dx%d", name, scale, w, h, want, w1, h1)
			}
			if w < 300 || h < 200 {
				t.Errorf("%s@%v: implausibly small %dx%d", name, scale, w, h)
			}
		}
	}
}

// TestDeterministic renders every view twice from scratch and compares
// the bytes.
func TestDeterministic(t *testing.T) {
	a, b := views(t), views(t)
	for name := range a {
		if !bytes.Equal(a[name].SVG(), b[name].SVG()) {
			t.Errorf("%s: SVG differs between two renders", name)
		}
		pa, err := a[name].PNG()
		if err != nil {
			t.Fatal(err)
		}
		pb, err := b[name].PNG()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pa, pb) {
			t.Errorf("%s: PNG differs between two renders", name)
		}
	}
}

// TestNoOverlap checks that no two cards of a picture overlap and that
// every card lies inside the canvas.
func TestNoOverlap(t *testing.T) {
	all := views(t)
	all["arch_large"] = Architecture(synthGraph(40, 60, 3), "large", Options{})
	g := synthGraph(6, 30, 3)
	all["impact_hub"] = Impact(g, mustIndex(t, g, "pkg00/sub0/file000.go::F0"), 2, Options{})
	for name, p := range all {
		boxes := p.sc.boxes
		if len(boxes) == 0 {
			t.Errorf("%s: no cards recorded", name)
		}
		for i, a := range boxes {
			if a.x < 0 || a.y < 0 || a.right() > p.sc.w || a.bottom() > p.sc.h {
				t.Errorf("%s: card %d %+v outside the %vx%v canvas", name, i, a, p.sc.w, p.sc.h)
			}
			for j := i + 1; j < len(boxes); j++ {
				if a.overlaps(boxes[j]) {
					t.Errorf("%s: cards %d %+v and %d %+v overlap", name, i, a, j, boxes[j])
				}
			}
		}
	}
}

var moreRE = regexp.MustCompile(`\+([0-9,]+) more modules`)

// TestLargeGraphSummarises draws thousands of modules and checks that the
// picture stays bounded: at most 24 districts, "+N more modules" notes,
// merged small directories, and the listed plus unlisted modules add up.
func TestLargeGraphSummarises(t *testing.T) {
	g := synthGraph(90, 40, 2) // 3,600 modules in 90 directories
	p := Architecture(g, "synthetic", Options{})
	svg := string(p.SVG())
	if n := len(p.sc.boxes); n > maxDistricts || n < 10 {
		t.Errorf("%d districts drawn, want 10..%d", n, maxDistricts)
	}
	more := 0
	for _, m := range moreRE.FindAllStringSubmatch(svg, -1) {
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		more += n
	}
	listed := strings.Count(svg, ".go</text>")
	if more == 0 {
		t.Fatal(`no "+N more modules" in the picture of 3,600 modules`)
	}
	if listed+more != 3600 {
		t.Errorf("%d listed + %d summarised = %d, want 3600", listed, more, listed+more)
	}
	if strings.Count(svg, "<text") > 1500 {
		t.Errorf("%d text elements: not summarised", strings.Count(svg, "<text"))
	}
	if !strings.Contains(svg, "of 3,600 modules listed") {
		t.Error("footer does not say how many modules are listed")
	}
	if w, h := p.Size(); w > 4000 || h > 4000 {
		t.Errorf("picture is %dx%d: too large to read", w, h)
	}
}

// TestGorootNet draws a real package tree when GOROOT/src/net exists.
func TestGorootNet(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes GOROOT/src/net")
	}
	dir := filepath.Join(runtime.GOROOT(), "src", "net")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no %s: %v", dir, err)
	}
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	p := Architecture(res.Graph, "net", Options{})
	svg := string(p.SVG())
	if !moreRE.MatchString(svg) {
		t.Error(`no "+N more modules" in the picture of GOROOT/src/net`)
	}
	if !strings.Contains(svg, "http/") {
		t.Error("no http/ district")
	}
	if _, err := p.PNG(); err != nil {
		t.Fatal(err)
	}
}

// TestTextDrawn checks that the PNG holds the title text: the title's
// region has dark pixels, and a region of the background has none.
func TestTextDrawn(t *testing.T) {
	for _, scale := range []float64{1, 2} {
		p := Architecture(shopGraph(), "shop", Options{Scale: scale})
		img, err := p.Image()
		if err != nil {
			t.Fatal(err)
		}
		dark := func(r image.Rectangle) int {
			n := 0
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					c := img.RGBAAt(x, y)
					if int(c.R)+int(c.G)+int(c.B) < 3*110 {
						n++
					}
				}
			}
			return n
		}
		s := func(v float64) int { return int(v * scale) }
		title := image.Rect(s(margin), s(margin), s(margin+60), s(margin+28))
		blank := image.Rect(s(margin), s(4), s(margin+60), s(margin-6))
		if n := dark(title); n < s(40) {
			t.Errorf("@%vx: only %d dark pixels where the title is", scale, n)
		}
		if n := dark(blank); n != 0 {
			t.Errorf("@%vx: %d dark pixels above the title", scale, n)
		}
	}
}

// fanIn is a function called by n functions in their own files; every
// weakEvery-th call is a name match and the last caller is a test.
func fanIn(n, weakEvery int) *graph.Graph {
	nodes := []*graph.Node{{ID: "t.go", Kind: graph.Module, Name: "t.go", Path: "t.go"},
		{ID: "t.go::Target", Kind: graph.Func, Name: "Target", Qual: "Target", Path: "t.go", StartLine: 3, EndLine: 9, Signature: "func Target()"}}
	edges := []graph.EdgeSpec{{From: "t.go", To: "t.go::Target", Type: graph.Contains}}
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("c%02d.go", i)
		test := i == n-1
		if test {
			p = "c_test.go"
		}
		q := fmt.Sprintf("Caller%02d", i)
		nodes = append(nodes, &graph.Node{ID: p, Kind: graph.Module, Name: p, Path: p, Test: test},
			&graph.Node{ID: p + "::" + q, Kind: graph.Func, Name: q, Qual: q, Path: p, StartLine: 1, EndLine: 4, Test: test})
		conf := graph.Resolved
		if i%weakEvery == 1 {
			conf = graph.NameMatch
		}
		edges = append(edges, graph.EdgeSpec{From: p, To: p + "::" + q, Type: graph.Contains},
			graph.EdgeSpec{From: p + "::" + q, To: "t.go::Target", Type: graph.Call, Confidence: conf, Line: 2})
	}
	return graph.New(nodes, edges)
}

// TestImpactAggregates: more than 8 callers become 7 cards and "+N more";
// weak edges are marked and dashed; tests are listed.
func TestImpactAggregates(t *testing.T) {
	cards := regexp.MustCompile(`font-size="12.5" fill="#1f2933"[^>]*>Caller`)
	for _, c := range []struct {
		n, weakEvery, cards int
		more                string
		weak                bool
	}{
		{20, 4, 7, ">+13 more</text>", false}, // the 15 strong callers come first
		{8, 4, 8, "", true},
		{3, 2, 3, "", true},
	} {
		g := fanIn(c.n, c.weakEvery)
		svg := string(Impact(g, mustIndex(t, g, "t.go::Target"), 1, Options{}).SVG())
		if got := len(cards.FindAllString(svg, -1)); got != c.cards {
			t.Errorf("%d callers: %d cards, want %d", c.n, got, c.cards)
		}
		if c.more != "" && !strings.Contains(svg, c.more) {
			t.Errorf("%d callers: no %q", c.n, c.more)
		}
		if c.more == "" && strings.Contains(svg, " more</text>") {
			t.Errorf("%d callers: unexpected \"more\" card", c.n)
		}
		weak := strings.Contains(svg, "name-match</text>") && strings.Contains(svg, `stroke-dasharray="6 4"`)
		if weak != c.weak {
			t.Errorf("%d callers: weak edges drawn %v, want %v", c.n, weak, c.weak)
		}
		test := fmt.Sprintf(">Caller%02d</text>", c.n-1)
		if !strings.Contains(svg, "Affected tests (1)") || !strings.Contains(svg, test) {
			t.Errorf("%d callers: the test caller is not listed under affected tests", c.n)
		}
		if !strings.Contains(svg, "no callees found") {
			t.Errorf("%d callers: an empty callee side has no message", c.n)
		}
	}
}

// TestEmptyInputs: nothing panics, and each picture says what to do.
func TestEmptyInputs(t *testing.T) {
	cases := []struct {
		name string
		p    *Picture
		want string
	}{
		{"nil graph", Architecture(nil, "", Options{}), "No modules to draw."},
		{"no modules", Architecture(graph.New(nil, nil), "x", Options{}), "Index a directory"},
		{"impact nil graph", Impact(nil, 0, 2, Options{}), "The graph is empty."},
		{"impact bad node", Impact(shopGraph(), -1, 2, Options{}), "No symbol number -1"},
		{"empty board", Board(BoardView{}, Options{}), "No claims yet"},
		{"board with blank items", Board(BoardView{Claims: []BoardItem{{}}, Evidence: []BoardEvidence{{Thumb: image.NewRGBA(image.Rect(0, 0, 0, 0))}}, Decisions: []BoardItem{{Evidence: []string{"nope"}}}}, Options{Scale: 2}), "(no text)"},
		{"bad scale", Board(BoardView{Title: "x"}, Options{Scale: -3}), "No focus yet"},
	}
	for _, c := range cases {
		svg := string(c.p.SVG())
		if !strings.Contains(svg, escape(c.want)) {
			t.Errorf("%s: picture lacks %q", c.name, c.want)
		}
		if _, err := c.p.PNG(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestFixtureRepos draws every fixture repository of testdata/graph.
func TestFixtureRepos(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "graph", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			g := fixtureGraph(t, name)
			pics := []*Picture{Architecture(g, name, Options{})}
			best, bestDeg := -1, -1
			for i, n := range g.Nodes {
				if n.Kind == graph.Func && g.Degree(i) > bestDeg {
					best, bestDeg = i, g.Degree(i)
				}
			}
			if best >= 0 {
				pics = append(pics, Impact(g, best, 2, Options{}))
			}
			for _, p := range pics {
				b, err := p.PNG()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Fatal(err)
				}
				for i, a := range p.sc.boxes {
					for _, c := range p.sc.boxes[i+1:] {
						if a.overlaps(c) {
							t.Errorf("cards %+v and %+v overlap", a, c)
						}
					}
				}
			}
		})
	}
}

// TestThumbnail shrinks a picture to the asked width.
func TestThumbnail(t *testing.T) {
	p := Architecture(shopGraph(), "shop", Options{Scale: 2})
	th := Thumbnail(p, 200)
	w, h := p.Size()
	if th == nil || th.Bounds().Dx() != 200 || th.Bounds().Dy() != (h*200+w/2)/w {
		t.Fatalf("thumbnail %v of a %dx%d picture", th.Bounds(), w, h)
	}
	if Thumbnail(nil, 100) != nil {
		t.Error("thumbnail of nil")
	}
}
