package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// mcpSession connects a real go-sdk client to the real ccd-mcp binary
// (which starts or reaches the daemon of e), with dir as its workspace.
func mcpSession(t *testing.T, e *env, dir string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(bins.mc)
	cmd.Env = append(append(os.Environ(), e.vars...), "CLAUDE_PROJECT_DIR="+dir)
	cmd.Dir = dir
	client := sdk.NewClient(&sdk.Implementation{Name: "ccd-e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect through ccd-mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call runs one canvas action and returns its text and decoded images.
// initSession opens an MCP session on dir through the real shim and
// initialises the workspace, failing the test when init fails.
func initSession(t *testing.T, e *env, dir string) *sdk.ClientSession {
	t.Helper()
	cs := mcpSession(t, e, dir)
	if text, _, isErr := call(t, cs, map[string]any{"action": "init"}); isErr {
		t.Fatalf("init: %s", text)
	}
	return cs
}

func call(t *testing.T, cs *sdk.ClientSession, args map[string]any) (string, int, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "canvas", Arguments: args})
	if err != nil {
		t.Fatalf("canvas %v: %v", args, err)
	}
	var text strings.Builder
	images := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			text.WriteString(c.Text)
			text.WriteString("\n")
		case *sdk.ImageContent:
			if c.MIMEType != "image/png" {
				t.Errorf("image of type %s", c.MIMEType)
			}
			img, err := png.Decode(bytes.NewReader(c.Data))
			if err != nil {
				t.Errorf("image does not decode as PNG: %v", err)
			} else if img.Bounds().Dx() < 200 || img.Bounds().Dy() < 100 {
				t.Errorf("image only %v", img.Bounds())
			}
			images++
		}
	}
	return text.String(), images, res.IsError
}

func TestMCPThroughShim(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	cs := mcpSession(t, e, dir)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) == 0 || tools.Tools[0].Name != "canvas" {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	steps := []struct {
		args     map[string]any
		images   int
		isError  bool
		mustHave []string
	}{
		{map[string]any{"action": "init"}, 2, false, []string{"Board: 1 evidence, 0 claims, 0 decisions"}},
		{map[string]any{"action": "impact", "symbol": "Cart.add"}, 2, false, []string{"Cart.add", "Board: 2 evidence"}},
		{map[string]any{"action": "impact", "symbol": "Cart.ad"}, 0, true, []string{"Cart.add"}},
		{map[string]any{"action": "claim", "text": "Cart.add is only called from the CLI", "kind": "hypothesis"}, 1, false, []string{"C1", "1 claims"}},
		{map[string]any{"action": "decide", "text": "add a quantity parameter", "kind": "plan"}, 1, false, []string{"D1"}},
		{map[string]any{"action": "status"}, 1, false, []string{"Board: 2 evidence, 1 claims, 1 decisions"}},
		{map[string]any{"action": "read"}, 0, false, []string{"C1", "D1"}},
	}
	for _, s := range steps {
		text, images, isErr := call(t, cs, s.args)
		t.Logf("%v →\n%s", s.args, text)
		if isErr != s.isError {
			t.Errorf("%v: isError=%v, want %v\n%s", s.args, isErr, s.isError, text)
		}
		if images != s.images {
			t.Errorf("%v: %d images, want %d", s.args, images, s.images)
		}
		for _, m := range s.mustHave {
			if !strings.Contains(text, m) {
				t.Errorf("%v: answer lacks %q:\n%s", s.args, m, text)
			}
		}
	}
	for _, f := range []string{"architecture.png", "board.png", "state.json"} {
		if _, err := os.Stat(filepath.Join(dir, ".codecanvas", f)); err != nil {
			t.Errorf("artifact %s: %v", f, err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".codecanvas", "impact_*.png")); len(m) == 0 {
		t.Error("no impact_*.png artifact")
	}

	// A second session on the same workspace, concurrently: both boards are
	// one board and no item is lost.
	cs2 := mcpSession(t, e, dir)
	var wg sync.WaitGroup
	for i, c := range []*sdk.ClientSession{cs, cs2} {
		wg.Add(1)
		go func(i int, c *sdk.ClientSession) {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				call(t, c, map[string]any{"action": "claim", "text": "finding from session " + string(rune('A'+i)), "kind": "finding"})
			}
		}(i, c)
	}
	wg.Wait()
	text, _, _ := call(t, cs2, map[string]any{"action": "status"})
	if !strings.Contains(text, "11 claims") {
		t.Errorf("after 10 concurrent claims: %s", text)
	}

	// The board survives a daemon restart, and init does not wipe it.
	cs.Close()
	cs2.Close()
	if r := e.run(bins.ccd, nil, "stop"); r.code != 0 {
		t.Fatalf("stop: %+v", r)
	}
	waitFor(t, "daemon to stop", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
	cs3 := mcpSession(t, e, dir)
	text, _, _ = call(t, cs3, map[string]any{"action": "init"})
	if !strings.Contains(text, "11 claims") || !strings.Contains(text, "1 decisions") {
		t.Errorf("after restart and init, the board is not intact:\n%s", text)
	}
}

func TestRenderViewsAndArtifacts(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	waitFor(t, "architecture.png after init", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, ".codecanvas", "architecture.png"))
		return err == nil
	})
	out := t.TempDir()
	cases := []struct {
		args []string
		file string
	}{
		{[]string{"render", "impact", "Cart.add", "--root", dir, "-o", filepath.Join(out, "i.png")}, "i.png"},
		{[]string{"render", "impact", "Cart.add", "--root", dir, "-o", filepath.Join(out, "i2.png"), "--scale", "2"}, "i2.png"},
		{[]string{"render", "architecture", "--root", dir, "-o", filepath.Join(out, "a.svg")}, "a.svg"},
		{[]string{"render", "board", "--root", dir, "-o", filepath.Join(out, "b.png")}, "b.png"},
	}
	sizes := map[string]int{}
	for _, c := range cases {
		if r := e.run(bins.ccd, nil, c.args...); r.code != 0 {
			t.Fatalf("%v: %+v", c.args, r)
		}
		data, err := os.ReadFile(filepath.Join(out, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(c.file, ".svg") {
			if !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("<text")) {
				t.Errorf("%s is not an SVG with text", c.file)
			}
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		sizes[c.file] = img.Bounds().Dx()
	}
	if sizes["i2.png"] < 2*sizes["i.png"]-2 {
		t.Errorf("--scale 2 gave width %d for %d at 1x", sizes["i2.png"], sizes["i.png"])
	}
	// The impact query also leaves its artifact.
	os.Remove(filepath.Join(dir, ".codecanvas", "impact_Cart.add.png"))
	if r := e.run(bins.ccd, nil, "impact", "--root", dir, "Cart.add"); r.code != 0 {
		t.Fatalf("impact: %+v", r)
	}
	waitFor(t, "impact artifact", 10*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, ".codecanvas", "impact_Cart.add.png"))
		return err == nil
	})
	// Bad views get a usage error.
	if r := e.run(bins.ccd, nil, "render", "mosaic", "--root", dir); r.code != 2 {
		t.Errorf("unknown view: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "render", "impact", "Cart.ad", "--root", dir, "-o", filepath.Join(out, "x.png")); r.code == 0 || !strings.Contains(r.stderr, "Cart.add") {
		t.Errorf("misspelt symbol: %+v", r)
	}
}

