package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
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

// setupEnv isolates setup from the machine: HOME, the backups directory
// and Claude Code's config directory are temporary; with shims, ccd-hook
// and ccd-mcp are on PATH (as fake executables).
func setupEnv(t *testing.T, shims bool) (home, cfg, bin string) {
	t.Helper()
	home, cfg, bin = t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	if shims {
		for _, n := range []string{"ccd-hook", "ccd-mcp"} {
			os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755)
		}
	}
	return home, cfg, bin
}

func setup(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Main(append([]string{"setup", "claude", "--dir", dir}, args...), &out, &errb); code != 0 {
		return out.String(), fmt.Errorf("exit %d: %s", code, errb.String())
	}
	return out.String(), nil
}

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	var m map[string]any
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

func TestSetupClaudeMergesIdempotently(t *testing.T) {
	home, _, _ := setupEnv(t, true)
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	user := `{"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"my-guard"}]}]}}`
	os.WriteFile(settings, []byte(user), 0o644)
	os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers":{"other":{"command":"x"}}}`), 0o644)

	run := func(args ...string) string {
		out, err := setup(t, dir, args...)
		if err != nil {
			t.Fatalf("setup %v: %v", args, err)
		}
		return out
	}
	out := run()
	if !strings.Contains(out, "approve") {
		t.Errorf("setup does not say Claude Code asks to approve the server:\n%s", out)
	}
	first := readJSON(t, settings)
	hooks := first["hooks"].(map[string]any)
	pre := hooks["PreToolUse"].([]any)
	if len(pre) != 2 || !strings.Contains(string(mustJSON(pre[0])), "my-guard") || !strings.Contains(string(mustJSON(pre[1])), `"command":"ccd-hook"`) {
		t.Fatalf("PreToolUse after setup (the shared file must name ccd-hook, not a path): %s", mustJSON(pre))
	}
	for _, ev := range []string{"SessionStart", "PostToolUse", "PreCompact", "Stop"} {
		if hooks[ev] == nil {
			t.Errorf("no %s hook", ev)
		}
	}
	if first["model"] != "x" {
		t.Error("unrelated settings lost")
	}
	mcp := readJSON(t, filepath.Join(dir, ".mcp.json"))["mcpServers"].(map[string]any)
	if mcp["other"] == nil || string(mustJSON(mcp["ccd"])) != `{"args":[],"command":"ccd-mcp","type":"stdio"}` {
		t.Errorf("mcpServers: %v", mcp)
	}
	// Backups go outside the project.
	if baks, _ := filepath.Glob(filepath.Join(home, "state", "ccd", "backups", "*settings.json.*")); len(baks) != 1 {
		t.Errorf("%d backups of settings.json under the state dir, want 1", len(baks))
	}
	if junk := projectFiles(t, dir); fmt.Sprint(junk) != "[.claude/settings.json .mcp.json]" {
		t.Errorf("project files after setup: %v", junk)
	}
	// Twice changes nothing.
	if out := run(); !strings.Contains(out, "already set up") {
		t.Errorf("second setup: %s", out)
	}
	if !reflect.DeepEqual(readJSON(t, settings), first) {
		t.Error("second setup changed the settings")
	}
	// Remove restores the user's own configuration.
	run("--remove")
	after := readJSON(t, settings)
	if got := string(mustJSON(after["hooks"])); got != `{"PreToolUse":[{"hooks":[{"command":"my-guard","type":"command"}],"matcher":"Bash"}]}` {
		t.Errorf("hooks after remove: %s", got)
	}
	if m := readJSON(t, filepath.Join(dir, ".mcp.json"))["mcpServers"].(map[string]any); m["ccd"] != nil || m["other"] == nil {
		t.Errorf("mcpServers after remove: %v", m)
	}
}

