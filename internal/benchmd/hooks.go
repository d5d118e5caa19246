package benchmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// HookCase is one kind of hook call, measured per process spawn.
type HookCase struct {
	Name    string
	Floor   bool   // a comparison, not ccd
	Want    string // what the output must contain; "" means it must be empty
	Missing string
	Client  []time.Duration // spawn to exit, as the agent's tool sees it
	Daemon  Sample          // the daemon's own latency for the event, ms
}

// hookBench measures ccd-hook per event type against the floors, in
// interleaved rounds (one call of each case per round) so that drift on a
// shared machine hits every case alike.
func hookBench(d *daemonProc, hookBin, noopBin, root string, t Target, iters int, logf func(string, ...any)) ([]*HookCase, error) {
	abs := filepath.Join(root, filepath.FromSlash(t.Path))
	orig, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	defer os.WriteFile(abs, orig, 0o644)
	edited := insertLine(string(orig), t.StartLine, commentFor(t.Path, "ccd bench edit"))
	ev := func(session, kind string, fields map[string]any) []byte {
		m := map[string]any{"hook_event_name": kind, "session_id": session, "cwd": root}
		for k, v := range fields {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	type kase struct {
		*HookCase
		session string
		bin     []string
		prep    func(i int) error
		event   func(i int) []byte
		after   func() error
	}
	noopEvent := ev("bench-floor", "PreToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": abs}})
	python := &HookCase{Name: "`python3 -c 'import json,sys; json.load(sys.stdin)'`", Floor: true}
	py := pythonExe()
	if py == "" {
		python.Missing = "not installed"
	}
	cases := []kase{
		{HookCase: &HookCase{Name: "floor: no-op static binary", Floor: true}, bin: []string{noopBin},
			event: func(int) []byte { return noopEvent }},
		{HookCase: python, bin: []string{py, "-c", "import json,sys; json.load(sys.stdin)"},
			event: func(int) []byte { return noopEvent }},
		{HookCase: &HookCase{Name: "PreToolUse Read, no card (the common case)"}, session: "bench-pre-none",
			event: func(int) []byte {
				return ev("bench-pre-none", "PreToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": abs}})
			}},
		{HookCase: &HookCase{Name: "PreToolUse Grep, search card", Want: "[ccd search"}, session: "bench-pre-search",
			event: func(int) []byte {
				return ev("bench-pre-search", "PreToolUse", map[string]any{"tool_name": "Grep", "tool_input": map[string]any{"pattern": t.Name}})
			}},
		{HookCase: &HookCase{Name: "PostToolUse Read, impact card", Want: "[ccd impact"}, session: "bench-read",
			event: func(int) []byte {
				return ev("bench-read", "PostToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": abs,
					"offset": t.StartLine, "limit": 2}})
			}},
		{HookCase: &HookCase{Name: "PostToolUse Edit, edit card (real edit)", Want: "[ccd edit"}, session: "bench-edit",
			prep: func(i int) error {
				content := edited
				if i%2 == 1 {
					content = string(orig)
				}
				return os.WriteFile(abs, []byte(content), 0o644)
			},
			event: func(i int) []byte {
				return ev("bench-edit", "PostToolUse", map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": abs},
					"tool_response": map[string]any{"filePath": abs, "structuredPatch": []any{map[string]any{
						"oldStart": t.StartLine + 1, "oldLines": i % 2, "newStart": t.StartLine + 1, "newLines": 1 - i%2}}}})
			},
			after: func() error {
				// Agents edit seconds apart: let the watcher's own update of
				// this write land before the next call (not timed).
				time.Sleep(100 * time.Millisecond)
				_, err := d.waitFresh(root, 0)
				return err
			}},
		{HookCase: &HookCase{Name: "SessionStart, orientation card", Want: "[ccd] Workspace"}, session: "bench-start",
			event: func(int) []byte {
				return ev("bench-start", "SessionStart", map[string]any{"source": "startup"})
			}},
	}
	call := func(k kase, i int, verify bool) (time.Duration, error) {
		if k.prep != nil {
			if err := k.prep(i); err != nil {
				return 0, err
			}
		}
		argv := k.bin
		if argv == nil {
			argv = []string{hookBin}
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = d.env
		out, u, err := runMeasured(cmd, k.event(i), false)
		if err != nil {
			return 0, err
		}
		if !k.Floor && verify {
			got := string(out)
			if (k.Want == "" && got != "") || (k.Want != "" && !strings.Contains(got, k.Want)) {
				return 0, fmt.Errorf("hook %s, call %d: want %q in the output, got %q (see %s)", k.Name, i, k.Want, tail(got, 300), filepath.Join(d.home, "hooks.jsonl"))
			}
		}
		if k.after != nil {
			if err := k.after(); err != nil {
				return 0, err
			}
		}
		return u.Wall, nil
	}
	// One warm-up call per case (page cache, the session's first-sight
	// line), not counted; the Edit case's warm-up is an edit too, so the
	// alternation restarts from the original.
	for _, k := range cases {
		if k.Missing == "" {
			if _, err := call(k, 0, false); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	w, err := d.workspace(root)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(abs, orig, 0o644); err != nil {
		return nil, err
	}
	if _, err := d.waitFresh(root, w.Generation); err != nil {
		return nil, err
	}
	for i := range iters {
		for _, k := range cases {
			if k.Missing != "" {
				continue
			}
			t, err := call(k, i, true)
			if err != nil {
				return nil, err
			}
			k.Client = append(k.Client, t)
		}
		if (i+1)%max(1, iters/4) == 0 {
			logf("  hooks: %d/%d rounds", i+1, iters)
		}
	}
	// The daemon's own latency per case, from its decision log; every
	// timed call must have reached it.
	lat, err := decisionsBySession(d.home)
	if err != nil {
		return nil, err
	}
	var out []*HookCase
	for _, k := range cases {
		if k.session != "" {
			got := lat[k.session]
			if len(got) < iters {
				return nil, fmt.Errorf("hook %s: the daemon logged %d decisions for %d calls: ccd-hook failed open (see %s)", k.Name, len(got), iters+1, filepath.Join(d.home, "hook.log"))
			}
			k.Daemon = got[len(got)-iters:]
		}
		out = append(out, k.HookCase)
	}
	return out, nil
}

// pythonExe is the real interpreter behind python3 (not a version
// manager's shim script, whose start-up would be measured instead), or ""
// when there is none.
func pythonExe() string {
	return firstLine("", "python3", "-c", "import sys; print(sys.executable)")
}

// decisionsBySession reads the daemon's hook decision log (and its
// rotated predecessor) and returns the latencies, in ms, per session.
func decisionsBySession(home string) (map[string]Sample, error) {
	out := map[string]Sample{}
	read := 0
	for _, p := range []string{filepath.Join(home, "hooks.jsonl.1"), filepath.Join(home, "hooks.jsonl")} {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		read++
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var d struct {
				Session string  `json:"session"`
				MS      float64 `json:"ms"`
			}
			if json.Unmarshal(sc.Bytes(), &d) == nil && d.Session != "" {
				out[d.Session] = append(out[d.Session], d.MS)
			}
		}
		f.Close()
	}
	if read == 0 {
		return nil, fmt.Errorf("no hook decision log in %s: did any hook reach the daemon?", home)
	}
	return out, nil
}

// insertLine inserts line after the first n lines of text.
func insertLine(text string, n int, line string) string {
	lines := strings.SplitAfter(text, "\n")
	n = min(n, len(lines))
	return strings.Join(lines[:n], "") + line + "\n" + strings.Join(lines[n:], "")
}

// commentFor is a comment line in the language of path.
func commentFor(path, text string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".py", ".rb", ".sh", ".bash", ".pl", ".r", ".yaml", ".yml", ".toml":
		return "# " + text
	default:
		return "// " + text
	}
}