// tool calls one retrieval tool and returns its text.
func tool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestRetrievalToolsThroughShim(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Shop\n\nA toy shop.\n\n## Pricing\n\nTotals include tax; see pricing.total.\n"), 0o644)
	cs := mcpSession(t, e, dir)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, n := range []string{"canvas", "query", "evidence_pack", "expand", "status", "index", "invalidate"} {
		if !names[n] {
			t.Errorf("tools/list lacks %s", n)
		}
	}
	// The pack: ranked handles and guidance.
	text, isErr := tool(t, cs, "evidence_pack", map[string]any{"pattern": "cart total"})
	if isErr {
		t.Fatalf("evidence_pack: %s", text)
	}
	var pack struct {
		Handles []struct {
			ID       string `json:"id"`
			FilePath string `json:"file_path"`
		} `json:"handles"`
		ExpandSuggestion []string `json:"expand_suggestion"`
		Guidance         struct {
			RecommendedAction string `json:"recommended_action"`
		} `json:"guidance"`
	}
	if err := json.Unmarshal([]byte(text), &pack); err != nil || len(pack.Handles) == 0 || pack.Guidance.RecommendedAction == "" {
		t.Fatalf("evidence_pack answer: %v\n%s", err, text)
	}
	// Expand: fresh content under "// <id>".
	text, isErr = tool(t, cs, "expand", map[string]any{"handle_ids": []string{pack.Handles[0].ID}})
	if isErr || !strings.Contains(text, "// "+pack.Handles[0].ID) {
		t.Errorf("expand: %s", text)
	}
	// References come from the graph.
	text, isErr = tool(t, cs, "query", map[string]any{"symbol": "Cart.add", "kind": "reference"})
	if isErr || !strings.Contains(text, `"ref_handles"`) || !strings.Contains(text, "shop/cli.py") {
		t.Errorf("references of Cart.add: %s", text)
	}
	// Markdown sections are handles.
	text, _ = tool(t, cs, "query", map[string]any{"section": "Pricing"})
	if !strings.Contains(text, "README.md") {
		t.Errorf("section query: %s", text)
	}
	// DSL errors say where.
	text, isErr = tool(t, cs, "query", map[string]any{"query": `(intersect (grep "x") (code`})
	if !isErr || !strings.Contains(text, "QueryParse") {
		t.Errorf("bad DSL: %v %s", isErr, text)
	}
	// An edit is visible to the next query (the daemon keeps the index fresh).
	p := filepath.Join(dir, "shop", "pricing.py")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\n\ndef loyalty_bonus(cart):\n    return 0\n")...), 0o644)
	waitFor(t, "new function searchable", 15*time.Second, func() bool {
		text, _ := tool(t, cs, "query", map[string]any{"symbol": "loyalty_bonus"})
		return strings.Contains(text, "shop/pricing.py")
	})
	text, isErr = tool(t, cs, "status", nil)
	if isErr || !strings.Contains(text, "files_indexed") {
		t.Errorf("status: %s", text)
	}
}

