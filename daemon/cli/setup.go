package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// hookEvents are the Claude Code events ccd-hook handles, with the tool
// matcher and the timeout (seconds) of each.
var hookEvents = []struct {
	event, matcher string
	timeout        int
}{
	{"SessionStart", "", 10},
	{"PreToolUse", "*", 5},
	{"PostToolUse", "Read|Edit|Write|MultiEdit|NotebookEdit|Bash|Grep|Glob", 10},
	{"PostToolUseFailure", "Read", 5},
	{"PreCompact", "", 10},
	{"Stop", "", 5},
	{"SubagentStop", "", 5},
}

// HooksConfig returns the "hooks" object of Claude Code settings that runs
// hookCmd for every event ccd handles.
func HooksConfig(hookCmd string) map[string]any {
	out := map[string]any{}
	for _, h := range hookEvents {
		out[h.event] = []any{map[string]any{
			"matcher": h.matcher,
			"hooks":   []any{map[string]any{"type": "command", "command": hookCmd, "timeout": h.timeout}},
		}}
	}
	return out
}

// MCPServer is the MCP server entry that runs mcpCmd.
func MCPServer(mcpCmd string) map[string]any {
	return map[string]any{"type": "stdio", "command": mcpCmd, "args": []any{}}
}

// Setup scopes, as Claude Code names them.
const (
	scopeProject = "project" // .claude/settings.json and .mcp.json: committed, shared
	scopeLocal   = "local"   // .claude/settings.local.json and this project in ~/.claude.json: this machine
	scopeUser    = "user"    // ~/.claude/settings.json and ~/.claude.json: every project
)

// setupPlan is what setup writes: the settings file holding the hooks, the
// file holding the MCP server and the JSON path to its entry, and the
// commands they run.
type setupPlan struct {
	scope           string
	dir             string // the project (project and local scopes)
	settings        string
	mcpFile         string
	mcpPath         []string // keys down to the servers map
	hookCmd, mcpCmd string
	// guarded are paths that must not be symlinks (an untrusted checkout
	// could point them at the user's own files).
	guarded []string
}

func runSetup(c *ctx, args []string) error {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	project := fs.Bool("project", false, "the project's shared .claude/settings.json and .mcp.json, running ccd-hook and ccd-mcp from PATH (the default)")
	local := fs.Bool("local", false, "this machine only: .claude/settings.local.json and the project's entry in ~/.claude.json, with absolute paths")
	user := fs.Bool("user", false, "every project: $CLAUDE_CONFIG_DIR/settings.json (or ~/.claude/settings.json) and ~/.claude.json")
	remove := fs.Bool("remove", false, "remove ccd's hooks and MCP server instead")
	dir := fs.String("dir", ".", "project directory (project and local scopes)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) >= 1 && agentSetups[rest[0]] != nil {
		return runAgentSetup(c, rest[0], args)
	}
	if len(rest) != 1 || rest[0] != "claude" {
		return usageError{"usage: ccd setup " + setupAgents() + " [--project|--local|--user] [--dir DIR] [--remove] (--local is Claude Code's only)"}
	}
	n := 0
	for _, b := range []bool{*project, *local, *user} {
		if b {
			n++
		}
	}
	if n > 1 {
		return usageError{"pick one of --project, --local and --user"}
	}
	scope := scopeProject
	switch {
	case *local:
		scope = scopeLocal
	case *user:
		scope = scopeUser
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	if scope == scopeProject && !*remove {
		// Shared files name the commands, found on PATH: absolute paths of
		// one machine's build do not belong in a repository.
		if missing := notOnPath("ccd-hook", "ccd-mcp"); len(missing) > 0 {
			if *project {
				return fmt.Errorf("%s not on PATH: the project's shared settings run the shims by name; install them "+
					"(just install, or copy bin/* to a directory on PATH), "+
					"or use --local to write this machine's paths", strings.Join(missing, " and "))
			}
			fmt.Fprintf(c.stdout, "%s not on PATH, so ccd is set up for this machine only (--local): the shared files would name commands "+
				"your teammates do not have. Put the binaries on PATH and run `ccd setup claude --project` to share it.\n", strings.Join(missing, " and "))
			scope = scopeLocal
		}
	}
	scopes := []string{scope}
	if *remove && n == 0 {
		// Without a scope, remove what either project setup wrote (the
		// shared files, or this machine's when the shims were not on PATH).
		scopes = []string{scopeProject, scopeLocal}
	}
	var p *setupPlan
	for _, sc := range scopes {
		if p, err = setupScope(c, sc, abs, *remove); err != nil {
			return err
		}
	}
	if *remove {
		return nil
	}
	switch p.scope {
	case scopeProject:
		fmt.Fprintf(c.stdout, "Commit .claude/settings.json and .mcp.json to share the setup: they run ccd-hook and ccd-mcp from PATH. "+
			"Claude Code asks each person to approve the ccd server from .mcp.json on first start (or in /mcp).\n")
	case scopeLocal:
		excludeFromGit(p.dir, ".claude/settings.local.json")
		fmt.Fprintf(c.stdout, "These files hold this machine's paths (%s); git ignores .claude/settings.local.json.\n", filepath.Dir(p.hookCmd))
	}
	return nil
}

// setupScope adds (or removes) ccd's hooks and MCP server in one scope's
// files.
func setupScope(c *ctx, scope, dir string, remove bool) (*setupPlan, error) {
	p, err := planSetup(scope, dir, remove)
	if err != nil {
		return nil, err
	}
	for _, g := range p.guarded {
		if st, err := os.Lstat(g); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: setup does not write through links in a project (a checkout could point one at your own settings); replace it with a real file or directory and run setup again", g)
		}
	}
	inProject := p.scope != scopeUser
	changed, err := editJSON(p.settings, remove && inProject, func(doc map[string]any) {
		mergeHooks(doc, p.hookCmd, remove)
	})
	if err != nil {
		return nil, err
	}
	reportSetup(c, p.settings, changed, remove, "hooks")
	changed, err = editJSON(p.mcpFile, remove && p.scope == scopeProject, func(doc map[string]any) {
		mergeServer(doc, p.mcpPath, p.mcpCmd, MCPServer, remove)
	})
	if err != nil {
		return nil, err
	}
	reportSetup(c, p.mcpFile, changed, remove, "MCP server")
	if remove && inProject {
		// Setup made .claude/ when there was none: leave no empty one.
		os.Remove(filepath.Join(p.dir, ".claude"))
	}
	return p, nil
}

