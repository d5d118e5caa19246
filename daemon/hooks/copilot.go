package hooks

import (
	"encoding/json"
	"fmt"
)

// GitHub Copilot CLI (checked with 1.0.102), hooked with Claude Code's
// event names (the casing picks the payload: PascalCase events get
// hook_event_name, tool_name and tool_input, with Claude Code's tool
// names) but Copilot's own tool arguments (path, old_str/new_str,
// file_text, view_range, paths) and tool_result {result_type,
// text_result_for_llm} instead of tool_response. Only a top-level
// additionalContext reaches the model (hookSpecificOutput's is ignored
// but for PreToolUse); Stop continues the agent with
// {"decision":"block","reason":R}.
func init() {
	dialects[AgentCopilot] = &dialect{
		name: AgentCopilot,
		// Its native events (camelCase), for hooks written in its own
		// format.
		events: map[string]string{
			"sessionStart":       "SessionStart",
			"preToolUse":         "PreToolUse",
			"postToolUse":        "PostToolUse",
			"postToolUseFailure": "PostToolUseFailure",
			"agentStop":          "Stop",
			"subagentStop":       "SubagentStop",
			"preCompact":         "PreCompact",
		},
		tools: map[string]string{
			"view": "Read", "edit": "Edit", "create": "Write",
			"grep": "Grep", "glob": "Glob", "bash": "Bash",
		},
		shellReads: true,
		lift:       liftCopilot,
		render:     renderCopilot,
	}
}

func liftCopilot(ev *Event, raw map[string]any) {
	if ev.Input == nil {
		if args, ok := raw["toolArgs"].(map[string]any); ok {
			ev.Input = args
		}
	}
	res, _ := get(raw, "tool_result", "toolResult").(map[string]any)
	if res != nil {
		if t := str(res, "result_type", "resultType"); t != "" && t != "success" {
			ev.Error = t + ": " + str(res, "text_result_for_llm", "textResultForLlm")
		}
	}
	in := ev.Input
	if in == nil {
		return
	}
	renameKey(in, "path", "file_path")
	renameKey(in, "old_str", "old_string")
	renameKey(in, "new_str", "new_string")
	renameKey(in, "file_text", "content")
	switch ev.Tool {
	case "Read", "view":
		// view_range [from, to], to -1 for the end of the file.
		if r, ok := in["view_range"].([]any); ok && len(r) == 2 {
			from, _ := r[0].(float64)
			to, _ := r[1].(float64)
			if from >= 1 {
				in["offset"] = from
				if to >= from {
					in["limit"] = to - from + 1
				}
			}
		}
	case "Grep", "Glob", "grep", "glob":
		// paths is a string or a list.
		switch p := in["paths"].(type) {
		case string:
			renameKey(in, "paths", "path")
		case []any:
			if len(p) == 1 && in["path"] == nil {
				in["path"] = fmt.Sprint(p[0])
			}
		}
	case "Bash", "bash":
		ev.readByShell(ev.InputStr("command"))
	}
}

func renderCopilot(ev *Event, text string) ([]byte, error) {
	if ev.Name == "Stop" || ev.Name == "SubagentStop" {
		return json.Marshal(map[string]any{"decision": "block", "reason": text})
	}
	return json.Marshal(map[string]any{"additionalContext": text})
}
