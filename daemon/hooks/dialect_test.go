package hooks

import (
	"encoding/json"
	"testing"
)

// Payloads as each agent sends them (shapes captured from the real CLIs;
// see the adapters' doc comments for the versions), read into the
// engine's terms.
func TestAgentEvents(t *testing.T) {
	for _, c := range []struct {
		name, agent, payload string
		event, tool, file    string
		from, to             int
		oldNew               [2]string
		failed               bool
	}{
		{name: "gemini read", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"/p/a.py","start_line":10,"end_line":30},"tool_response":{"llmContent":"x","returnDisplay":""}}`,
			agent: "", event: "PostToolUse", tool: "Read", file: "/p/a.py", from: 10, to: 30},
		{name: "gemini replace", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"/p/a.py","old_string":"def f(a):","new_string":"def f(a, b):","instruction":"i"},"tool_response":{"llmContent":"ok","returnDisplay":{"fileName":"a.py","filePath":"/p/a.py","originalContent":"def f(a):\n","newContent":"def f(a, b):\n","isNewFile":false}}}`,
			agent: "gemini", event: "PostToolUse", tool: "Edit", file: "/p/a.py", from: 1, oldNew: [2]string{"def f(a):", "def f(a, b):"}},
		{name: "gemini failed tool", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{"file_path":"/p/nope.py"},"tool_response":{"llmContent":"","returnDisplay":"","error":{"message":"File not found","type":"file_not_found"}}}`,
			event: "PostToolUse", tool: "Read", file: "/p/nope.py", from: 1, failed: true},
		{name: "gemini shell read", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"sed -n '5,9p' a.py","description":"d"},"tool_response":{"llmContent":"x","returnDisplay":"x"}}`,
			event: "PostToolUse", tool: "Read", file: "a.py", from: 5, to: 9},
		{name: "gemini stop", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"AfterAgent","prompt":"p","prompt_response":"r","stop_hook_active":false}`,
			event: "Stop", from: 1},
		{name: "droid edit", agent: "droid", payload: `{"session_id":"s","cwd":"/p","permission_mode":"auto-high","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.py","old_str":"def f(a):","new_str":"def f(a, b):"},"tool_response":"{\"success\":true,\"file_path\":\"/p/a.py\"}"}`,
			event: "PostToolUse", tool: "Edit", file: "/p/a.py", from: 1, oldNew: [2]string{"def f(a):", "def f(a, b):"}},
		{name: "droid failed edit", agent: "droid", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.py","old_str":"x","new_str":"y"},"tool_response":"{\"success\":false,\"file_path\":\"/p/a.py\"}"}`,
			event: "PostToolUse", tool: "Edit", file: "/p/a.py", from: 1, oldNew: [2]string{"x", "y"}, failed: true},
		{name: "droid create", agent: "droid", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Create","tool_input":{"file_path":"/p/n.py","content":"x"},"tool_response":"{\"success\":true,\"file_path\":\"/p/n.py\"}"}`,
			event: "PostToolUse", tool: "Write", file: "/p/n.py", from: 1},
		{name: "droid shell read", agent: "droid", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Execute","tool_input":{"summary":"s","command":"cat -n a.py | sed -n '3,4p'","riskLevel":"low"},"tool_response":"x\n\n[Process exited with code 0]"}`,
			event: "PostToolUse", tool: "Read", file: "a.py", from: 3, to: 4},
		{name: "copilot read", agent: "copilot", payload: `{"hook_event_name":"PostToolUse","session_id":"s","timestamp":"t","cwd":"/p","tool_name":"Read","tool_input":{"path":"/p/a.py","view_range":[20,40]},"tool_result":{"result_type":"success","text_result_for_llm":"x"}}`,
			event: "PostToolUse", tool: "Read", file: "/p/a.py", from: 20, to: 40},
		{name: "copilot read to the end", agent: "copilot", payload: `{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Read","tool_input":{"path":"/p/a.py","view_range":[20,-1]},"tool_result":{"result_type":"success","text_result_for_llm":"x"}}`,
			event: "PostToolUse", tool: "Read", file: "/p/a.py", from: 20, to: 2019},
		{name: "copilot edit", agent: "copilot", payload: `{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Edit","tool_input":{"path":"/p/a.py","old_str":"def f(a):","new_str":"def f(a, b):"},"tool_result":{"result_type":"success","text_result_for_llm":"File /p/a.py updated with changes."}}`,
			event: "PostToolUse", tool: "Edit", file: "/p/a.py", from: 1, oldNew: [2]string{"def f(a):", "def f(a, b):"}},
		{name: "copilot failed edit", agent: "copilot", payload: `{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/p","tool_name":"Edit","tool_input":{"path":"/p/a.py","old_str":"x","new_str":"y"},"tool_result":{"result_type":"failure","text_result_for_llm":"no match"}}`,
			event: "PostToolUse", tool: "Edit", file: "/p/a.py", from: 1, oldNew: [2]string{"x", "y"}, failed: true},
		{name: "copilot native names", agent: "copilot", payload: `{"hook_event_name":"postToolUse","sessionId":"s","cwd":"/p","toolName":"view","toolArgs":{"path":"/p/a.py"},"toolResult":{"resultType":"success","textResultForLlm":"x"}}`,
			event: "PostToolUse", tool: "Read", file: "/p/a.py", from: 1},
		{name: "codex shell read", agent: "codex", payload: `{"session_id":"s","turn_id":"t","cwd":"/p","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"nl -ba app/records.py | sed -n '9,14p'"},"tool_use_id":"call_1","tool_response":"9 def process_data"}`,
			event: "PostToolUse", tool: "Read", file: "app/records.py", from: 9, to: 14},
		{name: "codex shell search", agent: "codex", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rg -n process_data ."},"tool_use_id":"call_1"}`,
			event: "PreToolUse", tool: "Bash", from: 1},
		{name: "codex apply_patch", agent: "codex", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: app/records.py\n@@\n-def f(a):\n+def f(a, b):\n*** End Patch\n"},"tool_use_id":"call_2","tool_response":"Exit code: 0\nOutput:\nSuccess. Updated the following files:\nM app/records.py\n"}`,
			event: "PostToolUse", tool: "Edit", file: "app/records.py", from: 1},
		{name: "claude unchanged", payload: `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"sed -n '5,9p' a.py"},"tool_response":{"stdout":"x"}}`,
			event: "PostToolUse", tool: "Bash", from: 1},
	} {
		ev, err := ParseAgentEvent([]byte(c.payload), c.agent)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		from, to := ev.ReadRange()
		var oldNew [2]string
		if ev.Input != nil {
			oldNew = [2]string{ev.InputStr("old_string"), ev.InputStr("new_string")}
		}
		if ev.Name != c.event || ev.Tool != c.tool || ev.FilePath() != c.file || from != c.from || to != c.to || oldNew != c.oldNew || ev.Failed() != c.failed {
			t.Errorf("%s: got event %q tool %q file %q lines %d-%d edit %q failed %v\nwant event %q tool %q file %q lines %d-%d edit %q failed %v",
				c.name, ev.Name, ev.Tool, ev.FilePath(), from, to, oldNew, ev.Failed(), c.event, c.tool, c.file, c.from, c.to, c.oldNew, c.failed)
		}
	}
}

