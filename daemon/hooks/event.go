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

	// Agent is the agent that sent the event (claude, codex, gemini, ...);
	// Hook and AgentTool are its own names for the event and the tool,
	// where Name and Tool are the engine's.
	Agent     string
	Hook      string
	AgentTool string
	// Patch holds the files a patch tool changed (apply_patch).
	Patch []patchFile

	dialect *dialect
}

// ParseEvent decodes a Claude Code hook event. It fails only when the
// payload is not a JSON object or names no event.
func ParseEvent(b []byte) (*Event, error) { return ParseAgentEvent(b, AgentClaude) }

// ParseAgentEvent decodes a hook event of the named agent ("" to tell it
// from the payload) into the engine's terms.
func ParseAgentEvent(b []byte, agent string) (*Event, error) {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("hook event is not a JSON object: %w", err)
	}
	d, err := dialectFor(agent, raw)
	if err != nil {
		return nil, err
	}
	ev := parseClaudeShape(raw)
	ev.Agent, ev.dialect = d.name, d
	ev.Hook, ev.AgentTool = ev.Name, ev.Tool
	if d.lift != nil {
		d.lift(ev, raw)
	}
	if n, ok := d.events[ev.Name]; ok {
		ev.Name = n
	}
	if t, ok := d.tools[ev.Tool]; ok {
		ev.Tool = t
	}
	if ev.Name == "" {
		return nil, fmt.Errorf("hook event has no hook_event_name")
	}
	return ev, nil
}

// parseClaudeShape reads the fields every agent whose payload follows
// Claude Code's uses.
func parseClaudeShape(raw map[string]any) *Event {
	ev := &Event{
		Name:      str(raw, "hook_event_name", "hookEventName"),
		SessionID: str(raw, "session_id", "sessionId"),
		AgentID:   str(raw, "agent_id", "agentId"),
		Cwd:       str(raw, "cwd"),
		Source:    str(raw, "source"),
		Tool:      str(raw, "tool_name", "toolName"),
		Error:     str(raw, "error"),
	}
	if v, ok := get(raw, "stop_hook_active", "stopHookActive").(bool); ok {
		ev.StopHook = v
	}
	if in, ok := get(raw, "tool_input", "toolInput").(map[string]any); ok {
		ev.Input = in
	}
	ev.Response = get(raw, "tool_response", "toolResponse")
	return ev
}

// output is the JSON the hook prints for a card, in the event's dialect.
func (e *Event) output(text string) ([]byte, error) {
	if e.dialect != nil && e.dialect.render != nil {
		return e.dialect.render(e, text)
	}
	return claudeOutput(e.Hook, text)
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

// readByShell turns a shell command that prints a file (sed -n '1,80p' f)
// into the Read it stands for, for agents that read by shell.
func (e *Event) readByShell(cmd string) bool {
	p, from, to, ok := ShellRead(cmd)
	if !ok {
		return false
	}
	e.Tool = "Read"
	e.Input = map[string]any{"file_path": p, "offset": float64(from)}
	if to > 0 {
		e.Input["limit"] = float64(to - from + 1)
	}
	e.Response = nil // the command's output, not a Read's file object
	return true
}

// editedFile is one file an edit event changed, and how to tell which of
// its lines changed once it is written (current is its content now).
type editedFile struct {
	path  string
	lines func(current []byte) lineChanges
}

// editedFiles are the files the edit changed: the patch's, else the one
// file_path names.
func (e *Event) editedFiles() []editedFile {
	if len(e.Patch) == 0 {
		if p := e.FilePath(); p != "" {
			return []editedFile{{p, e.changedLines}}
		}
		return nil
	}
	var out []editedFile
	for _, f := range e.Patch {
		f := f
		p := f.path
		if f.moveTo != "" {
			p = f.moveTo
		}
		out = append(out, editedFile{p, func(current []byte) lineChanges {
			var lc lineChanges
			if current == nil {
				return lc
			}
			for _, pr := range f.pairs {
				if !stringEdit(&lc, string(current), pr[0], pr[1]) {
					return lineChanges{}
				}
			}
			return lc
		}})
		if f.moveTo != "" {
			out = append(out, editedFile{f.path, func([]byte) lineChanges { return lineChanges{} }})
		}
	}
	return out
}
