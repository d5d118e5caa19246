package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/ccd-dev/ccd/daemon/hooks"
)

// Codex CLI (checked with 0.169.0) reads hooks from .codex/hooks.json
// (project) or $CODEX_HOME/hooks.json (user) in Claude Code's shape, and
// MCP servers from [mcp_servers.NAME] tables of .codex/config.toml or
// $CODEX_HOME/config.toml. It runs a hook only once the user trusted it:
// a [hooks.state."FILE:EVENT:GROUP:HANDLER"] table in $CODEX_HOME/config.toml
// whose trusted_hash is the sha256 of the hook's definition. `ccd setup
// codex` is that consent for ccd's own hooks, so it writes those tables
// too (a hook whose command changes is untrusted again). A project's
// .codex/ is read only once the project is trusted (codex asks, or
// `codex exec --trust`).
func init() {
	agentSetups[hooks.AgentCodex] = &agentSetup{
		title: "Codex CLI",
		// Codex has no read or search tools: reads and searches are shell
		// commands (Bash), edits and new files apply_patch. PreCompact
		// cannot add context; SessionStart fires again with
		// source=compact after a compaction.
		hooks: []agentHook{
			{"SessionStart", "", 10},
			{"PreToolUse", "Bash|apply_patch", 5},
			{"PostToolUse", "Bash|apply_patch", 10},
			{"PreCompact", "", 10},
			{"Stop", "", 5},
		},
		hookEntry: claudeStyleEntry,
		files: func(user bool, dir string) (string, string, error) {
			d := filepath.Join(dir, ".codex")
			if user {
				var err error
				if d, err = agentDir("CODEX_HOME", "", ".codex"); err != nil {
					return "", "", err
				}
			}
			return filepath.Join(d, "hooks.json"), filepath.Join(d, "config.toml"), nil
		},
		editMCP: editCodexServer,
		trust:   trustCodexHooks,
		note:    "Codex reads a project's .codex/ only in a trusted project (it asks on first start; `codex exec --trust` for headless runs).",
	}
}

// codexForwardedEnv are the variables ccd-mcp must see to reach the
// daemon the hooks reach (and to start it as they would): Codex starts
// MCP servers with a few variables only (PATH, HOME, USER, LANG, ...), so
// without XDG_RUNTIME_DIR ccd-mcp would look for another socket and start
// a second daemon. env_vars forwards those that are set.
var codexForwardedEnv = []string{"CCD_HOME", "CCD_SOCKET", "XDG_RUNTIME_DIR", "CCD_EXE",
	"CCD_LSP", "CCD_LSP_PATH", "CCD_LSP_SERVERS", "CCD_IDLE_TIMEOUT", "CCD_MAX_WORKSPACES"}

// editCodexServer adds (or removes) [mcp_servers.ccd] in a config.toml.
func editCodexServer(file, cmd string, remove bool) (bool, error) {
	ours := func(h string) bool { return h == "mcp_servers.ccd" || strings.HasPrefix(h, "mcp_servers.ccd.") }
	conflict := func(section, line string) bool {
		key := strings.TrimSpace(strings.SplitN(line, "=", 2)[0])
		switch section {
		case "":
			return strings.HasPrefix(key, "mcp_servers.ccd") || (key == "mcp_servers" && strings.Contains(line, "ccd"))
		case "mcp_servers":
			return key == "ccd" || strings.HasPrefix(key, "ccd.")
		}
		return false
	}
	var add []tomlTable
	if !remove {
		var names []string
		for _, n := range codexForwardedEnv {
			names = append(names, tomlString(n))
		}
		add = []tomlTable{{"mcp_servers.ccd", []string{"command = " + tomlString(cmd), "args = []",
			"env_vars = [" + strings.Join(names, ", ") + "]"}}}
	}
	return editTOMLTables(file, ours, conflict, add, remove && !strings.HasPrefix(file, codexHome()))
}

// codexHome is $CODEX_HOME, else ~/.codex ("" when neither is known).
func codexHome() string {
	d, err := agentDir("CODEX_HOME", "", ".codex")
	if err != nil {
		return "\x00"
	}
	return d
}

// trustCodexHooks writes the [hooks.state] tables that make Codex run
// ccd's hooks in hooksFile (or, with remove, drops them) in the user's
// config.toml, and returns that file.
func trustCodexHooks(a *agentSetup, hooksFile, cmd string, remove bool) (string, bool, error) {
	home, err := agentDir("CODEX_HOME", "", ".codex")
	if err != nil {
		return "", false, err
	}
	config := filepath.Join(home, "config.toml")
	// Our hooks' hashes, whatever their place in the file: a table of
	// this file holding one of them is ours.
	hashes := map[string]bool{}
	for _, h := range a.hooks {
		hashes[codexHookHash(h, cmd)] = true
	}
	prefix := `hooks.state."` + tomlKeyText(hooksFile) + `:`
	old, _ := os.ReadFile(config)
	mine := ourTrustTables(old, prefix, hashes)
	var add []tomlTable
	if !remove {
		b, err := os.ReadFile(hooksFile)
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", hooksFile, err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return "", false, fmt.Errorf("%s: %w", hooksFile, err)
		}
		evs, _ := doc["hooks"].(map[string]any)
		for _, h := range a.hooks {
			groups, _ := evs[h.event].([]any)
			for gi, g := range groups {
				if !isOurs(g) {
					continue
				}
				key := hooksFile + ":" + snakeCase(h.event) + ":" + fmt.Sprint(gi) + ":0"
				add = append(add, tomlTable{`hooks.state.` + tomlString(key), []string{"trusted_hash = " + tomlString(codexHookHash(h, cmd))}})
			}
		}
	}
	changed, err := editTOMLTables(config, func(h string) bool { return mine[h] }, nil, add, false)
	return config, changed, err
}

// ourTrustTables finds the [hooks.state."FILE:..."] tables of a
// config.toml whose trusted_hash is one of ours.
func ourTrustTables(config []byte, prefix string, hashes map[string]bool) map[string]bool {
	mine := map[string]bool{}
	header := ""
	for _, line := range bytes.Split(config, []byte("\n")) {
		if h, ok := tomlHeader(string(line)); ok {
			header = h
			continue
		}
		if !strings.HasPrefix(header, prefix) {
			continue
		}
		k, v, ok := strings.Cut(string(line), "=")
		if ok && strings.TrimSpace(k) == "trusted_hash" && hashes[strings.Trim(strings.TrimSpace(v), `"'`)] {
			mine[header] = true
		}
	}
	return mine
}

// tomlKeyText is s as it appears inside a quoted TOML key.
func tomlKeyText(s string) string {
	q := tomlString(s)
	return q[1 : len(q)-1]
}

// codexHookHash is Codex's fingerprint of one command hook: "sha256:" and
// the hex sha256 of the compact JSON, keys sorted, of {event_name (snake
// case), matcher (absent when none, and for Stop, UserPromptSubmit and
// Interrupt, whose matcher Codex ignores), hooks: [{type, command,
// timeout, async}]}.
func codexHookHash(h agentHook, cmd string) string {
	ev := snakeCase(h.event)
	id := map[string]any{
		"event_name": ev,
		"hooks":      []any{map[string]any{"type": "command", "command": cmd, "timeout": h.timeout, "async": false}},
	}
	switch ev {
	case "stop", "user_prompt_submit", "interrupt":
	default:
		if h.matcher != "" {
			id["matcher"] = h.matcher
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(id)
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snakeCase turns PreToolUse into pre_tool_use.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