// planSetup says which files a scope writes and which commands they run.
func planSetup(scope, dir string, remove bool) (*setupPlan, error) {
	p := &setupPlan{scope: scope, dir: dir, mcpPath: []string{"mcpServers"}}
	claudeJSON, cfgDir, err := claudeConfigFiles()
	if err != nil {
		return nil, err
	}
	switch scope {
	case scopeProject:
		p.settings, p.mcpFile = filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".mcp.json")
		p.hookCmd, p.mcpCmd = "ccd-hook", "ccd-mcp"
		p.guarded = []string{filepath.Join(dir, ".claude"), p.settings, p.mcpFile}
		return p, nil
	case scopeLocal:
		p.settings, p.mcpFile = filepath.Join(dir, ".claude", "settings.local.json"), claudeJSON
		p.mcpPath = []string{"projects", dir, "mcpServers"}
		p.guarded = []string{filepath.Join(dir, ".claude"), p.settings}
	default:
		p.settings, p.mcpFile = filepath.Join(cfgDir, "settings.json"), claudeJSON
	}
	if remove {
		return p, nil // entries are found by what they run, not by path
	}
	if p.hookCmd, err = shimPath("ccd-hook"); err != nil {
		return nil, err
	}
	if p.mcpCmd, err = shimPath("ccd-mcp"); err != nil {
		return nil, err
	}
	return p, nil
}

// claudeConfigFiles are Claude Code's global config file (MCP servers of
// the user and local scopes) and its settings directory:
// $CLAUDE_CONFIG_DIR/.claude.json and $CLAUDE_CONFIG_DIR when it is set
// (checked with Claude Code 2.1.328), else ~/.claude.json and ~/.claude.
func claudeConfigFiles() (claudeJSON, cfgDir string, err error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		if d, err = filepath.Abs(d); err != nil {
			return "", "", err
		}
		return filepath.Join(d, ".claude.json"), d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", "", err
	}
	return filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude"), nil
}

// notOnPath lists the commands exec.LookPath does not find.
func notOnPath(names ...string) []string {
	var out []string
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			out = append(out, n)
		}
	}
	return out
}

func reportSetup(c *ctx, file string, changed, remove bool, what string) {
	switch {
	case !changed:
		fmt.Fprintf(c.stdout, "%s: ccd %s already %s\n", file, what, map[bool]string{false: "set up", true: "absent"}[remove])
	case remove:
		fmt.Fprintf(c.stdout, "%s: removed ccd %s\n", file, what)
	default:
		fmt.Fprintf(c.stdout, "%s: added ccd %s\n", file, what)
	}
}

// isOurs reports whether a hook entry runs ccd-hook.
func isOurs(entry any) bool {
	m, ok := entry.(map[string]any)
	if !ok {
		return false
	}
	hs, _ := m["hooks"].([]any)
	for _, h := range hs {
		if hm, ok := h.(map[string]any); ok {
			if cmd, _ := hm["command"].(string); strings.Contains(filepath.Base(strings.Fields(cmd + " x")[0]), "ccd-hook") {
				return true
			}
		}
	}
	return false
}

