package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/daemon/cli"
)

func setupAgent(t *testing.T, agent, dir string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main(append([]string{"setup", agent, "--dir", dir}, args...), &out, &errb); code != 0 {
		return out.String(), fmt.Errorf("exit %d: %s", code, errb.String())
	}
	return out.String(), nil
}

// agentFiles are where each agent keeps a project's hooks and MCP
// servers, an event ccd hooks there, and the hook and server entries a
// user already has (which setup must keep).
var agentFiles = []struct {
	agent, hooksFile, mcpFile, event string
	userHooks, userMCP               string
}{
	{"gemini", ".gemini/settings.json", ".gemini/settings.json", "AfterTool",
		`{"ui":{"theme":"x"},"hooks":{"AfterTool":[{"matcher":"replace","hooks":[{"type":"command","command":"my-lint"}]}]},"mcpServers":{"other":{"command":"x"}}}`, ""},
	{"droid", ".factory/settings.json", ".factory/mcp.json", "PostToolUse",
		`{"model":"m","hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"my-lint"}]}]}}`, `{"mcpServers":{"other":{"type":"stdio","command":"x"}}}`},
	{"copilot", ".github/hooks/ccd.json", ".github/mcp.json", "PostToolUse",
		"", `{"mcpServers":{"other":{"type":"local","command":"x"}}}`},
}

func TestSetupAgentsMergeIdempotently(t *testing.T) {
	for _, a := range agentFiles {
		t.Run(a.agent, func(t *testing.T) {
			setupEnv(t, true)
			dir := t.TempDir()
			write := func(rel, data string) {
				if data == "" {
					return
				}
				os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
				os.WriteFile(filepath.Join(dir, rel), []byte(data), 0o644)
			}
			write(a.hooksFile, a.userHooks)
			write(a.mcpFile, a.userMCP)
			before := map[string][]byte{}
			for _, f := range []string{a.hooksFile, a.mcpFile} {
				before[f], _ = os.ReadFile(filepath.Join(dir, f))
			}
			if _, err := setupAgent(t, a.agent, dir); err != nil {
				t.Fatal(err)
			}
			h := readJSON(t, filepath.Join(dir, a.hooksFile))
			hooks, _ := h["hooks"].(map[string]any)
			entries := string(mustJSON(hooks[a.event]))
			if !strings.Contains(entries, `"ccd-hook --agent `+a.agent+`"`) {
				t.Fatalf("%s %s hooks: %s", a.hooksFile, a.event, entries)
			}
			if a.userHooks != "" && !strings.Contains(entries, "my-lint") {
				t.Errorf("the user's own %s hook is lost: %s", a.event, entries)
			}
			servers := readJSON(t, filepath.Join(dir, a.mcpFile))["mcpServers"].(map[string]any)
			if got := string(mustJSON(servers["ccd"])); !strings.Contains(got, `"command":"ccd-mcp"`) || servers["other"] == nil {
				t.Errorf("%s mcpServers: %v", a.mcpFile, servers)
			}
			first := readJSON(t, filepath.Join(dir, a.hooksFile))
			if out, err := setupAgent(t, a.agent, dir); err != nil || !strings.Contains(out, "already set up") {
				t.Errorf("second setup: %v %s", err, out)
			}
			if !reflect.DeepEqual(readJSON(t, filepath.Join(dir, a.hooksFile)), first) {
				t.Error("second setup changed the hooks file")
			}
			if _, err := setupAgent(t, a.agent, dir, "--remove"); err != nil {
				t.Fatal(err)
			}
			for f, was := range before {
				now, err := os.ReadFile(filepath.Join(dir, f))
				if len(was) == 0 {
					if err == nil {
						t.Errorf("%s is left after remove: %s", f, now)
					}
					continue
				}
				var wasDoc, nowDoc any
				if err := json.Unmarshal(was, &wasDoc); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(now, &nowDoc); err != nil {
					t.Fatalf("%s after remove: %v", f, err)
				}
				if !reflect.DeepEqual(wasDoc, nowDoc) {
					t.Errorf("%s after remove:\n%s\nwant\n%s", f, now, was)
				}
			}
			if a.userHooks == "" && a.userMCP == "" {
				if left := projectFiles(t, dir); len(left) != 0 {
					t.Errorf("left after setup and remove: %v", left)
				}
			}
		})
	}
}

