package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
)

// synthetic registers a graph under a made-up root: module files a.py ...
// with the given functions and calls.
func synthetic(h *testHost, root string, funcs []string, calls [][2]string) {
	var nodes []*graph.Node
	var edges []graph.EdgeSpec
	mods := map[string]bool{}
	for i, f := range funcs {
		path, qual, _ := strings.Cut(f, "::")
		if !mods[path] {
			mods[path] = true
			nodes = append(nodes, &graph.Node{ID: path, Kind: graph.Module, Name: path, Path: path, Lang: "python"})
		}
		name := qual[strings.LastIndex(qual, ".")+1:]
		nodes = append(nodes, &graph.Node{ID: f, Kind: graph.Func, Name: name, Qual: qual, Path: path, Lang: "python",
			StartLine: i + 1, EndLine: i + 1})
		edges = append(edges, graph.EdgeSpec{From: path, To: f, Type: graph.Contains})
	}
	for _, c := range calls {
		edges = append(edges, graph.EdgeSpec{From: c[0], To: c[1], Type: graph.Call, Confidence: graph.Resolved, Line: 1})
	}
	h.mu.Lock()
	h.graphs[root] = graph.New(nodes, edges)
	h.mu.Unlock()
}

func TestBudget(t *testing.T) {
	h := newTestHost()
	root := "/synthetic/big"
	funcs := []string{"core.py::target"}
	var calls [][2]string
	for i := range 600 {
		f := fmt.Sprintf("callers/mod%03d.py::VeryLongClassNameForTesting%03d.very_long_method_name_number_%03d", i, i, i)
		funcs = append(funcs, f)
		calls = append(calls, [2]string{f, "core.py::target"})
	}
	synthetic(h, root, funcs, calls)
	s := connect(t, h, root)
	s.call(map[string]any{"action": "init"})
	res := s.call(map[string]any{"action": "impact", "symbol": "target", "depth": 0})
	text := textOf(t, res)
	if res.IsError || !strings.Contains(text, "600 callers") || !strings.Contains(text, "… 580 more") {
		t.Fatalf("impact of a hub:\n%.2000s", text)
	}
	checkLayout(t, "hub impact", text)
	if len(text) > MaxResultChars+2000 {
		t.Fatalf("hub impact answer is %d chars", len(text))
	}
	// The next hint names a few remaining nodes, not 600.
	if !strings.Contains(text, "mark or skip the callers you check (601 affected nodes)") || !strings.Contains(text, "ccd impact --json --root /synthetic/big core.py::target") {
		t.Errorf("hint: %s", text[strings.LastIndex(text, "Next:"):])
	}
	for i := range 40 {
		s.call(map[string]any{"action": "claim", "kind": "finding", "text": fmt.Sprintf("finding %d: %s", i, strings.Repeat("word ", 380))})
	}
	res = s.call(map[string]any{"action": "read"})
	text = textOf(t, res)
	if len(text) > MaxResultChars+2000 || !strings.Contains(text, "older claims not shown") {
		t.Fatalf("read of a big board is %d chars:\n%.1500s", len(text), text)
	}
	checkLayout(t, "big read", text)
	res = s.call(map[string]any{"action": "status"})
	if text = textOf(t, res); len(text) > 4000 {
		t.Fatalf("status of a big board is %d chars", len(text))
	}
	if len(res.Content) != 2 {
		t.Fatalf("status has %d contents", len(res.Content))
	}
}

func TestResponseCut(t *testing.T) {
	r := &response{view: board.View{Summary: "Board: x", Next: "Next: y"}}
	for i := range 2000 {
		r.printf("line %d %s\n", i, strings.Repeat("z", 20))
	}
	text := r.text()
	if !strings.HasSuffix(text, "\n\nBoard: x\nNext: y") || !strings.Contains(text, "… (cut: ") || len(text) > MaxResultChars+200 {
		t.Fatalf("cut response (%d chars) ends %q", len(text), text[len(text)-200:])
	}
}

func TestMarkPrefersAnalysisNodes(t *testing.T) {
	h := newTestHost()
	root := "/synthetic/ambiguous"
	// Two methods named run; X.run ranks first (more call edges), but only
	// Y.run calls the analysed function.
	synthetic(h, root, []string{"a.py::X.run", "b.py::Y.run", "c.py::f", "c.py::g", "c.py::h"},
		[][2]string{{"a.py::X.run", "c.py::g"}, {"a.py::X.run", "c.py::h"}, {"b.py::Y.run", "c.py::f"}})
	s := connect(t, h, root)
	s.call(map[string]any{"action": "init"})
	res := s.call(map[string]any{"action": "mark", "symbol": "run"})
	if text := textOf(t, res); !strings.Contains(text, `Marked "X.run"`) {
		t.Fatalf("without an analysis the best-ranked match wins:\n%s", text)
	}
	s.call(map[string]any{"action": "impact", "symbol": "f"})
	res = s.call(map[string]any{"action": "mark", "symbol": "run"})
	if text := textOf(t, res); !strings.Contains(text, `Marked "Y.run"`) || !strings.Contains(text, "Progress: 1/2 addressed") {
		t.Fatalf("mark did not prefer the analysis node:\n%s", text)
	}
}