// mergeHooks replaces ccd's entries in doc["hooks"] (keeping every other
// hook) or, with remove, drops them.
func mergeHooks(doc map[string]any, hookCmd string, remove bool) {
	mergeHookMap(doc, HooksConfig(hookCmd), remove)
}

// mergeHookMap replaces ccd's entries in doc["hooks"] with ours, an
// event -> entries map (keeping every other hook), or, with remove, drops
// them.
func mergeHookMap(doc map[string]any, ours map[string]any, remove bool) {
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		if remove {
			return
		}
		hooks = map[string]any{}
		doc["hooks"] = hooks
	}
	events := map[string]bool{}
	for ev := range hooks {
		events[ev] = true
	}
	for ev := range ours {
		events[ev] = true
	}
	for ev := range events {
		list, _ := hooks[ev].([]any)
		var kept []any
		for _, entry := range list {
			if !isOurs(entry) {
				kept = append(kept, entry)
			}
		}
		if !remove {
			if add, ok := ours[ev].([]any); ok {
				kept = append(kept, add...)
			}
		}
		if len(kept) == 0 {
			delete(hooks, ev)
		} else {
			hooks[ev] = kept
		}
	}
	if len(hooks) == 0 {
		delete(doc, "hooks")
	}
}

// mergeServer sets (or, with remove, deletes) the "ccd" server in the
// servers map found by following keys from doc. Removing drops the maps
// it leaves empty, down to the servers map itself.
func mergeServer(doc map[string]any, keys []string, mcpCmd string, entry func(string) map[string]any, remove bool) {
	maps := []map[string]any{doc}
	m := doc
	for _, k := range keys {
		next, _ := m[k].(map[string]any)
		if next == nil {
			if remove {
				return
			}
			next = map[string]any{}
			m[k] = next
		}
		maps = append(maps, next)
		m = next
	}
	if !remove {
		m["ccd"] = entry(mcpCmd)
		return
	}
	delete(m, "ccd")
	if len(m) == 0 && len(keys) == 1 {
		delete(doc, keys[0])
	}
}

// editJSON applies fn to the JSON object in file (created when missing)
// and writes it back when it changed: the old content is copied to the
// backups directory (outside the project) first, and the new one goes
// through an exclusive temporary file and a rename, so a planted link
// is never followed. With dropEmpty, a file left as {} is removed. It
// refuses a file that is not a JSON object.
func editJSON(file string, dropEmpty bool, fn func(doc map[string]any)) (bool, error) {
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", file, err)
	}
	doc := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		if err := json.Unmarshal(old, &doc); err != nil {
			return false, fmt.Errorf("%s is not a JSON object (%v): fix or move it, then run setup again", file, err)
		}
	}
	before, _ := json.Marshal(doc)
	fn(doc)
	after, _ := json.Marshal(doc)
	if bytes.Equal(before, after) {
		return false, nil
	}
	if old != nil {
		if err := backup(file, old); err != nil {
			return false, err
		}
	}
	if dropEmpty && len(doc) == 0 {
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("remove %s: %w", file, err)
		}
		return true, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return false, err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	return true, replaceFile(file, buf.Bytes(), mode)
}

// replaceFile writes data to path through a new temporary file in the
// same directory (O_EXCL: never an existing file or link), synced, then
// renamed over path.
func replaceFile(path string, data []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".ccd-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// backup keeps a copy of a file setup is about to change, outside any
// project: $XDG_STATE_HOME/ccd/backups (or ~/.local/state/ccd/backups),
// named after the file's path and the time.
func backup(file string, data []byte) error {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("backup %s: %w", file, err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "ccd", "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("backup %s: %w", file, err)
	}
	name := strings.ReplaceAll(strings.TrimPrefix(file, "/"), "/", "%") + "." + time.Now().UTC().Format("20060102T150405.000")
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	for n := 1; errors.Is(err, os.ErrExist) && n < 100; n++ {
		// Two edits of one file within a millisecond (Codex's config.toml
		// takes the MCP server and the hook trust): keep both copies.
		f, err = os.OpenFile(filepath.Join(dir, fmt.Sprintf("%s-%d", name, n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if err != nil {
		return fmt.Errorf("backup %s: %w", file, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup %s: %w", file, err)
	}
	return nil
}

// excludeFromGit adds a pattern to the project's .git/info/exclude once.
func excludeFromGit(dir, pattern string) {
	if st, err := os.Stat(filepath.Join(dir, ".git")); err != nil || !st.IsDir() {
		return
	}
	p := filepath.Join(dir, ".git", "info", "exclude")
	b, _ := os.ReadFile(p)
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == pattern || strings.TrimSpace(line) == "/"+pattern {
			return
		}
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, append(b, []byte("/"+pattern+"\n")...), 0o644)
}

// shimPath is the absolute path of a shim: beside the running ccd binary,
// else on PATH.
func shimPath(name string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is neither beside ccd nor on PATH: build it (just build) or install it", name)
	}
	return filepath.Abs(p)
}