func TestSetupAgentsUserScope(t *testing.T) {
	for _, c := range []struct {
		agent, env, hooksFile, mcpFile string
	}{
		{"gemini", "GEMINI_CLI_HOME", ".gemini/settings.json", ".gemini/settings.json"},
		{"droid", "FACTORY_HOME_OVERRIDE", ".factory/settings.json", ".factory/mcp.json"},
		{"copilot", "COPILOT_HOME", "hooks/ccd.json", "mcp-config.json"},
	} {
		t.Run(c.agent, func(t *testing.T) {
			_, _, bin := setupEnv(t, true)
			home := t.TempDir()
			t.Setenv(c.env, home)
			dir := t.TempDir()
			if _, err := setupAgent(t, c.agent, dir, "--user"); err != nil {
				t.Fatal(err)
			}
			if left := projectFiles(t, dir); len(left) != 0 {
				t.Errorf("--user wrote into the project: %v", left)
			}
			hooks := string(mustJSON(readJSON(t, filepath.Join(home, c.hooksFile))["hooks"]))
			// The user's settings name this machine's shims.
			if !strings.Contains(hooks, filepath.Join(bin, "ccd-hook")+" --agent "+c.agent) {
				t.Errorf("user hooks do not run %s: %s", filepath.Join(bin, "ccd-hook"), hooks)
			}
			if mcp := string(mustJSON(readJSON(t, filepath.Join(home, c.mcpFile))["mcpServers"])); !strings.Contains(mcp, filepath.Join(bin, "ccd-mcp")) {
				t.Errorf("user MCP servers: %s", mcp)
			}
		})
	}
}

func TestSetupAgentRefusesPlantedLink(t *testing.T) {
	_, cfg, _ := setupEnv(t, true)
	dir := t.TempDir()
	target := filepath.Join(cfg, "mine.json")
	os.WriteFile(target, []byte(`{}`), 0o644)
	os.MkdirAll(filepath.Join(dir, ".gemini"), 0o755)
	if err := os.Symlink(target, filepath.Join(dir, ".gemini", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := setupAgent(t, "gemini", dir); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("setup through a planted link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != `{}` {
		t.Errorf("the link's target was written: %s", b)
	}
}

func TestSetupCodex(t *testing.T) {
	setupEnv(t, true)
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	userConfig := filepath.Join(codexHome, "config.toml")
	own := "model = \"gpt-5.5\"\n\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n"
	os.WriteFile(userConfig, []byte(own), 0o600)
	dir := t.TempDir()
	out, err := setupAgent(t, "codex", dir)
	if err != nil {
		t.Fatal(err)
	}
	hooksFile := filepath.Join(dir, ".codex", "hooks.json")
	hooks := readJSON(t, hooksFile)["hooks"].(map[string]any)
	for _, ev := range []string{"SessionStart", "PreToolUse", "PostToolUse", "PreCompact", "Stop"} {
		if !strings.Contains(string(mustJSON(hooks[ev])), `"ccd-hook --agent codex"`) {
			t.Errorf("no %s hook running ccd-hook --agent codex: %s", ev, mustJSON(hooks[ev]))
		}
	}
	project, _ := os.ReadFile(filepath.Join(dir, ".codex", "config.toml"))
	if !strings.HasPrefix(string(project), "[mcp_servers.ccd]\ncommand = \"ccd-mcp\"\nargs = []\nenv_vars = [\"CCD_HOME\", \"CCD_SOCKET\", \"XDG_RUNTIME_DIR\"") {
		t.Errorf(".codex/config.toml:\n%s", project)
	}
	trust, _ := os.ReadFile(userConfig)
	if !strings.HasPrefix(string(trust), own) {
		t.Errorf("the user's config.toml lost its own lines:\n%s", trust)
	}
	for _, ev := range []string{"session_start", "pre_tool_use", "post_tool_use", "pre_compact", "stop"} {
		key := fmt.Sprintf("[hooks.state.%q]\ntrusted_hash = \"sha256:", hooksFile+":"+ev+":0:0")
		if !strings.Contains(string(trust), key) {
			t.Errorf("no trust for %s (%s):\n%s", ev, key, trust)
		}
	}
	if !strings.Contains(out, "trusted project") {
		t.Errorf("setup does not say Codex needs the project trusted:\n%s", out)
	}
	if out, err := setupAgent(t, "codex", dir); err != nil || strings.Count(out, "already set up") != 3 {
		t.Errorf("second setup changed something: %v\n%s", err, out)
	}
	if _, err := setupAgent(t, "codex", dir, "--remove"); err != nil {
		t.Fatal(err)
	}
	if left := projectFiles(t, dir); len(left) != 0 {
		t.Errorf("left in the project: %v", left)
	}
	if b, _ := os.ReadFile(userConfig); string(b) != own {
		t.Errorf("the user's config.toml after remove:\n%s\nwant\n%s", b, own)
	}
}
