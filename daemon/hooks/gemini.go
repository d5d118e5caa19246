package hooks

import "fmt"

// Gemini CLI (checked with 0.61.0): events BeforeTool/AfterTool around a
// tool, AfterAgent when the agent is done, SessionStart; tool names
// read_file, replace, write_file, grep_search, glob, run_shell_command.
// hookSpecificOutput.additionalContext of AfterTool is appended to the
// tool's result (inside <hook_context>), of SessionStart put before the
// prompt; BeforeTool's is dropped, so search cards come after the search.
// AfterAgent continues the agent with {"decision":"block","reason":R},
// R as the next user message, and fires again with stop_hook_active.
// PreCompress fires before every model turn, compaction or not, so it is
// not a compaction signal.
func init() {
	dialects[AgentGemini] = &dialect{
		name:   AgentGemini,
		detect: true,
		events: map[string]string{
			"BeforeTool": "PreToolUse",
			"AfterTool":  "PostToolUse",
			"AfterAgent": "Stop",
		},
		tools: map[string]string{
			"read_file":           "Read",
			"replace":             "Edit",
			"write_file":          "Write",
			"grep_search":         "Grep",
			"search_file_content": "Grep",
			"glob":                "Glob",
			"run_shell_command":   "Bash",
		},
		shellReads:  true,
		searchAfter: true,
		lift:        liftGemini,
		render:      renderBlockingStop,
	}
}

func liftGemini(ev *Event, raw map[string]any) {
	in := ev.Input
	switch ev.Tool {
	case "read_file":
		if in == nil {
			return
		}
		// start_line/end_line (1-based, inclusive) are Read's offset/limit.
		if from := num(in, "start_line"); from > 0 {
			in["offset"] = float64(from)
			if to := num(in, "end_line"); to >= from {
				in["limit"] = float64(to - from + 1)
			}
		}
	case "run_shell_command":
		if ev.readByShell(ev.InputStr("command")) {
			return
		}
	}
	r, ok := ev.Response.(map[string]any)
	if !ok {
		return
	}
	if e := r["error"]; e != nil {
		// {message, type} or a string.
		if m, ok := e.(map[string]any); ok {
			ev.Error = fmt.Sprint(m["message"])
		} else {
			ev.Error = fmt.Sprint(e)
		}
	}
	// replace and write_file describe the file before and after.
	if d, ok := r["returnDisplay"].(map[string]any); ok {
		if orig, ok := d["originalContent"].(string); ok {
			ev.Response = map[string]any{"originalFile": orig, "filePath": d["filePath"]}
		} else if b, _ := d["isNewFile"].(bool); b {
			ev.Response = map[string]any{"originalFile": "", "filePath": d["filePath"]}
		}
	}
}
