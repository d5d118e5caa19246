package render

import (
	"fmt"
	"image"
	"image/color"

	"github.com/ccd-dev/ccd/core/graph"
)

// shopGraph is a small hand-built workspace: three directories, a class
// with methods, imports, calls of every confidence and a test.
func shopGraph() *graph.Graph {
	mod := func(p string, test bool) *graph.Node {
		return &graph.Node{ID: p, Kind: graph.Module, Name: p, Path: p, Lang: "go", Test: test}
	}
	fn := func(p, qual string, line int, sig, owner string, test bool) *graph.Node {
		name := qual
		for i := len(qual) - 1; i >= 0; i-- {
			if qual[i] == '.' {
				name = qual[i+1:]
				break
			}
		}
		return &graph.Node{ID: p + "::" + qual, Kind: graph.Func, Name: name, Qual: qual, Path: p, Lang: "go",
			StartLine: line, EndLine: line + 6, Signature: sig, Owner: owner, Test: test}
	}
	class := func(p, name string, line int) *graph.Node {
		return &graph.Node{ID: p + "::" + name, Kind: graph.Class, Name: name, Qual: name, Path: p, Lang: "go",
			StartLine: line, EndLine: line + 3, Signature: "type " + name + " struct"}
	}
	nodes := []*graph.Node{
		mod("main.go", false),
		fn("main.go", "main", 10, "func main()", "", false),
		fn("main.go", "run", 18, "func run() error", "", false),
		mod("service/service.go", false),
		class("service/service.go", "Service", 8),
		fn("service/service.go", "New", 15, "func New(r *store.Repo) *Service", "", false),
		fn("service/service.go", "Service.Add", 20, "func (s *Service) Add(name string) error", "service/service.go::Service", false),
		mod("service/notify.go", false),
		fn("service/notify.go", "send", 25, "func send(msg string)", "", false),
		mod("store/repo.go", false),
		class("store/repo.go", "Repo", 10),
		fn("store/repo.go", "NewRepo", 15, "func NewRepo() *Repo", "", false),
		fn("store/repo.go", "Repo.Save", 20, "func (r *Repo) Save(it Item) error", "store/repo.go::Repo", false),
		fn("store/repo.go", "Repo.Get", 26, "func (r *Repo) Get(id int) (Item, bool)", "store/repo.go::Repo", false),
		mod("store/repo_test.go", true),
		fn("store/repo_test.go", "TestSave", 5, "func TestSave(t *testing.T)", "", true),
	}
	var edges []graph.EdgeSpec
	for _, n := range nodes {
		if n.Kind != graph.Module {
			edges = append(edges, graph.EdgeSpec{From: n.Path, To: n.ID, Type: graph.Contains})
		}
	}
	imp := func(a, b string, line int) {
		edges = append(edges, graph.EdgeSpec{From: a, To: b, Type: graph.Import, Confidence: graph.Resolved, Line: line})
	}
	call := func(a, b string, c graph.Confidence, line int) {
		edges = append(edges, graph.EdgeSpec{From: a, To: b, Type: graph.Call, Confidence: c, Line: line})
	}
	imp("main.go", "service/service.go", 4)
	imp("main.go", "store/repo.go", 5)
	imp("service/service.go", "store/repo.go", 3)
	imp("store/repo_test.go", "store/repo.go", 3)
	call("main.go::main", "main.go::run", graph.Resolved, 11)
	call("main.go::run", "service/service.go::New", graph.Resolved, 19)
	call("main.go::run", "service/service.go::Service.Add", graph.Resolved, 20)
	call("main.go::run", "service/service.go::Service.Add", graph.Resolved, 22)
	call("main.go::run", "store/repo.go::NewRepo", graph.Resolved, 19)
	call("service/service.go::New", "store/repo.go::NewRepo", graph.NameMatch, 16)
	call("service/service.go::Service.Add", "store/repo.go::Repo.Save", graph.Inferred, 22)
	call("service/service.go::Service.Add", "service/notify.go::send", graph.Resolved, 23)
	call("store/repo.go::Repo.Save", "store/repo.go::Repo.Get", graph.Resolved, 21)
	call("store/repo_test.go::TestSave", "store/repo.go::Repo.Save", graph.Resolved, 8)
	call("store/repo_test.go::TestSave", "store/repo.go::NewRepo", graph.Resolved, 7)
	return graph.New(nodes, edges)
}

