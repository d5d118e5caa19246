package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
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
	return map[string]any{"command": mcpCmd, "args": []any{}}
}

func runSetup(c *ctx, args []string) error {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.Bool("project", true, "write the project's .claude/settings.json and .mcp.json (the default)")
	user := fs.Bool("user", false, "write the user's settings ($CLAUDE_CONFIG_DIR or ~/.claude/settings.json, and ~/.claude.json)")
	remove := fs.Bool("remove", false, "remove ccd's hooks and MCP server instead")
	dir := fs.String("dir", ".", "project directory (with --project)")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || rest[0] != "claude" {
		return usageError{"usage: ccd setup claude [--project|--user] [--dir DIR] [--remove]"}
	}
	hookCmd, mcpCmd := shimPath("ccd-hook"), shimPath("ccd-mcp")
	var settings, mcpFile string
	var mcpKey []string
	if *user {
		home, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		cfgDir := os.Getenv("CLAUDE_CONFIG_DIR")
		if cfgDir == "" {
			cfgDir = filepath.Join(home, ".claude")
		}
		settings, mcpFile = filepath.Join(cfgDir, "settings.json"), filepath.Join(home, ".claude.json")
	} else {
		abs, err := filepath.Abs(*dir)
		if err != nil {
			return err
		}
		settings, mcpFile = filepath.Join(abs, ".claude", "settings.json"), filepath.Join(abs, ".mcp.json")
	}
	mcpKey = []string{"mcpServers", "ccd"}
	changed, err := editJSON(settings, func(doc map[string]any) {
		mergeHooks(doc, hookCmd, *remove)
	})
	if err != nil {
		return err
	}
	reportSetup(c, settings, changed, *remove, "hooks")
	changed, err = editJSON(mcpFile, func(doc map[string]any) {
		servers, _ := doc[mcpKey[0]].(map[string]any)
		if *remove {
			if servers != nil {
				delete(servers, mcpKey[1])
				if len(servers) == 0 {
					delete(doc, mcpKey[0])
				}
			}
			return
		}
		if servers == nil {
			servers = map[string]any{}
			doc[mcpKey[0]] = servers
		}
		servers[mcpKey[1]] = MCPServer(mcpCmd)
	})
	if err != nil {
		return err
	}
	reportSetup(c, mcpFile, changed, *remove, "MCP server")
	return nil
}

func reportSetup(c *ctx, file string, changed, remove bool, what string) {
	switch {
	case !changed:
		fmt.Fprintf(c.stdout, "%s: ccd %s already %s\n", file, what, map[bool]string{false: "set up", true: "absent"}[remove])
	case remove:
		fmt.Fprintf(c.stdout, "%s: removed ccd %s (backup beside it)\n", file, what)
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
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		if remove {
			return
		}
		hooks = map[string]any{}
		doc["hooks"] = hooks
	}
	ours := HooksConfig(hookCmd)
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

// editJSON applies fn to the JSON object in file (created when missing),
// writes it back when it changed, after copying the old file to
// FILE.bak-TIME. It refuses a file that is not a JSON object.
func editJSON(file string, fn func(doc map[string]any)) (bool, error) {
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
	if old != nil {
		bak := file + ".bak-" + time.Now().UTC().Format("20060102T150405")
		if err := os.WriteFile(bak, old, 0o600); err != nil {
			return false, fmt.Errorf("backup %s: %w", bak, err)
		}
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return false, fmt.Errorf("write %s: %w", file, err)
	}
	return true, os.Rename(tmp, file)
}

// shimPath is the absolute path of a shim beside the running ccd binary,
// or its bare name (found on PATH) when it is not there.
func shimPath(name string) string {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return name
}