func TestMarkMethodOfAggregatedClass(t *testing.T) {
	root := unpack(t, "python")
	s := connect(t, newTestHost(), root)
	s.call(map[string]any{"action": "init"})
	s.call(map[string]any{"action": "impact", "symbol": "Cart"})
	text := textOf(t, s.call(map[string]any{"action": "mark", "symbol": "TestRender.test_render"}))
	if !strings.Contains(text, "Counts for TestRender in the analysis of Cart.") || !strings.Contains(text, "Progress: 1/6 addressed") {
		t.Fatalf("method of an aggregated caller class:\n%s", text)
	}
}

func TestPictureAndSaveFailures(t *testing.T) {
	root := unpack(t, "python")
	h := newTestHost()
	h.pngErr = errBoom
	h.saveErr = errors.New("disk full")
	s := connect(t, h, root)
	res := s.call(map[string]any{"action": "init"})
	text := textOf(t, res)
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("init with a failing renderer: error=%v, %d contents", res.IsError, len(res.Content))
	}
	for _, want := range []string{"Note: the architecture picture is unavailable (renderer exploded).",
		"Note: the board picture is unavailable (renderer exploded).", "Note: the board could not be saved (disk full)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	checkLayout(t, "init with failures", text)
	// The board kept the evidence in memory.
	if text := textOf(t, s.call(map[string]any{"action": "read"})); !strings.Contains(text, "E1 architecture") {
		t.Errorf("read after a failed save:\n%s", text)
	}
}

func TestStaleGraphSaysSo(t *testing.T) {
	root := unpack(t, "python")
	h := newTestHost()
	h.stale = true
	s := connect(t, h, root)
	for _, args := range []map[string]any{{"action": "init"}, {"action": "impact", "symbol": "total"}} {
		text := textOf(t, s.call(args))
		if !strings.Contains(text, "Note: files changed after generation 1 was built") {
			t.Errorf("%v on a stale graph:\n%s", args, text)
		}
	}
	if text := textOf(t, s.call(map[string]any{"action": "status"})); !strings.Contains(text, "update pending") {
		t.Errorf("status on a stale graph:\n%s", text)
	}
}

func TestRoots(t *testing.T) {
	root := unpack(t, "python")
	empty := t.TempDir()
	h := newTestHost()
	tests := []struct {
		name, def string
		args      map[string]any
		want      string
		isError   bool
	}{
		{"no working directory", "", map[string]any{"action": "status"}, "No project: this session has no working directory.", true},
		{"relative without working directory", "", map[string]any{"action": "init", "repo_path": "."}, "is relative and this session has no working directory", true},
		{"tilde", root, map[string]any{"action": "init", "repo_path": "~/x"}, "starts with ~", true},
		{"relative", filepath.Dir(root), map[string]any{"action": "init", "repo_path": filepath.Base(root)}, "Created E1 (architecture)", false},
		{"dot", root, map[string]any{"action": "init", "repo_path": "."}, "Initialized python-repo", false},
		{"inside the project", filepath.Join(root, "shop", "util"), map[string]any{"action": "impact", "symbol": "money"}, `impact "money"`, false},
		{"no source files", empty, map[string]any{"action": "init"}, "has no source files.\nHint: Init again once the code is there", true},
		{"not a directory", root, map[string]any{"action": "init", "repo_path": filepath.Join(root, "nope")}, "not a directory.\nHint: Give the project's directory", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := connect(t, h, tc.def)
			res := s.call(tc.args)
			text := textOf(t, res)
			if res.IsError != tc.isError || !strings.Contains(text, tc.want) {
				t.Fatalf("isError=%v:\n%s\nwant %q", res.IsError, text, tc.want)
			}
		})
	}
	// After an init with an explicit repo_path, later calls default to it.
	s := connect(t, h, empty)
	s.call(map[string]any{"action": "init", "repo_path": root})
	if res := s.call(map[string]any{"action": "impact", "symbol": "total"}); res.IsError {
		t.Fatalf("impact after init elsewhere:\n%s", textOf(t, res))
	}
}

// indexingHost answers every Graph call with ErrIndexing.
type indexingHost struct{ *testHost }

func (h indexingHost) Graph(ctx context.Context, root string) (*graph.Graph, Meta, error) {
	return nil, Meta{}, fmt.Errorf("%w (412/9000 files)", ErrIndexing)
}