func TestRetrievalCLIAndHTTP(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	r := e.run(bins.ccd, nil, "pack", "--root", dir, "cart", "total")
	if r.code != 0 || !strings.Contains(r.stdout, "guidance:") || !strings.Contains(r.stdout, "score 1.00") {
		t.Fatalf("ccd pack: %+v", r)
	}
	id := strings.Fields(r.stdout)[0]
	r = e.run(bins.ccd, nil, "expand", "--root", dir, id)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "// "+id+" ") || !strings.Contains(strings.SplitN(r.stdout, "\n", 2)[0], " tokens") {
		t.Errorf("ccd expand %s: want a header with the path, lines and tokens: %+v", id, r)
	}
	// A Markdown file written while the daemon runs is found without a
	// restart (the graph's update covers code files only).
	writeFile(t, filepath.Join(dir, "docs", "NOTES.md"), []byte("# Notes\n\nThe zanzibarquux ledger keeps refunds.\n"))
	waitFor(t, "a new Markdown file in the retrieval index", 20*time.Second, func() bool {
		r := e.run(bins.ccd, nil, "query", "--root", dir, "zanzibarquux")
		return r.code == 0 && strings.Contains(r.stdout, "docs/NOTES.md")
	})
	r = e.run(bins.ccd, nil, "query", "--root", dir, "qqqxxxnothing")
	if r.code != 0 || !strings.Contains(r.stdout, `no match for the words "qqqxxxnothing"`) {
		t.Errorf("an empty answer does not say what was searched: %+v", r)
	}
	r = e.run(bins.ccd, nil, "query", "--root", dir, "--symbol", "Cart.add", "--kind", "reference", "--json")
	var res struct {
		Handles    []json.RawMessage `json:"handles"`
		RefHandles []json.RawMessage `json:"ref_handles"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || len(res.Handles) == 0 || len(res.RefHandles) == 0 {
		t.Errorf("ccd query --json: %+v", r)
	}
	r = e.run(bins.ccd, nil, "query", "--root", dir, "--dsl", `(union (grep "a")`)
	if r.code == 0 || !strings.Contains(r.stderr, "^") {
		t.Errorf("bad DSL: %+v", r)
	}
	if r = e.run(bins.ccd, nil, "query", "--root", dir); r.code != 2 {
		t.Errorf("query without a pattern: %+v", r)
	}
	// The status endpoint over plain HTTP.
	resp, err := (wire.Client{Version: wire.Version}).Call(filepath.Join(e.home, "ccd.sock"), "GET", "/v1/search/status?root="+dir, nil)
	if err != nil || resp.Status != 200 || !strings.Contains(string(resp.Body), "files_indexed") {
		t.Errorf("GET /v1/search/status: %v %+v", err, resp)
	}
}

// TestMCPSurvivesDaemonRestart: the daemon stops (idle exit, crash,
// upgrade) in the middle of a session; ccd-mcp reaches a new one and
// replays the session's handshake, so the client's next calls are served
// (issue 17 #8: the canvas tool used to be gone for the rest of the
// session).
func TestMCPSurvivesDaemonRestart(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	cs := initSession(t, e, dir)
	old := e.daemons()
	if r := e.run(bins.ccd, nil, "stop"); r.code != 0 {
		t.Fatalf("stop: %+v", r)
	}
	restarted := func() bool {
		now := e.daemons()
		return len(now) == 1 && len(old) == 1 && now[0] != old[0]
	}
	// A stopped daemon stays stopped until the client asks for something.
	time.Sleep(500 * time.Millisecond)
	if now := e.daemons(); len(now) != 0 {
		t.Fatalf("ccd-mcp started a daemon nobody asked for: %v", now)
	}
	t1 := time.Now()
	text, _, isErr := call(t, cs, map[string]any{"action": "init"})
	t.Logf("first call after the restart: %v", time.Since(t1))
	if isErr || !strings.Contains(text, "Board:") {
		t.Fatalf("init after the daemon restarted: isError=%v\n%s", isErr, text)
	}
	if text, _, isErr := call(t, cs, map[string]any{"action": "impact", "symbol": "Cart.add"}); isErr || !strings.Contains(text, "Cart.add") {
		t.Fatalf("impact after the daemon restarted: isError=%v\n%s", isErr, text)
	}
	if !restarted() {
		t.Errorf("daemons running: %v (before the stop: %v), want one new one", e.daemons(), old)
	}
}
