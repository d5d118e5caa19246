package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/mcp")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("../../testdata/mcp", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./daemon/mcp -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./daemon/mcp -update after review):\n--- got ---\n%s", path, got)
	}
}

func TestToolsList(t *testing.T) {
	s := connect(t, newTestHost(), t.TempDir())
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "canvas" {
		t.Fatalf("tools %+v", res.Tools)
	}
	tool := res.Tools[0]
	schema, _ := json.Marshal(tool.InputSchema)
	if bytes.Contains(schema, []byte("use_lsp")) {
		t.Error("use_lsp is advertised")
	}
	for _, p := range []string{"action", "repo_path", "symbol", "text", "kind", "depth", "max_nodes", "task_id"} {
		if !bytes.Contains(schema, []byte(`"`+p+`"`)) {
			t.Errorf("schema lacks %s", p)
		}
	}
	for _, a := range Actions {
		if !strings.Contains(tool.Description, "• "+a) && !strings.Contains(tool.Description, a+":") {
			t.Errorf("description does not explain %s", a)
		}
	}
	if n := len(strings.Fields(tool.Description)); n < 200 || n > 400 {
		t.Errorf("description has %d words; it should be a ~300-word tutorial", n)
	}
	out, err := json.MarshalIndent(tool, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tools_list.golden.json", append(out, '\n'))
	golden(t, "description.golden.txt", []byte(tool.Description+"\n"))
}

// render writes a tool result as the golden files show it.
func render(t *testing.T, res *sdk.CallToolResult, root string) string {
	var b strings.Builder
	if res.IsError {
		b.WriteString("isError: true\n")
	}
	b.WriteString(strings.ReplaceAll(textOf(t, res), root, "$ROOT"))
	b.WriteString("\n")
	for _, c := range res.Content[1:] {
		if im, ok := c.(*sdk.ImageContent); ok {
			kind := "?"
			for _, k := range []string{PictureArchitecture, PictureImpact, PictureBoard} {
				if bytes.Equal(im.Data, tinyPNG(k)) {
					kind = k
				}
			}
			fmt.Fprintf(&b, "[image %s %s, %d bytes]\n", im.MIMEType, kind, len(im.Data))
		}
	}
	return b.String()
}

// step is one call of a scripted session.
type step struct {
	name string
	args map[string]any
	// checks on the result
	isError bool
	images  []string // picture kinds, in order
	has     []string // substrings of the text
}

// TestSession runs a whole agent session on the Python fixture through a
// real client and compares every answer with testdata/mcp/session.golden.
func TestSession(t *testing.T) {
	root := unpack(t, "python")
	tasks, err := os.ReadFile("../../testdata/board/tasks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tasks.yaml"), tasks, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newTestHost()
	s := connect(t, h, filepath.Join(root, "shop"))
	steps := []step{
		{name: "status before init", args: map[string]any{"action": "status"}, isError: true, has: []string{"Not initialized", `canvas(action="init"`}},
		{name: "claim before init", args: map[string]any{"action": "claim", "text": "x"}, isError: true, has: []string{"Not initialized"}},
		{name: "init", args: map[string]any{"action": "init", "repo_path": root}, images: []string{"architecture", "board"},
			has: []string{"Created E1 (architecture)", "Board: 1 evidence, 0 claims, 0 decisions | Focus: ", "| Progress: -", "Next: Use canvas(action=\"impact\""}},
		{name: "init again keeps the board", args: map[string]any{"action": "init", "use_lsp": true}, images: []string{"architecture", "board"},
			has: []string{"Architecture unchanged since E1", "Board: 1 evidence"}},
		{name: "impact without symbol", args: map[string]any{"action": "impact"}, isError: true, has: []string{"Impact needs a symbol", "most connected here"}},
		{name: "impact typo", args: map[string]any{"action": "impact", "symbol": "Cart.ad"}, isError: true,
			has: []string{`Symbol not found: "Cart.ad"`, "Similar symbols:", "• Cart.add (func in shop/models.py:", "Hint: Use one of the names above"}},
		{name: "impact", args: map[string]any{"action": "impact", "symbol": "total"}, images: []string{"impact", "board"},
			has: []string{`Created E2 (impact "total")`, "Callers (", "Focus: total | Progress: 0/", "Next: Record what you see"}},
		{name: "impact again is not repeated", args: map[string]any{"action": "impact", "symbol": "shop/pricing.py::total", "depth": "2"}, images: []string{"impact", "board"},
			has: []string{"Unchanged since E2", "Board: 2 evidence"}},
		{name: "impact deeper", args: map[string]any{"action": "impact", "symbol": "Cart", "depth": 0, "max_nodes": 5}, images: []string{"impact", "board"},
			has: []string{`Created E3 (impact "Cart")`, "unlimited depth", "Focus: Cart"}},
		{name: "back to total", args: map[string]any{"action": "impact", "symbol": "total"}, images: []string{"impact", "board"},
			has: []string{"Unchanged since E2", "Focus: total"}},
		{name: "claim", args: map[string]any{"action": "claim", "text": "Changing total may break render", "kind": "hypothesis"}, images: []string{"board"},
			has: []string{"Created C1 [hypothesis] linked to E2.", "Board: 3 evidence, 1 claims, 0 decisions"}},
		{name: "claim bad kind", args: map[string]any{"action": "claim", "text": "x", "kind": "plan"}, isError: true, has: []string{`Unknown claim kind "plan"`, "Hint:"}},
		{name: "claim without text", args: map[string]any{"action": "claim"}, isError: true, has: []string{"Claim needs text", `Hint: Pass text="..."`}},
		{name: "question", args: map[string]any{"action": "claim", "text": "Does discount ever return non-zero?", "kind": "question"}, images: []string{"board"},
			has: []string{"Created C2 [question] linked to E2."}},
		{name: "answer", args: map[string]any{"action": "claim", "text": "C2: no, it always returns 0", "kind": "answered"}, images: []string{"board"},
			has: []string{`C2 [question] is now answered`, "Why: no, it always returns 0"}},
		{name: "settle without id", args: map[string]any{"action": "claim", "text": "it holds", "kind": "confirmed"}, isError: true,
			has: []string{"To settle a claim with kind=confirmed, say which one", `text="C1: why"`}},
		{name: "confirm a question", args: map[string]any{"action": "claim", "text": "C2 yes", "kind": "confirmed"}, isError: true,
			has: []string{"C2 is a question", "kind=answered"}},
		{name: "decide", args: map[string]any{"action": "decide", "text": "Apply the discount inside total, then update render's test"}, images: []string{"board"},
			has: []string{"Created D1 [plan] linked to E2.", "Next: Carry out the plan"}},
		{name: "decide about a symbol", args: map[string]any{"action": "decide", "text": "Rename discount", "kind": "edit", "symbol": "discount"}, images: []string{"board"},
			has: []string{`Created D2 [edit] about "discount" linked to E2.`}},
		{name: "decide bad kind", args: map[string]any{"action": "decide", "text": "x", "kind": "mark"}, isError: true, has: []string{"Decide does not take kind=mark", `canvas(action="mark"`}},
		{name: "mark", args: map[string]any{"action": "mark", "symbol": "total", "text": "unit tests pass"}, images: []string{"board"},
			has: []string{`Marked "total" as verified (D3, linked to E2)`, "Counts in the analysis of total.", "Progress: 1/"}},
		{name: "mark typo", args: map[string]any{"action": "mark", "symbol": "rendr"}, isError: true,
			has: []string{`Symbol not found: "rendr"`, "• render (func in shop/pricing.py:"}},
		{name: "skip typo", args: map[string]any{"action": "skip", "symbol": "tset_total"}, isError: true,
			has: []string{`Symbol not found: "tset_total"`, "Similar symbols:"}},
		{name: "skip", args: map[string]any{"action": "skip", "symbol": "test_total", "text": "test only"}, images: []string{"board"},
			has: []string{`Skipped "test_total" as out of scope`, "Counts in the analysis of total."}},
		{name: "mark the focus", args: map[string]any{"action": "mark"}, images: []string{"board"},
			has: []string{`Marked "total" (the focus) as verified`}},
		{name: "mark outside the analysis", args: map[string]any{"action": "mark", "symbol": "money"}, images: []string{"board"},
			has: []string{"not among the affected nodes of any analysis"}},
		{name: "tasks", args: map[string]any{"action": "task_select"}, images: []string{"board"},
			has: []string{"Tasks in tasks.yaml (3):", "T1  Apply the discount in total", `task_id="T1"`}},
		{name: "task", args: map[string]any{"action": "task_select", "task_id": "t1"}, images: []string{"board"},
			has: []string{"Selected task T1: Apply the discount in total", "Focus: task T1 | Progress: 0/3 addressed", `canvas(action="impact", symbol="discount")`}},
		{name: "unknown task", args: map[string]any{"action": "task_select", "task_id": 9}, isError: true, has: []string{`No task "9" in tasks.yaml`, "Task ids: T1, T2, docs"}},
		{name: "mark in task", args: map[string]any{"action": "mark", "symbol": "shop/pricing.py::discount"}, images: []string{"board"},
			has: []string{"Counts in the analysis of task T1.", "Progress: 1/3 addressed"}},
		{name: "status", args: map[string]any{"action": "status"}, images: []string{"board"},
			has: []string{"Evidence board of", "Focus task T1: 1/3 addressed", "Open claims (1):"}},
		{name: "read", args: map[string]any{"action": "read"}, images: nil,
			has: []string{"Evidence (3):", "Claims (2, 1 open):", "Decisions (", "Tasks (3):"}},
		{name: "init later keeps the board", args: map[string]any{"action": "init"}, images: []string{"architecture", "board"},
			has: []string{"Architecture unchanged since E1", "Board: 3 evidence, 2 claims, 7 decisions | Focus: task T1 | Progress: 1/3 addressed"}},
		{name: "unknown parameter", args: map[string]any{"action": "impact", "symbols": "x"}, isError: true, has: []string{`Unknown parameter "symbols"`, "Hint: The parameters are"}},
		{name: "unknown action", args: map[string]any{"action": "fly"}, isError: true, has: []string{`Unknown action "fly"`}},
		{name: "missing action", args: map[string]any{"symbol": "x"}, isError: true, has: []string{"Missing action."}},
		{name: "bad depth", args: map[string]any{"action": "impact", "symbol": "total", "depth": -1}, isError: true, has: []string{"Parameter depth: -1 is out of range"}},
		{name: "bad depth type", args: map[string]any{"action": "impact", "symbol": "total", "depth": "deep"}, isError: true, has: []string{`Parameter depth: want a whole number, got "deep"`}},
		{name: "bad text type", args: map[string]any{"action": "claim", "text": 5}, isError: true, has: []string{"Parameter text: want a string"}},
	}
	var out strings.Builder
	for _, st := range steps {
		res := s.call(st.args)
		text := textOf(t, res)
		if res.IsError != st.isError {
			t.Errorf("%s: isError=%v, want %v:\n%s", st.name, res.IsError, st.isError, text)
		}
		for _, want := range st.has {
			if !strings.Contains(text, want) {
				t.Errorf("%s: text lacks %q:\n%s", st.name, want, text)
			}
		}
		var kinds []string
		for i, cfg := range imagesOf(t, res) {
			if cfg.Width != 2 {
				t.Errorf("%s: image %d is %dx%d", st.name, i, cfg.Width, cfg.Height)
			}
			im := res.Content[1+i].(*sdk.ImageContent)
			for _, k := range []string{PictureArchitecture, PictureImpact, PictureBoard} {
				if bytes.Equal(im.Data, tinyPNG(k)) {
					kinds = append(kinds, k)
				}
			}
		}
		if strings.Join(kinds, ",") != strings.Join(st.images, ",") {
			t.Errorf("%s: images %v, want %v", st.name, kinds, st.images)
		}
		if !res.IsError {
			checkLayout(t, st.name, text)
		} else if !strings.Contains(text, "\nHint: ") {
			t.Errorf("%s: error without a hint:\n%s", st.name, text)
		}
		args, _ := json.Marshal(st.args)
		fmt.Fprintf(&out, "### %s %s\n%s\n", st.name, strings.ReplaceAll(string(args), root, "$ROOT"), render(t, res, root))
	}
	golden(t, "session.golden", []byte(out.String()))

	// The board was persisted after every change, and state.json says
	// where the session ended.
	if h.saves == 0 || len(h.saved[root]) == 0 {
		t.Fatal("the board was never saved")
	}
	if !bytes.Contains(h.state[root], []byte(`"summary": "Board: 3 evidence, 2 claims, 7 decisions | Focus: task T1 | Progress: 1/3 addressed"`)) {
		t.Errorf("state.json:\n%s", h.state[root])
	}
	// Pictures were asked for with the right parameters.
	var impacts []PictureRequest
	for _, p := range h.pictures {
		if p.Kind == PictureImpact {
			impacts = append(impacts, p)
		}
	}
	if len(impacts) != 4 || impacts[0].Node != "shop/pricing.py::total" || impacts[0].Depth != 2 || impacts[0].MaxNodes != 20 ||
		impacts[0].Evidence != "E2" || impacts[2].Depth != 0 || impacts[2].MaxNodes != 5 || impacts[2].Evidence != "E3" {
		t.Errorf("impact picture requests %+v", impacts)
	}
}

// checkLayout checks the layout of a successful answer: result, blank
// line, summary, Next hint.
func checkLayout(t *testing.T, name, text string) {
	t.Helper()
	parts := strings.Split(text, "\n\n")
	tail := strings.Split(parts[len(parts)-1], "\n")
	if len(parts) < 2 || len(tail) != 2 || !strings.HasPrefix(tail[0], "Board: ") || !strings.HasPrefix(tail[1], "Next: ") {
		t.Errorf("%s: layout is not result / blank / summary / Next:\n%s", name, text)
	}
	if !strings.Contains(tail[0], " evidence, ") || !strings.Contains(tail[0], " | Focus: ") || !strings.Contains(tail[0], " | Progress: ") {
		t.Errorf("%s: summary %q", name, tail[0])
	}
}