func TestIndexing(t *testing.T) {
	s := connect(t, indexingHost{newTestHost()}, "/somewhere")
	res := s.call(map[string]any{"action": "impact", "symbol": "x"})
	text := textOf(t, res)
	if !res.IsError || !strings.Contains(text, "still being indexed") || !strings.Contains(text, "(412/9000 files)") || !strings.Contains(text, "Hint: Wait a few seconds") {
		t.Fatalf("indexing:\n%s", text)
	}
}

// TestSessionsShareBoard runs two client sessions on one workspace at
// once: every item of both lands on the one board, with unique ids.
func TestSessionsShareBoard(t *testing.T) {
	root := unpack(t, "python")
	h := newTestHost()
	a, b := connect(t, h, root), connect(t, h, root)
	a.call(map[string]any{"action": "init"})
	b.call(map[string]any{"action": "init"})
	a.call(map[string]any{"action": "impact", "symbol": "total"})
	const each = 15
	var wg sync.WaitGroup
	for n, s := range []*session{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				args := map[string]any{"action": "claim", "text": fmt.Sprintf("session %d claim %d", n, i)}
				if i%3 == 2 {
					args = map[string]any{"action": "mark", "symbol": "render"}
				}
				res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolName, Arguments: args})
				if err != nil || res.IsError {
					t.Errorf("session %d: %v %v", n, err, res)
				}
			}
		}()
	}
	wg.Wait()
	brd, _ := h.Board(root)
	snap := brd.Snapshot()
	if len(snap.Claims) != 20 || len(snap.Decisions) != 10 {
		t.Fatalf("%d claims, %d decisions; want 20 and 10", len(snap.Claims), len(snap.Decisions))
	}
	seen := map[string]bool{}
	for _, c := range snap.Claims {
		if seen[c.ID] {
			t.Fatalf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
	}
	// What was saved last is the whole board.
	h.mu.Lock()
	saved := h.saved[root]
	h.mu.Unlock()
	loaded, err := board.Unmarshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	if got := loaded.Snapshot(); len(got.Claims) != 20 || len(got.Decisions) != 10 {
		t.Fatalf("saved board has %d claims, %d decisions", len(got.Claims), len(got.Decisions))
	}
}

func TestServeEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srvConn, cliConn := net.Pipe()
	defer cliConn.Close()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, newTestHost(), srvConn, "/x") }()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	if _, err := client.Connect(ctx, &sdk.IOTransport{Reader: cliConn, Writer: cliConn}, nil); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Serve returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	// The connection is closed: the client side reads EOF.
	cliConn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := cliConn.Read(make([]byte, 1)); err == nil {
		t.Fatal("connection still open after Serve returned")
	}
}

func TestNewServerInMemory(t *testing.T) {
	root := unpack(t, "python")
	srvT, cliT := sdk.NewInMemoryTransports()
	srv := NewServer(newTestHost(), WithDefaultRoot(root), WithVersion("1.2.3"))
	ctx := context.Background()
	ss, err := srv.Connect(ctx, srvT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, cliT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "ccd" || init.ServerInfo.Version != "1.2.3" || !strings.Contains(init.Instructions, "canvas(action=\"impact\"") {
		t.Fatalf("server info %+v instructions %q", init.ServerInfo, init.Instructions)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolName, Arguments: map[string]any{"action": "init"}})
	if err != nil || res.IsError || len(imagesOf(t, res)) != 2 {
		t.Fatalf("init in memory: %v %+v", err, res)
	}
}

func TestLogsGoToTheLogger(t *testing.T) {
	root := unpack(t, "python")
	var mu sync.Mutex
	var logs strings.Builder
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logs.Write(p) })
	s := connect(t, newTestHost(), root, WithLogger(newTextLogger(w)))
	s.call(map[string]any{"action": "init"})
	s.call(map[string]any{"action": "impact", "symbol": "nope_nothing"})
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "action=init") || !strings.Contains(logs.String(), "error=true") {
		t.Fatalf("logs:\n%s", logs.String())
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"core.py::target", "core.py::target"},
		{"/a/b-c_d", "/a/b-c_d"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"x$(rm)", "'x$(rm)'"},
	}
	for _, tc := range tests {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// panicHost panics in Graph, as a buggy host might.
type panicHost struct{ *testHost }

func (panicHost) Graph(ctx context.Context, root string) (*graph.Graph, Meta, error) {
	panic("boom")
}

func TestPanicBecomesError(t *testing.T) {
	s := connect(t, panicHost{newTestHost()}, "/x")
	res := s.call(map[string]any{"action": "status"})
	if text := textOf(t, res); !res.IsError || !strings.Contains(text, "Internal error: boom.") {
		t.Fatalf("panic answer:\n%s", text)
	}
	// The session still works.
	res = s.call(map[string]any{"action": "fly"})
	if !res.IsError || !strings.Contains(textOf(t, res), "Unknown action") {
		t.Fatal("session died after a panic")
	}
}
