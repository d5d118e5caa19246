package hooks

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Event is one Claude Code hook event, normalised: snake_case and camelCase
// spellings are both accepted, unknown fields are ignored, and the fields
// the engine needs are lifted out of tool_input and tool_response.
type Event struct {
	Name      string // hook_event_name: SessionStart, PreToolUse, ...
	SessionID string
	AgentID   string // set inside a subagent
	Cwd       string
	Source    string // SessionStart: startup, resume, clear, compact
	Tool      string // tool_name
	StopHook  bool   // stop_hook_active
	Error     string // PostToolUseFailure

	Input    map[string]any // tool_input
	Response any            // tool_response (object or string)

	// ProjectDir and ConfigDir come from the hook process's environment
	// (CLAUDE_PROJECT_DIR, CLAUDE_CONFIG_DIR), forwarded by the shim.
	ProjectDir string
	ConfigDir  string
}

// ParseEvent decodes a hook event. It fails only when the payload is not a
// JSON object or names no event.
func ParseEvent(b []byte) (*Event, error) {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("hook event is not a JSON object: %w", err)
	}
	ev := &Event{
		Name:      str(raw, "hook_event_name", "hookEventName"),
		SessionID: str(raw, "session_id", "sessionId"),
		AgentID:   str(raw, "agent_id", "agentId"),
		Cwd:       str(raw, "cwd"),
		Source:    str(raw, "source"),
		Tool:      str(raw, "tool_name", "toolName"),
		Error:     str(raw, "error"),
	}
	if ev.Name == "" {
		return nil, fmt.Errorf("hook event has no hook_event_name")
	}
	if v, ok := get(raw, "stop_hook_active", "stopHookActive").(bool); ok {
		ev.StopHook = v
	}
	if in, ok := get(raw, "tool_input", "toolInput").(map[string]any); ok {
		ev.Input = in
	}
	ev.Response = get(raw, "tool_response", "toolResponse")
	return ev, nil
}

// get returns the first present key's value.
func get(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

// str returns the first present key's value when it is a string.
func str(m map[string]any, keys ...string) string {
	s, _ := get(m, keys...).(string)
	return s
}

// num returns the first present key's value when it is a number.
func num(m map[string]any, keys ...string) int {
	switch v := get(m, keys...).(type) {
	case float64:
		return int(v)
	case string:
		var n int
		fmt.Sscan(v, &n)
		return n
	}
	return 0
}

// InputStr reads a tool_input field in either spelling.
func (e *Event) InputStr(keys ...string) string {
	if e.Input == nil {
		return ""
	}
	return str(e.Input, keys...)
}

// FilePath is the file the tool worked on: tool_input.file_path (or
// notebook_path), else tool_response.filePath / file.filePath.
func (e *Event) FilePath() string {
	if p := e.InputStr("file_path", "filePath", "notebook_path", "notebookPath"); p != "" {
		return p
	}
	if r, ok := e.Response.(map[string]any); ok {
		if p := str(r, "filePath", "file_path"); p != "" {
			return p
		}
		if f, ok := r["file"].(map[string]any); ok {
			return str(f, "filePath", "file_path")
		}
	}
	return ""
}

// PathField is a directory or file a search tool was pointed at.
func (e *Event) PathField() string {
	return e.InputStr("path", "folder", "directory_path", "directoryPath", "dir")
}

// ReadRange is the line range a Read covered: from the response's
// startLine/numLines when present, else tool_input offset/limit. to is 0
// when the whole file (or its unknown remainder) was read.
func (e *Event) ReadRange() (from, to int) {
	if r, ok := e.Response.(map[string]any); ok {
		if f, ok := r["file"].(map[string]any); ok {
			start, n, total := num(f, "startLine", "start_line"), num(f, "numLines", "num_lines"), num(f, "totalLines", "total_lines")
			if start > 0 && n > 0 {
				if start == 1 && total > 0 && n >= total {
					return 1, 0
				}
				return start, start + n - 1
			}
		}
	}
	if e.Input == nil {
		return 1, 0
	}
	off, lim := num(e.Input, "offset"), num(e.Input, "limit")
	if off < 1 {
		off = 1
	}
	if lim <= 0 {
		if off == 1 {
			return 1, 0
		}
		return off, off + 2000 - 1 // Claude Code reads 2000 lines by default
	}
	return off, off + lim - 1
}

// Failed reports whether a PostToolUse response says the tool failed.
func (e *Event) Failed() bool {
	if e.Error != "" {
		return true
	}
	switch r := e.Response.(type) {
	case map[string]any:
		if v, ok := r["success"].(bool); ok && !v {
			return true
		}
		if v, ok := r["is_error"].(bool); ok && v {
			return true
		}
	case string:
		return strings.HasPrefix(r, "Error") || strings.Contains(r, "EISDIR")
	}
	return false
}

// key identifies the conversation an event belongs to: a subagent has its
// own throttle state.
func (e *Event) key() string {
	if e.AgentID != "" {
		return e.SessionID + "/" + e.AgentID
	}
	return e.SessionID
}
