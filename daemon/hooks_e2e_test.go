package daemon_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/daemon/wire"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/hooks/*.txtar")

// A hook transcript (testdata/hooks/NAME.txtar) replays events through the
// real ccd-hook binary against a real daemon and compares what the hook
// adds to the agent's context. Sections:
//
//	repo/PATH      a file of the workspace $WORK/repo
//	origin/PATH    a file of a git repository at $WORK/origin (committed)
//	NN.sh          shell commands run in $WORK before step NN
//	NN.write:PATH  content written to $WORK/PATH before step NN
//	NN.event       the hook event JSON ($WORK and $REPO are replaced)
//	NN.want        the card expected ("" = the hook prints nothing)
//
// The comment may hold `repo: NAME` (the files of
// testdata/hooks/repos/NAME.txtar make up $WORK/repo), `init: repo` (index $WORK/repo before the first
// step), `env: K=V` lines and `agent: NAME` (run ccd-hook --agent NAME).
// Before each event the runner waits until every
// workspace the daemon knows is indexed and fresh, so transcripts are
// deterministic. `go test ./daemon -run Transcripts -update` rewrites the
// want sections.
func TestHookTranscripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "hooks", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no transcripts in testdata/hooks")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) { runTranscript(t, file) })
	}
}

type step struct {
	n      string
	sh     string
	writes []txtar.File
	event  []byte
	want   *txtar.File
}

