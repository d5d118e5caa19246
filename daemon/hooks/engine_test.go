package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// indexHost serves one real, in-process index (no daemon) to the engine.
type indexHost struct {
	root     string
	res      *index.Result
	prepared []string // Prepare calls, relative paths
	inits    int      // Init calls
}

func (h *indexHost) Lookup(p string) (string, bool) {
	if p == h.root || strings.HasPrefix(p, h.root+"/") {
		return h.root, true
	}
	return "", false
}
func (h *indexHost) Init(root string) (View, error) { h.inits++; v, _ := h.View(root); return v, nil }
func (h *indexHost) View(root string) (View, bool) {
	if root != h.root {
		return View{}, false
	}
	return View{Root: root, State: "ready", Graph: h.res.Graph, Files: h.res.Summary.Parsed, Languages: h.res.Summary.Languages}, true
}
func (h *indexHost) Apply(ctx context.Context, root string, paths []string) (*graph.Graph, *graph.Graph, error) {
	before := h.res.Graph
	next, _, err := h.res.Update(nil)
	if err != nil {
		return nil, nil, err
	}
	h.res = next
	return before, next.Graph, nil
}
func (h *indexHost) Rescan(string) {}
func (h *indexHost) Prepare(root, path string) {
	if rel, err := filepath.Rel(root, path); err == nil {
		h.prepared = append(h.prepared, filepath.ToSlash(rel))
	}
}
func (h *indexHost) Board(string) BoardInfo     { return BoardInfo{} }
func (h *indexHost) SnapshotBoard(root string)  {}
func (h *indexHost) SaveImpact(root, id string) {}
func (h *indexHost) Mirror(root, dir string)    {}

func shopRepo(t testing.TB) *indexHost {
	t.Helper()
	dir := testrepo.Unpack(t, filepath.Join("..", "..", "testdata", "hooks", "repos", "shop.txtar"))
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	return &indexHost{root: dir, res: res}
}

func readEvent(session, root, rel string) []byte {
	b, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "session_id": session, "cwd": root,
		"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(root, rel)}})
	return b
}