// projectFiles lists the files under dir, relative.
func projectFiles(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestSetupRemoveLeavesNothing: in a project without Claude Code files,
// setup then remove leaves the project as it was: no {} files, no empty
// .claude/, no backups in the tree.
func TestSetupRemoveLeavesNothing(t *testing.T) {
	setupEnv(t, true)
	dir := t.TempDir()
	if _, err := setup(t, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := setup(t, dir, "--remove"); err != nil {
		t.Fatal(err)
	}
	if left := projectFiles(t, dir); len(left) != 0 {
		t.Errorf("left in the project after setup and remove: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude")); err == nil {
		t.Error("an empty .claude/ is left behind")
	}
}

// TestSetupWithoutShimsOnPath: the shared files must not hold one
// machine's paths, so when the shims are beside ccd but not on PATH, setup
// writes this machine's files (--local): .claude/settings.local.json,
// ignored by git, and the project's entry in Claude Code's config;
// --project refuses. Run with the real binary, the shims beside it.
func TestSetupWithoutShimsOnPath(t *testing.T) {
	home, cfg, _ := setupEnv(t, false)
	bin := t.TempDir()
	exe, err := os.ReadFile(ccdBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bin, "ccd"), exe, 0o755)
	for _, n := range []string{"ccd-hook", "ccd-mcp"} {
		os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	ccd := func(args ...string) result {
		cmd := exec.Command(filepath.Join(bin, "ccd"), append([]string{"setup", "claude", "--dir", dir}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+cfg, "PATH=/usr/bin:/bin")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		r := result{out.String(), errb.String(), 0}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		}
		return r
	}
	if r := ccd("--project"); r.code == 0 || !strings.Contains(r.stderr, "ccd-hook and ccd-mcp not on PATH") {
		t.Errorf("--project without the shims on PATH:\n%s", r)
	}
	r := ccd()
	if r.code != 0 || !strings.Contains(r.stdout, "for this machine only") {
		t.Fatalf("setup without the shims on PATH:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude", "settings.json")); err == nil {
		t.Error("the shared settings.json was written")
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json")); err == nil {
		t.Error("the shared .mcp.json was written")
	}
	local := string(mustJSON(readJSON(t, filepath.Join(dir, ".claude", "settings.local.json"))))
	if !strings.Contains(local, `"command":"`+filepath.Join(bin, "ccd-hook")+`"`) {
		t.Errorf("settings.local.json: %s", local)
	}
	conf := string(mustJSON(readJSON(t, filepath.Join(cfg, ".claude.json"))))
	if !strings.Contains(conf, filepath.Join(bin, "ccd-mcp")) {
		t.Errorf("the project's MCP server in .claude.json: %s", conf)
	}
	// --remove without a scope takes out what either project setup wrote.
	if r := ccd("--remove"); r.code != 0 {
		t.Fatalf("remove:\n%s", r)
	}
	if left := projectFiles(t, dir); fmt.Sprint(left) != "[.git/info/exclude]" {
		t.Errorf("left in the project: %v", left)
	}
	if conf := string(mustJSON(readJSON(t, filepath.Join(cfg, ".claude.json")))); strings.Contains(conf, "ccd-mcp") {
		t.Errorf("remove left the MCP server: %s", conf)
	}
}

func TestSetupLocalScope(t *testing.T) {
	_, cfg, bin := setupEnv(t, true)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	out, err := setup(t, dir, "--local")
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, ".claude", "settings.local.json")
	if s := string(mustJSON(readJSON(t, local))); !strings.Contains(s, `"command":"`+filepath.Join(bin, "ccd-hook")+`"`) {
		t.Errorf("settings.local.json: %s", s)
	}
	conf := readJSON(t, filepath.Join(cfg, ".claude.json"))
	srv := conf["projects"].(map[string]any)[dir].(map[string]any)["mcpServers"].(map[string]any)["ccd"]
	if string(mustJSON(srv)) != `{"args":[],"command":"`+filepath.Join(bin, "ccd-mcp")+`","type":"stdio"}` {
		t.Errorf("local MCP server in %s/.claude.json: %s", cfg, mustJSON(conf))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude")); !strings.Contains(string(b), "/.claude/settings.local.json") {
		t.Errorf("settings.local.json is not excluded from git: %q\n%s", b, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".mcp.json")); err == nil {
		t.Error("--local wrote the shared .mcp.json")
	}
	if _, err := setup(t, dir, "--remove"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(local); err == nil {
		t.Error("remove left settings.local.json")
	}
	conf = readJSON(t, filepath.Join(cfg, ".claude.json"))
	if strings.Contains(string(mustJSON(conf)), "ccd-mcp") {
		t.Errorf("remove left the local MCP server: %s", mustJSON(conf))
	}
}

func TestSetupUserScope(t *testing.T) {
	home, cfg, bin := setupEnv(t, true)
	os.WriteFile(filepath.Join(cfg, ".claude.json"), []byte(`{"numStartups":3,"mcpServers":{"x":{"command":"y"}}}`), 0o600)
	if _, err := setup(t, t.TempDir(), "--user"); err != nil {
		t.Fatal(err)
	}
	if s := string(mustJSON(readJSON(t, filepath.Join(cfg, "settings.json")))); !strings.Contains(s, filepath.Join(bin, "ccd-hook")) {
		t.Errorf("user settings in CLAUDE_CONFIG_DIR: %s", s)
	}
	conf := readJSON(t, filepath.Join(cfg, ".claude.json"))
	if conf["numStartups"] != 3.0 || conf["mcpServers"].(map[string]any)["x"] == nil || conf["mcpServers"].(map[string]any)["ccd"] == nil {
		t.Errorf(".claude.json: %s", mustJSON(conf))
	}
	if st, err := os.Stat(filepath.Join(cfg, ".claude.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf(".claude.json mode changed: %v %v", st.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); err == nil {
		t.Error("wrote ~/.claude.json although CLAUDE_CONFIG_DIR is set")
	}
}

// TestSetupRefusesPlantedLinks: an untrusted checkout cannot make setup
// write the user's own files: a link planted where setup writes its
// temporary file is never followed, and links in place of .claude/ or of
// the files themselves are refused.
func TestSetupRefusesPlantedLinks(t *testing.T) {
	home, _, _ := setupEnv(t, true)
	global := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(global), 0o755)
	os.WriteFile(global, []byte(`{"mine":true}`), 0o644)
	check := func() {
		t.Helper()
		if b, _ := os.ReadFile(global); string(b) != `{"mine":true}` {
			t.Fatalf("the user's global settings were overwritten: %s", b)
		}
	}
	// A link at the old fixed temporary name.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
	os.Symlink(global, filepath.Join(dir, ".claude", "settings.json.tmp"))
	if _, err := setup(t, dir); err != nil {
		t.Fatal(err)
	}
	check()
	for _, c := range []struct{ name, link string }{
		{".claude is a link", ".claude"},
		{"settings.json is a link", ".claude/settings.json"},
		{".mcp.json is a link", ".mcp.json"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, filepath.Dir(c.link)), 0o755)
		target := global
		if c.link == ".claude" {
			target = filepath.Dir(global)
		}
		os.Symlink(target, filepath.Join(dir, c.link))
		_, err := setup(t, dir)
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s: setup did not refuse: %v", c.name, err)
		}
		check()
	}
}

func TestSetupRefusesBrokenSettings(t *testing.T) {
	setupEnv(t, true)
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{broken`), 0o644)
	_, err := setup(t, dir)
	if err == nil {
		t.Fatal("setup accepted a broken settings file")
	}
	if !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("error: %v", err)
	}
	if b, _ := os.ReadFile(settings); string(b) != `{broken` {
		t.Error("broken settings file was modified")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
