package hooks

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
)

// FuzzHandle: the hook engine, on a real index, takes any event bytes (in
// any agent's dialect) and
// answers nothing or one JSON object, within its deadline, never panicking
// (run in CI for a short time by `just fuzz`; the seeds run with every
// `go test`).
func FuzzHandle(f *testing.F) {
	h := shopRepo(f)
	root := h.root
	mk := func(m map[string]any) []byte { b, _ := json.Marshal(m); return b }
	f.Add(readEvent("s", root, "shop/pricing.py"), uint8(0))
	f.Add(mk(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root, "tool_name": "Grep", "tool_input": map[string]any{"pattern": "price_of"}}), uint8(0))
	f.Add(mk(map[string]any{"hook_event_name": "PostToolUse", "session_id": "s", "cwd": root, "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(root, "shop/pricing.py"), "old_string": "def", "new_string": "def"},
		"tool_response": map[string]any{"structuredPatch": []any{map[string]any{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 2, "lines": []any{"-a", "+b", "+c"}}}}}), uint8(0))
	f.Add(mk(map[string]any{"hook_event_name": "SessionStart", "session_id": "s", "cwd": root, "source": "compact"}), uint8(0))
	f.Add(mk(map[string]any{"hook_event_name": "Stop", "session_id": "s", "cwd": root}), uint8(0))
	for i := range Agents() {
		f.Add(mk(map[string]any{"hook_event_name": "Stop", "session_id": "s", "cwd": root}), uint8(i))
	}
	f.Add(mk(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root, "tool_name": "Bash", "tool_input": map[string]any{"command": "rg -n price_of shop/"}}), uint8(0))
	f.Add(mk(map[string]any{"hook_event_name": "PostToolUse", "session_id": "s", "cwd": root, "tool_name": "apply_patch",
		"tool_input": map[string]any{"command": "*** Begin Patch\n*** Update File: shop/pricing.py\n@@\n-def price_of(item):\n+def price_of(item, c):\n*** End Patch\n"}}), uint8(2)) // codex
	f.Add(mk(map[string]any{"hook_event_name": "AfterTool", "session_id": "s", "cwd": root, "tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": "nl -ba shop/pricing.py | sed -n '1,9p'"}}), uint8(5)) // gemini
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_input":{"file_path":"../../../../etc/passwd"}}`), uint8(0))
	f.Add([]byte(`[`), uint8(2))
	e := New(h, config.DefaultHooks(), "")
	agents := append([]string{""}, Agents()...)
	f.Fuzz(func(t *testing.T, ev []byte, agent uint8) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, _ := e.Handle(ctx, ev, Env{ProjectDir: root, Agent: agents[int(agent)%len(agents)]})
		if out != nil && !json.Valid(out) {
			t.Fatalf("answer is not JSON: %q", out)
		}
	})
}
