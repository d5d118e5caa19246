package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/daemon/hooks"
)

// agentHook is one event an agent runs ccd-hook for: its name in the
// agent's settings, the tool matcher ("" for none) and the timeout in
// seconds.
type agentHook struct {
	event, matcher string
	timeout        int
}

// agentSetup is where an agent other than Claude Code keeps its hooks and
// MCP servers, and how its entries look.
type agentSetup struct {
	title string
	hooks []agentHook
	// hookEntry is one event's entry, running cmd.
	hookEntry func(h agentHook, cmd string) map[string]any
	// files are the hooks file and the MCP file of a scope (dir is the
	// project); they may be one file.
	files func(user bool, dir string) (hooksFile, mcpFile string, err error)
	// mcpEntry is the "ccd" server entry running cmd.
	mcpEntry func(cmd string) map[string]any
	// fixed are top-level keys the hooks file must hold (Copilot's
	// "version": 1).
	fixed map[string]any
	// editMCP edits the MCP file itself when it is not JSON (Codex's
	// config.toml); nil for JSON files with an mcpServers map.
	editMCP func(file, cmd string, remove bool) (bool, error)
	// trust records, after the hooks file is written, that the user
	// trusts ccd's hooks in it (Codex runs no hook otherwise); it returns
	// the file it edited.
	trust func(a *agentSetup, hooksFile, cmd string, remove bool) (string, bool, error)
	// note is printed after a project setup.
	note string
}

// claudeStyleEntry is a hook entry in Claude Code's shape: a matcher and
// a list of command hooks, the timeout in seconds (Droid, Copilot, Codex).
func claudeStyleEntry(h agentHook, cmd string) map[string]any {
	e := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": h.timeout}}}
	if h.matcher != "" {
		e["matcher"] = h.matcher
	}
	return e
}

// agentDir is an agent's directory in the user's home: $dirEnv when it is
// set (the directory itself), else sub in $homeEnv (a home the agent
// uses instead of the user's), else sub in the home directory.
func agentDir(dirEnv, homeEnv, sub string) (string, error) {
	if d := os.Getenv(dirEnv); dirEnv != "" && d != "" {
		return filepath.Abs(d)
	}
	if h := os.Getenv(homeEnv); homeEnv != "" && h != "" {
		h, err := filepath.Abs(h)
		return filepath.Join(h, sub), err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, sub), nil
}

var agentSetups = map[string]*agentSetup{
	hooks.AgentGemini: {
		title: "Gemini CLI",
		// BeforeTool only prepares an edit (Gemini drops its context);
		// AfterTool carries the read, edit and search cards; AfterAgent
		// the stop reminder. PreCompress is left out: Gemini fires it
		// before every model turn. Gemini's timeouts are milliseconds.
		hooks: []agentHook{
			{"SessionStart", "", 10},
			{"BeforeTool", "read_file|replace|write_file", 5},
			{"AfterTool", "read_file|replace|write_file|grep_search|search_file_content|glob|run_shell_command", 10},
			{"AfterAgent", "", 5},
		},
		hookEntry: func(h agentHook, cmd string) map[string]any {
			e := map[string]any{"hooks": []any{map[string]any{"type": "command", "name": "ccd", "command": cmd, "timeout": h.timeout * 1000}}}
			if h.matcher != "" {
				e["matcher"] = h.matcher
			}
			return e
		},
		files: func(user bool, dir string) (string, string, error) {
			if !user {
				f := filepath.Join(dir, ".gemini", "settings.json")
				return f, f, nil
			}
			d, err := agentDir("", "GEMINI_CLI_HOME", ".gemini")
			f := filepath.Join(d, "settings.json")
			return f, f, err
		},
		mcpEntry: func(cmd string) map[string]any { return map[string]any{"command": cmd, "args": []any{}} },
		note:     "Gemini CLI runs a project's hooks and MCP servers only in a trusted folder (it asks on first start; headless runs need GEMINI_CLI_TRUST_WORKSPACE=true or trustedFolders.json).",
	},
	hooks.AgentDroid: {
		title: "Factory Droid",
		hooks: []agentHook{
			{"SessionStart", "", 10},
			{"PreToolUse", "Read|Edit|Create|ApplyPatch", 5},
			{"PostToolUse", "Read|Edit|Create|ApplyPatch|Execute|Grep|Glob", 10},
			{"PreCompact", "", 10},
			{"Stop", "", 5},
		},
		hookEntry: claudeStyleEntry,
		files: func(user bool, dir string) (string, string, error) {
			d := filepath.Join(dir, ".factory")
			if user {
				var err error
				if d, err = agentDir("", "FACTORY_HOME_OVERRIDE", ".factory"); err != nil {
					return "", "", err
				}
			}
			return filepath.Join(d, "settings.json"), filepath.Join(d, "mcp.json"), nil
		},
		mcpEntry: func(cmd string) map[string]any {
			return map[string]any{"type": "stdio", "command": cmd, "args": []any{}}
		},
	},
	hooks.AgentCopilot: {
		title: "GitHub Copilot CLI",
		// Claude Code's event names: Copilot then sends hook_event_name
		// and Claude Code's tool names. PreCompact takes no matcher.
		hooks: []agentHook{
			{"SessionStart", "", 10},
			{"PreToolUse", "Read|Edit|Write|Grep|Glob|Bash", 5},
			{"PostToolUse", "Read|Edit|Write|Grep|Glob|Bash", 10},
			{"PreCompact", "", 10},
			{"Stop", "", 5},
		},
		hookEntry: claudeStyleEntry,
		fixed:     map[string]any{"version": 1},
		files: func(user bool, dir string) (string, string, error) {
			if !user {
				return filepath.Join(dir, ".github", "hooks", "ccd.json"), filepath.Join(dir, ".github", "mcp.json"), nil
			}
			d, err := agentDir("COPILOT_HOME", "", ".copilot")
			return filepath.Join(d, "hooks", "ccd.json"), filepath.Join(d, "mcp-config.json"), err
		},
		mcpEntry: func(cmd string) map[string]any {
			return map[string]any{"type": "local", "command": cmd, "args": []any{}, "tools": []any{"*"}}
		},
		note: "Copilot CLI loads a project's hooks and MCP servers only in a trusted folder (it asks on first start; -p runs need --trust-folder).",
	},
}