func cardOf(t *testing.T, out []byte) string {
	t.Helper()
	if out == nil {
		return ""
	}
	var v struct {
		H struct {
			C string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("bad output %s: %v", out, err)
	}
	return v.H.C
}

func TestThrottle(t *testing.T) {
	h := shopRepo(t)
	pol := config.DefaultHooks()
	pol.Budget = 2
	pol.BudgetWindow = time.Hour
	e := New(h, pol, "")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e.now = func() time.Time { return now }
	ctx := context.Background()
	handle := func(b []byte) string {
		out, err := e.Handle(ctx, b, Env{})
		if err != nil {
			t.Fatal(err)
		}
		return cardOf(t, out)
	}
	// First read: AUTO-INIT + impact (the AUTO-INIT part is exempt, the
	// impact card counts against the budget).
	if c := handle(readEvent("s", h.root, "shop/pricing.py")); !strings.Contains(c, "[ccd impact] price_of") {
		t.Fatalf("first read: %q", c)
	}
	// Same read at once: same card → nothing (novelty).
	if c := handle(readEvent("s", h.root, "shop/pricing.py")); c != "" {
		t.Fatalf("repeated read: %q", c)
	}
	// Past the novelty window the cool-down has also passed: shown again,
	// which spends the budget of 2.
	now = now.Add(pol.Novelty + time.Second)
	if c := handle(readEvent("s", h.root, "shop/pricing.py")); !strings.Contains(c, "price_of") {
		t.Fatalf("read after the window: %q", c)
	}
	// Budget spent: a new card is held back until the window moves on.
	if c := handle(readEvent("s", h.root, "shop/report.py")); c != "" {
		t.Fatalf("over budget: %q", c)
	}
	now = now.Add(pol.BudgetWindow + time.Second)
	if c := handle(readEvent("s", h.root, "shop/report.py")); !strings.Contains(c, "[ccd impact]") {
		t.Fatalf("after the budget window: %q", c)
	}
	// Another session has its own memory.
	if c := handle(readEvent("other", h.root, "shop/report.py")); !strings.Contains(c, "[ccd impact]") {
		t.Fatalf("second session: %q", c)
	}
	st := e.Stats()["PostToolUse"]
	if st.Count != 6 || st.Cards != 4 {
		t.Errorf("stats %+v, want 6 events and 4 cards", st)
	}
}

func TestCooldownPerSymbol(t *testing.T) {
	h := shopRepo(t)
	pol := config.DefaultHooks()
	pol.Novelty = time.Second // novelty alone would allow a repeat
	e := New(h, pol, "")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e.now = func() time.Time { return now }
	ev := readEvent("s", h.root, "shop/pricing.py")
	e.Handle(context.Background(), ev, Env{})
	now = now.Add(2 * time.Second)
	if out, _ := e.Handle(context.Background(), ev, Env{}); out != nil {
		t.Fatalf("within the cool-down: %s", out)
	}
	now = now.Add(pol.Cooldown)
	if out, _ := e.Handle(context.Background(), ev, Env{}); out == nil {
		t.Fatal("after the cool-down: no card")
	}
}

func TestParseEventSpellings(t *testing.T) {
	for _, raw := range []string{
		`{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Read","tool_input":{"file_path":"/a/b.py","offset":10,"limit":5}}`,
		`{"hookEventName":"PostToolUse","sessionId":"s","toolName":"Read","toolInput":{"filePath":"/a/b.py","offset":"10","limit":5}}`,
	} {
		ev, err := ParseEvent([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if ev.Name != "PostToolUse" || ev.Tool != "Read" || ev.FilePath() != "/a/b.py" || ev.SessionID != "s" {
			t.Errorf("%s: parsed %+v", raw, ev)
		}
		if from, to := ev.ReadRange(); from != 10 || to != 14 {
			t.Errorf("%s: range %d-%d, want 10-14", raw, from, to)
		}
	}
	ev, _ := ParseEvent([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Write","tool_response":{"filePath":"/x/y.go"}}`))
	if ev.FilePath() != "/x/y.go" {
		t.Errorf("file path from the response: %q", ev.FilePath())
	}
	for _, bad := range []string{``, `nope`, `[]`, `{}`, `{"session_id":"s"}`} {
		if _, err := ParseEvent([]byte(bad)); err == nil {
			t.Errorf("ParseEvent(%q): no error", bad)
		}
	}
}

func TestFindRoot(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	mk := func(p string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	mk("mono/.git/HEAD")
	mk("mono/pkg/a/package.json")
	mk("mono/pkg/a/src/x.ts")
	mk("solo/pyproject.toml")
	mk("solo/src/m.py")
	mk("bare/x.py")
	cases := []struct{ in, want string }{
		{"mono/pkg/a/src/x.ts", "mono"},        // .git wins over the nearer package.json
		{"mono/pkg/a/src/new_file.ts", "mono"}, // a file that does not exist yet
		{"solo/src/m.py", "solo"},              // nearest marker without VCS
		{"bare/x.py", ""},                      // no marker: no root
		{"mono/pkg/a/src/deep/er/not/yet", "mono"},
	}
	for _, c := range cases {
		want := ""
		if c.want != "" {
			want = filepath.Join(dir, c.want)
		}
		if got := FindRoot(filepath.Join(dir, c.in)); got != want {
			t.Errorf("FindRoot(%s) = %q, want %q", c.in, got, want)
		}
	}
}

func TestDiffFileRename(t *testing.T) {
	h := shopRepo(t)
	before := h.res.Graph
	p := filepath.Join(h.root, "shop", "pricing.py")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "def base_price(item)", "def list_price(item)", 1)), 0o644)
	_, after, err := h.Apply(context.Background(), h.root, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	cs := diffFile(before, after, "shop/pricing.py", lineChanges{})
	var got []string
	for _, c := range cs {
		got = append(got, c.what+":"+c.id)
	}
	want := "renamed:shop/pricing.py::base_price"
	if len(got) == 0 || got[0] != want {
		t.Fatalf("changes %v, want %s first", got, want)
	}
	text, risky := editCard(before, after, "shop/pricing.py", cs, 900, nil, nil)
	// The call site (line 6), not price_of's definition line.
	if !strings.Contains(text, "RENAMED base_price → list_price but callers still use the old name: shop/pricing.py:6 price_of") {
		t.Errorf("card:\n%s", text)
	}
	if len(risky) != 1 || risky[0].What != "renamed" {
		t.Errorf("risky %+v", risky)
	}
}

// TestPreToolPreparesEdits: before a tool reads or edits a file of the
// workspace, the host is asked to get that file ready; searches are not.
func TestPreToolPreparesEdits(t *testing.T) {
	h := shopRepo(t)
	e := New(h, config.DefaultHooks(), "")
	for _, tc := range []struct{ tool, input, want string }{
		{"Read", `{"file_path":%q}`, "shop/pricing.py"},
		{"Edit", `{"file_path":%q,"old_string":"a","new_string":"b"}`, "shop/pricing.py"},
		{"MultiEdit", `{"file_path":%q,"edits":[]}`, "shop/pricing.py"},
		{"Write", `{"file_path":%q,"content":""}`, "shop/pricing.py"},
		{"Grep", `{"pattern":"price_of","path":%q}`, ""},
	} {
		h.prepared = nil
		input := fmt.Sprintf(tc.input, filepath.Join(h.root, "shop", "pricing.py"))
		ev := fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"p","cwd":%q,"tool_name":%q,"tool_input":%s}`, h.root, tc.tool, input)
		if _, err := e.Handle(context.Background(), []byte(ev), Env{}); err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if !slices.Equal(h.prepared, want) {
			t.Errorf("%s: prepared %q, want %q", tc.tool, h.prepared, want)
		}
	}
}

// TestAutoInitOnlyInProject: reading a file of a tree outside the
// session's project (a module cache, GOROOT, site-packages) registers
// nothing and does not move the session's workspace (issue 17 #16).
func TestAutoInitOnlyInProject(t *testing.T) {
	h := shopRepo(t)
	e := New(h, config.DefaultHooks(), "")
	ctx := context.Background()
	project := t.TempDir() // the session works elsewhere
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "session_id": "s", "cwd": project,
		"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(h.root, "shop/pricing.py")}})
	out, err := e.Handle(ctx, ev, Env{ProjectDir: project})
	if err != nil {
		t.Fatal(err)
	}
	if c := cardOf(t, out); strings.Contains(c, "AUTO-INIT") {
		t.Fatalf("a tree outside the project was registered: %q", c)
	}
	if h.inits != 0 {
		t.Fatalf("Init called %d times for a tree outside the project", h.inits)
	}
	// Inside the project, as before.
	out, _ = e.Handle(ctx, readEvent("s2", h.root, "shop/pricing.py"), Env{ProjectDir: h.root})
	if c := cardOf(t, out); !strings.Contains(c, "AUTO-INIT") || h.inits != 1 {
		t.Fatalf("inside the project: inits %d, card %q", h.inits, c)
	}
}
