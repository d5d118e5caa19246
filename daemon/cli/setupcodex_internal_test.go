package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The vectors come from an independent implementation of Codex's hook
// fingerprint (a Node.js script checked against `codex app-server`
// hooks/list currentHash for all of its events, Codex 0.169.0).
func TestCodexHookHash(t *testing.T) {
	for _, c := range []struct {
		h    agentHook
		cmd  string
		want string
	}{
		{agentHook{"PreToolUse", "Bash|apply_patch", 5}, "ccd-hook --agent codex", "sha256:22a4dfce92eb2604f2dc14a96c0421faad5f43c71ce3ccef5f65a7cbbb405c16"},
		// Codex ignores Stop's matcher: it is not part of the hash.
		{agentHook{"Stop", "x", 5}, "/x/ccd-hook --agent codex", "sha256:77e688d743987f42ead0d5d77d1fd1a559e38df4e61a24553fa1b90fb5042414"},
	} {
		if got := codexHookHash(c.h, c.cmd); got != c.want {
			t.Errorf("%+v %q: got %s, want %s", c.h, c.cmd, got, c.want)
		}
	}
}

func TestEditTOMLTables(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	f := filepath.Join(dir, "config.toml")
	user := `# my config
model = "gpt-5.5"

[mcp_servers.other]
command = "x"

[ mcp_servers.ccd ]
command = "old"
[mcp_servers.ccd.env]
A = "1"

[projects."/p"]
trust_level = "trusted"
`
	os.WriteFile(f, []byte(user), 0o644)
	changed, err := editCodexServer(f, "/bin/ccd-mcp", false)
	if err != nil || !changed {
		t.Fatalf("edit: %v %v", changed, err)
	}
	b, _ := os.ReadFile(f)
	want := `# my config
model = "gpt-5.5"

[mcp_servers.other]
command = "x"

[projects."/p"]
trust_level = "trusted"

[mcp_servers.ccd]
command = "/bin/ccd-mcp"
args = []
env_vars = ["CCD_HOME", "CCD_SOCKET", "XDG_RUNTIME_DIR", "CCD_EXE", "CCD_LSP", "CCD_LSP_PATH", "CCD_LSP_SERVERS", "CCD_IDLE_TIMEOUT", "CCD_MAX_WORKSPACES"]
`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	if changed, err := editCodexServer(f, "/bin/ccd-mcp", false); err != nil || changed {
		t.Errorf("second edit: changed %v, %v", changed, err)
	}
	if _, err := editCodexServer(f, "/bin/ccd-mcp", true); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(f)
	if strings.Contains(string(b), "ccd") || !strings.Contains(string(b), `[projects."/p"]`) {
		t.Errorf("after remove:\n%s", b)
	}
	// A server defined inline is refused, not duplicated.
	os.WriteFile(f, []byte("[mcp_servers]\nccd = { command = \"x\" }\n"), 0o644)
	if _, err := editCodexServer(f, "/bin/ccd-mcp", false); err == nil || !strings.Contains(err.Error(), "inline") {
		t.Errorf("inline definition: %v", err)
	}
}