func TestAgentOutput(t *testing.T) {
	for _, c := range []struct {
		agent, payload, want string
	}{
		{"", `{"hook_event_name":"PostToolUse","tool_name":"Read"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"PostToolUse"}}`},
		{"", `{"hook_event_name":"Stop"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"Stop"}}`},
		{"", `{"hook_event_name":"AfterTool","tool_name":"read_file"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"AfterTool"}}`},
		{"gemini", `{"hook_event_name":"SessionStart"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"SessionStart"}}`},
		{"", `{"hook_event_name":"AfterAgent"}`, `{"decision":"block","reason":"CARD"}`},
		{"droid", `{"hook_event_name":"Stop"}`, `{"decision":"block","reason":"CARD"}`},
		{"codex", `{"hook_event_name":"Stop"}`, `{"decision":"block","reason":"CARD"}`},
		{"codex", `{"hook_event_name":"PostToolUse","tool_name":"apply_patch"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"PostToolUse"}}`},
		{"copilot", `{"hook_event_name":"PostToolUse","tool_name":"Read"}`, `{"additionalContext":"CARD"}`},
		{"copilot", `{"hook_event_name":"SessionStart"}`, `{"additionalContext":"CARD"}`},
		{"copilot", `{"hook_event_name":"Stop"}`, `{"decision":"block","reason":"CARD"}`},
		{"droid", `{"hook_event_name":"PostToolUse","tool_name":"Execute"}`, `{"hookSpecificOutput":{"additionalContext":"CARD","hookEventName":"PostToolUse"}}`},
	} {
		ev, err := ParseAgentEvent([]byte(c.payload), c.agent)
		if err != nil {
			t.Fatal(err)
		}
		out, err := ev.output("CARD")
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		json.Unmarshal(out, &got)
		json.Unmarshal([]byte(c.want), &want)
		if g, _ := json.Marshal(got); string(g) != func() string { w, _ := json.Marshal(want); return string(w) }() {
			t.Errorf("%s %s: got %s, want %s", c.agent, c.payload, out, c.want)
		}
	}
}

func TestUnknownAgent(t *testing.T) {
	if _, err := ParseAgentEvent([]byte(`{"hook_event_name":"Stop"}`), "vim"); err == nil {
		t.Error("an unknown agent was accepted")
	}
}
