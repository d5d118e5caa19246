package hooks

import (
	"encoding/json"
	"strings"
)

// Factory Droid (checked with 0.225.2): Claude Code's events and payload
// fields, its own tools (Create, Execute, LS, ApplyPatch; Edit with
// old_str/new_str; Glob with patterns[] and folder) and string
// tool_responses (Edit's and Create's hold JSON with success). PostToolUse
// and SessionStart additionalContext reach the model; PreToolUse's is
// dropped (search cards come after the search); Stop continues the agent
// with {"decision":"block","reason":R}. Payloads look like Claude Code's,
// so the shim names the agent (ccd-hook --agent droid).
func init() {
	dialects[AgentDroid] = &dialect{
		name: AgentDroid,
		tools: map[string]string{
			"Create":     "Write",
			"Execute":    "Bash",
			"ApplyPatch": "Edit",
		},
		shellReads:  true,
		searchAfter: true,
		lift:        liftDroid,
		render:      renderBlockingStop,
	}
}

func liftDroid(ev *Event, raw map[string]any) {
	in := ev.Input
	if in == nil {
		return
	}
	switch ev.Tool {
	case "Edit":
		renameKey(in, "old_str", "old_string")
		renameKey(in, "new_str", "new_string")
	case "Glob":
		if ps, ok := in["patterns"].([]any); ok && len(ps) > 0 && in["pattern"] == nil {
			in["pattern"] = ps[0]
		}
	case "Execute":
		ev.readByShell(ev.InputStr("command"))
	case "ApplyPatch":
		liftPatch(ev)
	}
	// Edit's and Create's responses are JSON in a string.
	if s, ok := ev.Response.(string); ok && strings.HasPrefix(strings.TrimSpace(s), "{") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			ev.Response = m
		}
	}
}

// liftPatch finds the patch text among the tool's string inputs and names
// its first file as the edit's file_path.
func liftPatch(ev *Event) {
	for _, v := range ev.Input {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if files := parsePatch(s); len(files) > 0 {
			ev.Patch = files
			if ev.InputStr("file_path") == "" {
				ev.Input["file_path"] = files[0].path
			}
			return
		}
	}
}

// renameKey moves m[from] to m[to] unless to is set.
func renameKey(m map[string]any, from, to string) {
	if v, ok := m[from]; ok && m[to] == nil {
		m[to] = v
	}
}

// renderBlockingStop answers a Stop by asking the agent to go on with the
// reminder as its next message (the agent fires Stop again with
// stop_hook_active, when ccd says nothing); other cards are additional
// context.
func renderBlockingStop(ev *Event, text string) ([]byte, error) {
	if ev.Name == "Stop" {
		return json.Marshal(map[string]any{"decision": "block", "reason": text})
	}
	return claudeOutput(ev.Hook, text)
}