// agentHooksConfig is the "hooks" object of an agent's settings that
// runs cmd for every event ccd handles.
func (a *agentSetup) hooksConfig(cmd string) map[string]any {
	out := map[string]any{}
	for _, h := range a.hooks {
		out[h.event] = []any{a.hookEntry(h, cmd)}
	}
	return out
}

// runAgentSetup is `ccd setup AGENT` for an agent other than Claude Code.
func runAgentSetup(c *ctx, name string, args []string) error {
	a := agentSetups[name]
	fs := flag.NewFlagSet("setup "+name, flag.ContinueOnError)
	project := fs.Bool("project", false, "the project's own files, running ccd-hook and ccd-mcp from PATH (the default)")
	user := fs.Bool("user", false, "the agent's user settings: every project")
	remove := fs.Bool("remove", false, "remove ccd's hooks and MCP server instead")
	dir := fs.String("dir", ".", "project directory (project scope)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if *project && *user {
		return usageError{"pick one of --project and --user"}
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	hooksFile, mcpFile, err := a.files(*user, abs)
	if err != nil {
		return err
	}
	hookCmd, mcpCmd := "ccd-hook", "ccd-mcp"
	machine := false
	if !*remove && (*user || len(notOnPath("ccd-hook", "ccd-mcp")) > 0) {
		// The user's own settings name this machine's binaries; so do a
		// project's when the shims are not on PATH (said below).
		if hookCmd, err = shimPath("ccd-hook"); err != nil {
			return err
		}
		if mcpCmd, err = shimPath("ccd-mcp"); err != nil {
			return err
		}
		machine = !*user
	}
	hookCmd += " --agent " + name
	if !*user {
		for _, g := range []string{filepath.Dir(hooksFile), hooksFile, filepath.Dir(mcpFile), mcpFile} {
			if st, err := os.Lstat(g); err == nil && st.Mode()&os.ModeSymlink != 0 {
				return fmt.Errorf("%s is a symbolic link: setup does not write through links in a project (a checkout could point one at your own settings); replace it with a real file or directory and run setup again", g)
			}
		}
	}
	changed, err := editJSON(hooksFile, *remove && !*user, func(doc map[string]any) {
		mergeAgentHooks(doc, a, hookCmd, *remove)
		if hooksFile == mcpFile && a.editMCP == nil {
			mergeServer(doc, []string{"mcpServers"}, mcpCmd, a.mcpEntry, *remove)
		}
	})
	if err != nil {
		return err
	}
	what := "hooks"
	if hooksFile == mcpFile {
		what = "hooks and MCP server"
	}
	reportSetup(c, hooksFile, changed, *remove, what)
	if a.trust != nil {
		file, changed, err := a.trust(a, hooksFile, hookCmd, *remove)
		if err != nil {
			return err
		}
		reportSetup(c, file, changed, *remove, "hook trust")
	}
	if hooksFile != mcpFile {
		if a.editMCP != nil {
			changed, err = a.editMCP(mcpFile, mcpCmd, *remove)
		} else {
			changed, err = editJSON(mcpFile, *remove && !*user, func(doc map[string]any) {
				mergeServer(doc, []string{"mcpServers"}, mcpCmd, a.mcpEntry, *remove)
			})
		}
		if err != nil {
			return err
		}
		reportSetup(c, mcpFile, changed, *remove, "MCP server")
	}
	if *remove {
		if !*user {
			// Leave no directory setup made and emptied.
			os.Remove(filepath.Dir(hooksFile))
			os.Remove(filepath.Dir(mcpFile))
		}
		return nil
	}
	if machine {
		fmt.Fprintf(c.stdout, "ccd-hook and ccd-mcp are not on PATH, so these files name this machine's binaries (%s): "+
			"put them on PATH (just install) and run `ccd setup %s` again before you commit them.\n", filepath.Dir(hookCmd), name)
	}
	if !*user && a.note != "" {
		fmt.Fprintln(c.stdout, a.note)
	}
	return nil
}

// mergeAgentHooks replaces ccd's entries in doc["hooks"] with the agent's
// (keeping every other hook) or, with remove, drops them.
func mergeAgentHooks(doc map[string]any, a *agentSetup, cmd string, remove bool) {
	mergeHookMap(doc, a.hooksConfig(cmd), remove)
	if len(a.fixed) == 0 {
		return
	}
	if _, ok := doc["hooks"]; ok {
		for k, v := range a.fixed {
			if _, set := doc[k]; !set {
				doc[k] = v
			}
		}
		return
	}
	// Nothing of ours is left: drop what only we needed, when the file
	// holds nothing else.
	only := len(doc) == len(a.fixed)
	for k := range a.fixed {
		if _, ok := doc[k]; !ok {
			only = false
		}
	}
	if only {
		for k := range a.fixed {
			delete(doc, k)
		}
	}
}

// setupAgents names the agents `ccd setup` takes.
func setupAgents() string {
	names := []string{hooks.AgentClaude}
	for _, n := range hooks.Agents() {
		if agentSetups[n] != nil {
			names = append(names, n)
		}
	}
	return strings.Join(names, "|")
}