func runTranscript(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vars, hookArgs []string
	initRepo := false
	own := len(ar.Files) // sections of the file itself (repo: adds more)
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		switch {
		case strings.HasPrefix(line, "init: repo"):
			initRepo = true
		case strings.HasPrefix(line, "repo: "):
			base, err := txtar.ParseFile(filepath.Join(filepath.Dir(file), "repos", strings.TrimSpace(strings.TrimPrefix(line, "repo: "))+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range base.Files {
				ar.Files = append(ar.Files, txtar.File{Name: "repo/" + f.Name, Data: f.Data})
			}
		case strings.HasPrefix(line, "env: "):
			vars = append(vars, strings.TrimPrefix(line, "env: "))
		case strings.HasPrefix(line, "agent: "):
			hookArgs = []string{"--agent", strings.TrimSpace(strings.TrimPrefix(line, "agent: "))}
		}
	}
	e := newEnv(t, vars...)
	work, err := os.MkdirTemp("/tmp", "ccdw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	work, _ = filepath.EvalSymlinks(work)
	repo := filepath.Join(work, "repo")
	steps := map[string]*step{}
	stepOf := func(n string) *step {
		if steps[n] == nil {
			steps[n] = &step{n: n}
		}
		return steps[n]
	}
	hasOrigin := false
	for i := range ar.Files {
		f := &ar.Files[i]
		switch {
		case strings.HasPrefix(f.Name, "repo/"):
			writeFile(t, filepath.Join(work, f.Name), f.Data)
		case strings.HasPrefix(f.Name, "origin/"):
			writeFile(t, filepath.Join(work, f.Name), f.Data)
			hasOrigin = true
		default:
			n, kind, ok := strings.Cut(f.Name, ".")
			if !ok {
				t.Fatalf("%s: section %q: want repo/, origin/ or NN.kind", file, f.Name)
			}
			s := stepOf(n)
			switch {
			case kind == "sh":
				s.sh = string(f.Data)
			case strings.HasPrefix(kind, "write:"):
				s.writes = append(s.writes, txtar.File{Name: strings.TrimPrefix(kind, "write:"), Data: f.Data})
			case kind == "event":
				s.event = f.Data
			case kind == "want":
				s.want = f
			default:
				t.Fatalf("%s: unknown section kind %q", file, kind)
			}
		}
	}
	if hasOrigin {
		origin := filepath.Join(work, "origin")
		git(t, origin, "init", "-q")
		git(t, origin, "add", "-A")
		git(t, origin, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "origin")
	}
	os.MkdirAll(filepath.Join(work, "app"), 0o755)
	if initRepo {
		if r := e.run(bins.ccd, nil, "init", repo); r.code != 0 {
			t.Fatalf("ccd init: %+v", r)
		}
	}
	var order []string
	for n := range steps {
		order = append(order, n)
	}
	sort.Strings(order)
	replace := strings.NewReplacer("$WORK", work, "$REPO", repo)
	changed := false
	for _, n := range order {
		s := steps[n]
		if s.sh != "" {
			cmd := exec.Command("sh", "-ec", replace.Replace(s.sh))
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
				"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("step %s sh: %v\n%s", n, err, out)
			}
		}
		for _, w := range s.writes {
			writeFile(t, filepath.Join(work, w.Name), []byte(replace.Replace(string(w.Data))))
		}
		if s.event == nil {
			continue
		}
		settle(t, e)
		r := e.run(bins.hook, []byte(replace.Replace(string(s.event))), hookArgs...)
		if r.code != 0 {
			t.Fatalf("step %s: exit %d: %s", n, r.code, r.stderr)
		}
		got := ""
		if strings.TrimSpace(r.stdout) != "" {
			// Claude Code's hookSpecificOutput.additionalContext; other
			// agents' top-level additionalContext (Copilot) or a Stop's
			// blocking decision and its reason (Gemini, Codex, Droid).
			var out struct {
				HSO struct {
					Event string `json:"hookEventName"`
					Ctx   string `json:"additionalContext"`
				} `json:"hookSpecificOutput"`
				Ctx      string `json:"additionalContext"`
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatalf("step %s: stdout is not hook JSON: %v\n%s", n, err, r.stdout)
			}
			card := out.HSO.Ctx + out.Ctx
			if out.Decision == "block" {
				card += out.Reason
			}
			if card == "" {
				t.Fatalf("step %s: hook output without a card: %s", n, r.stdout)
			}
			if len(card) > 900 {
				t.Errorf("step %s: card of %d chars, over the 900 budget", n, len(card))
			}
			got = strings.ReplaceAll(strings.ReplaceAll(card, repo, "$REPO"), work, "$WORK") + "\n"
		}
		if s.want == nil {
			t.Fatalf("step %s: no want section", n)
		}
		if got != string(s.want.Data) {
			if *update {
				s.want.Data = []byte(got)
				changed = true
				continue
			}
			t.Errorf("step %s (%s): card differs\n--- got ---\n%s--- want ---\n%s", n, file, got, s.want.Data)
		}
	}
	if changed {
		ar.Files = ar.Files[:own]
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// settle waits until the daemon (if running) has every workspace indexed
// and fresh.
func settle(t *testing.T, e *env) {
	t.Helper()
	sock := filepath.Join(e.home, "ccd.sock")
	if _, err := os.Stat(sock); err != nil {
		return
	}
	waitFor(t, "workspaces to settle", 60*time.Second, func() bool {
		r := e.run(bins.ccd, nil, "status", "--json")
		var st wire.Status
		if json.Unmarshal([]byte(r.stdout), &st) != nil {
			return true // no daemon
		}
		for _, w := range st.Workspaces {
			if w.State == "indexing" || (w.State == "ready" && !w.Fresh) {
				return false
			}
		}
		return true
	})
}

// TestHookBadInput feeds the shim what a broken client could send: the
// agent is never blocked and nothing reaches its context.
func TestHookBadInput(t *testing.T) {
	e := newEnv(t)
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("start daemon: %+v", r)
	}
	big := append([]byte(`{"hook_event_name":"PostToolUse","session_id":"b","cwd":"/tmp","tool_name":"Write","tool_input":{"file_path":"/tmp/ccd-none/x.py","content":"`),
		bytes.Repeat([]byte("x"), 10<<20)...)
	big = append(big, `"}}`...)
	cases := []struct {
		name  string
		stdin []byte
	}{
		{"malformed JSON", []byte(`{"hook_event_name": "PreToolUse", "tool_name": `)},
		{"not an object", []byte(`[1,2,3]`)},
		{"empty stdin", []byte{}},
		{"unknown event", []byte(`{"hook_event_name":"SomethingNew","session_id":"b","cwd":"/tmp"}`)},
		{"no event name", []byte(`{"session_id":"b","cwd":"/tmp"}`)},
		{"binary garbage", []byte{0xff, 0xfe, 0x00, 0x01, '{'}},
		{"10 MB payload", big},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.run(bins.hook, c.stdin)
			if r.code != 0 || r.stdout != "" {
				t.Errorf("exit %d, stdout %q: want exit 0 and no output", r.code, r.stdout)
			}
		})
	}
	// The daemon survived all of it.
	if r := e.run(bins.ccd, nil, "status", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"pid"`) {
		t.Fatalf("daemon gone after bad input: %+v", r)
	}
}

// TestHookParallel runs 100 hook invocations at once against one workspace:
// every one exits 0 with valid output, the workspace is initialised once,
// and a card shown to a session is shown once.
func TestHookParallel(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	var wg sync.WaitGroup
	outs := make([]result, 100)
	for i := range outs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ev := fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"p%d","cwd":%s,"tool_name":"Grep","tool_input":{"pattern":"nothing_known_%d"}}`,
				i%10, strconv.Quote(dir), i)
			outs[i] = e.run(bins.hook, []byte(ev))
		}(i)
	}
	wg.Wait()
	cards := 0
	for i, r := range outs {
		if r.code != 0 {
			t.Errorf("invocation %d: exit %d %s", i, r.code, r.stderr)
		}
		if s := strings.TrimSpace(r.stdout); s != "" {
			if !json.Valid([]byte(s)) {
				t.Errorf("invocation %d: invalid JSON %q", i, s)
			}
			cards++
		}
	}
	// Ten sessions, each told about the workspace exactly once (the
	// AUTO-INIT line); the searches are for unknown names.
	if cards != 10 {
		t.Errorf("%d cards from 100 events in 10 sessions, want 10 (one AUTO-INIT per session)", cards)
	}
	if n := len(e.daemons()); n != 1 {
		t.Errorf("%d daemons", n)
	}
}