// synthGraph is a large generated workspace: dirs directories (nested two
// deep) of files modules with funcs functions each, deterministic imports
// and calls, and one heavily used module.
func synthGraph(dirs, files, funcs int) *graph.Graph {
	var nodes []*graph.Node
	var edges []graph.EdgeSpec
	seed := uint32(7)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	path := func(d, f int) string { return fmt.Sprintf("pkg%02d/sub%d/file%03d.go", d/3, d%3, f) }
	for d := 0; d < dirs; d++ {
		for f := 0; f < files; f++ {
			p := path(d, f)
			nodes = append(nodes, &graph.Node{ID: p, Kind: graph.Module, Name: p, Path: p, Lang: "go", Test: f%10 == 9})
			for k := 0; k < funcs; k++ {
				q := fmt.Sprintf("F%d", k)
				nodes = append(nodes, &graph.Node{ID: p + "::" + q, Kind: graph.Func, Name: q, Qual: q, Path: p, Lang: "go", StartLine: 3 + 10*k, EndLine: 9 + 10*k})
				edges = append(edges, graph.EdgeSpec{From: p, To: p + "::" + q, Type: graph.Contains})
			}
		}
	}
	hub := path(0, 0)
	for d := 0; d < dirs; d++ {
		for f := 0; f < files; f++ {
			p := path(d, f)
			edges = append(edges, graph.EdgeSpec{From: p, To: hub, Type: graph.Import, Confidence: graph.Resolved, Line: 3})
			// Mostly "downward" imports: from higher to lower directories.
			to := path(rnd(d+1), rnd(files))
			edges = append(edges, graph.EdgeSpec{From: p, To: to, Type: graph.Import, Confidence: graph.Resolved, Line: 4})
			edges = append(edges, graph.EdgeSpec{From: p + "::F0", To: to + "::F1", Type: graph.Call, Confidence: graph.Confidence(1 + rnd(3)), Line: 5})
			edges = append(edges, graph.EdgeSpec{From: p + "::F1", To: hub + "::F0", Type: graph.Call, Confidence: graph.Resolved, Line: 6})
		}
	}
	return graph.New(nodes, edges)
}

// testThumb is a deterministic picture for evidence cards.
func testThumb(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), 160, 255})
		}
	}
	return img
}

// testBoard is a board with every kind of item, long texts and a missing
// picture.
func testBoard() BoardView {
	return BoardView{
		Title: "shop", Focus: "store/repo.go::Repo.Save", Done: 2, Total: 5,
		Claims: []BoardItem{
			{ID: "C1", Kind: "hypothesis", Text: "Changing Repo.Save's signature breaks Service.Add and TestSave.", Status: "open", Evidence: []string{"E2"}},
			{ID: "C2", Kind: "finding", Text: "Service.Add reaches Repo.Save only through an inferred receiver type, so the edge is weak; " +
				"confirm it before relying on it. This sentence is long on purpose so that the card has to wrap it over several lines and finally cut it off with an ellipsis at the end of the last line.",
				Evidence: []string{"E2", "E1"}},
			{ID: "C3", Kind: "question", Text: "Does_anything_call_Repo_Get_outside_the_store_package_or_is_it_only_used_by_Save_itself_and_nothing_else_at_all"},
		},
		Evidence: []BoardEvidence{
			{ID: "E1", Kind: "architecture", Title: "shop architecture", Summary: "4 modules in 3 districts.", Thumb: testThumb(320, 200)},
			{ID: "E2", Kind: "impact", Title: "Impact of Repo.Save", Summary: "2 callers, 1 callee, 1 affected test.", Thumb: testThumb(160, 240)},
			{ID: "E3", Kind: "impact", Title: "Impact of Repo.Get", Summary: "Picture not rendered."},
		},
		Decisions: []BoardItem{
			{ID: "D1", Kind: "plan", Text: "Add an options argument to Repo.Save, then update Service.Add.", Evidence: []string{"E2"}},
			{ID: "D2", Kind: "test", Text: "go test ./store ./service", Status: "passed"},
			{ID: "D3", Kind: "mark", Text: "Service.Add verified via tests"},
			{ID: "D4", Kind: "skip", Text: "main.go out of scope"},
		},
	}
}
