package hooks

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
)

// FuzzHandle: the hook engine, on a real index, takes any event bytes and
// answers nothing or one JSON object, within its deadline, never panicking
// (run in CI for a short time by `just fuzz`; the seeds run with every
// `go test`).
func FuzzHandle(f *testing.F) {
	h := shopRepo(f)
	root := h.root
	mk := func(m map[string]any) []byte { b, _ := json.Marshal(m); return b }
	f.Add(readEvent("s", root, "shop/pricing.py"))
	f.Add(mk(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root, "tool_name": "Grep", "tool_input": map[string]any{"pattern": "price_of"}}))
	f.Add(mk(map[string]any{"hook_event_name": "PostToolUse", "session_id": "s", "cwd": root, "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(root, "shop/pricing.py"), "old_string": "def", "new_string": "def"},
		"tool_response": map[string]any{"structuredPatch": []any{map[string]any{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 2, "lines": []any{"-a", "+b", "+c"}}}}}))
	f.Add(mk(map[string]any{"hook_event_name": "SessionStart", "session_id": "s", "cwd": root, "source": "compact"}))
	f.Add(mk(map[string]any{"hook_event_name": "Stop", "session_id": "s", "cwd": root}))
	f.Add(mk(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": root, "tool_name": "Bash", "tool_input": map[string]any{"command": "rg -n price_of shop/"}}))
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_input":{"file_path":"../../../../etc/passwd"}}`))
	f.Add([]byte(`[`))
	e := New(h, config.DefaultHooks(), "")
	f.Fuzz(func(t *testing.T, ev []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, _ := e.Handle(ctx, ev, Env{ProjectDir: root})
		if out != nil && !json.Valid(out) {
			t.Fatalf("answer is not JSON: %q", out)
		}
	})
}
