package hooks

// Codex CLI (checked with 0.169.0): Claude Code's events and payload
// fields, but no read, search or write tools: the model reads and
// searches with shell commands (tool_name Bash, tool_input.command) and
// edits and creates files with apply_patch (the patch text in
// tool_input.command, paths relative to cwd). hookSpecificOutput
// additionalContext of SessionStart, PreToolUse and PostToolUse reaches
// the model as a developer message; Stop continues the agent with
// {"decision":"block","reason":R} (a <hook_prompt> user message). Payloads
// look like Claude Code's, so the shim names the agent (ccd-hook --agent
// codex).
func init() {
	dialects[AgentCodex] = &dialect{
		name:       AgentCodex,
		tools:      map[string]string{"apply_patch": "Edit"},
		shellReads: true,
		lift:       liftCodex,
		render:     renderBlockingStop,
	}
}

func liftCodex(ev *Event, raw map[string]any) {
	switch ev.Tool {
	case "Bash":
		ev.readByShell(ev.InputStr("command"))
	case "apply_patch":
		liftPatch(ev)
	}
}