// TestHookMirrorsToClaudeConfigDir: with CLAUDE_CONFIG_DIR set, the
// decision log and the artifacts are copied under $CLAUDE_CONFIG_DIR/codecanvas/.
func TestHookMirrorsToClaudeConfigDir(t *testing.T) {
	cfg := tempDir(t)
	e := newEnv(t, "CLAUDE_CONFIG_DIR="+cfg)
	dir := fixture(t, "python")
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	ev := fmt.Sprintf(`{"hook_event_name":"PostToolUse","session_id":"m","cwd":%q,"tool_name":"Read","tool_input":{"file_path":%q}}`,
		dir, filepath.Join(dir, "shop", "models.py"))
	if r := e.run(bins.hook, []byte(ev)); r.code != 0 || !strings.Contains(r.stdout, "[ccd impact]") {
		t.Fatalf("read card: %+v", r)
	}
	mirror := filepath.Join(cfg, "codecanvas")
	waitFor(t, "mirrored artifacts", 15*time.Second, func() bool {
		impacts, _ := filepath.Glob(filepath.Join(mirror, "impact_*.png"))
		_, errA := os.Stat(filepath.Join(mirror, "architecture.png"))
		_, errL := os.Stat(filepath.Join(mirror, "hook_debug.jsonl"))
		return len(impacts) > 0 && errA == nil && errL == nil
	})
	if m, _ := filepath.Glob(filepath.Join(dir, ".codecanvas", "impact_*.png")); len(m) == 0 {
		t.Error("the read left no impact picture in .codecanvas/")
	}
}

// TestHookMemorySurvivesRestart: a card shown before a daemon restart is
// not shown again after it (the session memory is persisted).
func TestHookMemorySurvivesRestart(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	ev := []byte(fmt.Sprintf(`{"hook_event_name":"PostToolUse","session_id":"persist","cwd":%q,"tool_name":"Read","tool_input":{"file_path":%q}}`,
		dir, filepath.Join(dir, "shop", "models.py")))
	if r := e.run(bins.hook, ev); !strings.Contains(r.stdout, "[ccd impact]") {
		t.Fatalf("first read: %+v", r)
	}
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "daemon exit", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
	if _, err := os.Stat(filepath.Join(e.home, "hooks-state.json")); err != nil {
		t.Fatalf("session memory not saved: %v", err)
	}
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init after restart: %+v", r)
	}
	if r := e.run(bins.hook, ev); r.code != 0 || r.stdout != "" {
		t.Errorf("the same read after a restart repeated its card: %+v", r)
	}
}

// TestHookReadWarmsTheEdit: a PreToolUse Read makes the daemon keep the
// file's syntax tree, and the edit that follows reparses incrementally.
func TestHookReadWarmsTheEdit(t *testing.T) {
	e := newEnv(t, "CCD_DEBOUNCE_MS=10")
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if w := e.workspace(t); w.Trees != 0 || w.Incremental != 0 {
		t.Fatalf("trees before any hook: %+v", w)
	}
	p := filepath.Join(dir, "shop", "pricing.py")
	ev := fmt.Sprintf(`{"hook_event_name":"PreToolUse","session_id":"w","cwd":%q,"tool_name":"Read","tool_input":{"file_path":%q}}`, dir, p)
	if r := e.run(bins.hook, []byte(ev)); r.code != 0 {
		t.Fatalf("hook: %+v", r)
	}
	waitFor(t, "the tree kept", 10*time.Second, func() bool { return e.workspace(t).Trees == 1 })
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\ndef warmed(cart):\n    return 1\n")...), 0o644)
	waitFor(t, "the edit in the graph", 10*time.Second, func() bool {
		return contains(e.symbolsOf(t, dir, "warmed"), "shop/pricing.py::warmed")
	})
	if w := e.workspace(t); w.Incremental < 1 {
		t.Errorf("the edit after the read was not reparsed incrementally: %+v", w)
	}
}
