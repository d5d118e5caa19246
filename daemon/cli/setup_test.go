package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/daemon/cli"
)

// TestPluginHooksMatchSetup keeps plugin/hooks/hooks.json identical to what
// `ccd setup claude` writes (with the shim found on PATH).
func TestPluginHooksMatchSetup(t *testing.T) {
	p := filepath.Join("..", "..", "plugin", "hooks", "hooks.json")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.Encode(map[string]any{"hooks": cli.HooksConfig("ccd-hook")})
	if *update {
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s differs from HooksConfig; run go test ./daemon/cli -run PluginHooks -update", p)
	}
}

func TestSetupClaudeMergesIdempotently(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	user := `{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-guard"}]}]}}`
	os.WriteFile(settings, []byte(user), 0o644)
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers":{"other":{"command":"x"}}}`), 0o644)

	run := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := cli.Main(append([]string{"setup", "claude", "--dir", dir}, args...), &out, &errb); code != 0 {
			t.Fatalf("setup %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	read := func(p string) map[string]any {
		var m map[string]any
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return m
	}
	run()
	first := read(settings)
	hooks := first["hooks"].(map[string]any)
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 2 || !strings.Contains(string(mustJSON(pre[0])), "my-guard") || !strings.Contains(string(mustJSON(pre[1])), "ccd-hook") {
		t.Fatalf("PreToolUse after setup: %s", mustJSON(pre))
	}
	for _, ev := range []string{"SessionStart", "PostToolUse", "PreCompact", "Stop"} {
		if hooks[ev] == nil {
			t.Errorf("no %s hook", ev)
		}
	}
	if first["model"] != "x" {
		t.Error("unrelated settings lost")
	}
	mcp := read(filepath.Join(dir, ".mcp.json"))["mcpServers"].(map[string]any)
	if mcp["other"] == nil || mcp["ccd"] == nil {
		t.Errorf("mcpServers: %v", mcp)
	}
	baks, _ := filepath.Glob(settings + ".bak-*")
	if len(baks) != 1 {
		t.Errorf("%d backups, want 1", len(baks))
	}
	// Twice changes nothing.
	if out := run(); !strings.Contains(out, "already set up") {
		t.Errorf("second setup: %s", out)
	}
	if !reflect.DeepEqual(read(settings), first) {
		t.Error("second setup changed the settings")
	}
	// Remove restores the user's own configuration.
	run("--remove")
	after := read(settings)
	if got := string(mustJSON(after["hooks"])); got != `{"PreToolUse":[{"hooks":[{"command":"my-guard","type":"command"}],"matcher":"Bash"}]}` {
		t.Errorf("hooks after remove: %s", got)
	}
	if m := read(filepath.Join(dir, ".mcp.json"))["mcpServers"].(map[string]any); m["ccd"] != nil || m["other"] == nil {
		t.Errorf("mcpServers after remove: %v", m)
	}
}

func TestSetupRefusesBrokenSettings(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{broken`), 0o644)
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"setup", "claude", "--dir", dir}, &out, &errb); code == 0 {
		t.Fatal("setup accepted a broken settings file")
	}
	if !strings.Contains(errb.String(), "not a JSON object") {
		t.Errorf("error: %s", errb.String())
	}
	if b, _ := os.ReadFile(settings); string(b) != `{broken` {
		t.Error("broken settings file was modified")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
