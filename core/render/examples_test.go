package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

var examples = flag.String("examples", "", "write the example pictures (architecture.png, impact.png, board.png) of GOROOT/src into this directory")

// TestExamples draws the pictures shown in docs/:
//
//	go test ./core/render -run TestExamples -examples ../../docs
func TestExamples(t *testing.T) {
	if *examples == "" {
		t.Skip("set -examples DIR to write the example pictures")
	}
	dir := filepath.Join(runtime.GOROOT(), "src")
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	g := res.Graph
	serve, ok := g.Index("net/http/server.go::Server.Serve")
	if !ok {
		t.Fatal("no net/http/server.go::Server.Serve in GOROOT/src")
	}
	arch := Architecture(g, "go", Options{})
	imp := Impact(g, serve, 2, Options{})
	im := g.Impact(serve, 2, graph.Filter{})
	board := Board(BoardView{
		Title: "go",
		Focus: "net/http/server.go::Server.Serve",
		Done:  3, Total: len(im.Callers) + len(im.Callees),
		Claims: []BoardItem{
			{ID: "C1", Kind: "hypothesis", Text: "Changing how Server.Serve accepts connections may break ListenAndServe, ServeTLS and httptest's servers, which all funnel through it.", Status: "open", Evidence: []string{"E2"}},
			{ID: "C2", Kind: "finding", Text: "Serve tracks its listener and checks shuttingDown before the accept loop; temporary accept errors back off from 5 ms doubling to 1 s.", Evidence: []string{"E2"}},
			{ID: "C3", Kind: "question", Text: "Do conn.serve's callers rely on the context values Serve installs (ServerContextKey, LocalAddrContextKey)?", Evidence: []string{"E1"}},
		},
		Evidence: []BoardEvidence{
			{ID: "E1", Kind: "architecture", Title: "GOROOT/src architecture", Summary: fmt.Sprintf("%s modules in 24 districts; fmt, strings, unsafe and errors are the hubs.", comma(g.Count(graph.Module))), Thumb: Thumbnail(arch, 840)},
			{ID: "E2", Kind: "impact", Title: "Impact of Server.Serve", Summary: fmt.Sprintf("%d callers, %d callees, %d affected tests (depth 2).", len(im.Callers), len(im.Callees), len(im.Tests)), Thumb: Thumbnail(imp, 840)},
		},
		Decisions: []BoardItem{
			{ID: "D1", Kind: "plan", Text: "Move the accept loop's back-off into its own function, then re-run the server tests.", Evidence: []string{"E2"}},
			{ID: "D2", Kind: "test", Text: "go test ./net/http -run 'TestServe|TestServerShutdown'", Status: "passed"},
			{ID: "D3", Kind: "mark", Text: "Server.ServeTLS verified via tests"},
			{ID: "D4", Kind: "skip", Text: "httptest's servers are out of scope"},
		},
	}, Options{})
	for name, p := range map[string]*Picture{"architecture": arch, "impact": imp, "board": board} {
		b, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*examples, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
