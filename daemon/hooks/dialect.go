package hooks

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// A dialect is one coding agent's hook protocol: its event and tool
// names, where its payloads keep what the engine reads, and the JSON it
// reads back on the hook's stdout. The engine works in Claude Code's
// terms (events SessionStart, PreToolUse, PostToolUse, PreCompact, Stop;
// tools Read, Edit, Write, Grep, Glob, Bash); a dialect maps onto them on
// the way in and back on the way out.
type dialect struct {
	name string
	// events maps the agent's event names to the engine's; names it does
	// not list pass as they are.
	events map[string]string
	// tools maps the agent's tool names to the engine's; names it does
	// not list pass as they are (MCP tools, the agent's own).
	tools map[string]string
	// shellReads: the agent reads files with shell commands (sed -n,
	// cat, nl | sed), which get the card a Read gets.
	shellReads bool
	// searchAfter: context given before a tool runs is dropped, so the
	// search card comes after the search.
	searchAfter bool
	// detect: the agent's event names are its own, so a payload using
	// one is this agent's even when the shim did not say.
	detect bool
	// lift moves what the agent's payload says into the engine's fields
	// (tool_input keys, the patch); nil when the payload already is
	// Claude Code's.
	lift func(ev *Event, raw map[string]any)
	// render is what the hook prints for a card; nil prints Claude
	// Code's hookSpecificOutput.additionalContext.
	render func(ev *Event, text string) ([]byte, error)
}

// Agent names, as `ccd-hook --agent NAME` and `ccd setup NAME` take them.
const (
	AgentClaude  = "claude"
	AgentCodex   = "codex"
	AgentGemini  = "gemini"
	AgentCopilot = "copilot"
	AgentDroid   = "droid"
)

var dialects = map[string]*dialect{
	AgentClaude: {name: AgentClaude},
}

// Agents lists the agents the engine speaks to, sorted.
func Agents() []string {
	var out []string
	for n := range dialects {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// dialectFor picks the dialect of a payload: the one the shim named, else
// the one whose event names the payload uses, else Claude Code's.
func dialectFor(agent string, raw map[string]any) (*dialect, error) {
	if agent != "" {
		d := dialects[strings.ToLower(agent)]
		if d == nil {
			return nil, fmt.Errorf("unknown agent %q (ccd-hook --agent takes one of %s)", agent, strings.Join(Agents(), ", "))
		}
		return d, nil
	}
	name := str(raw, "hook_event_name", "hookEventName")
	for _, n := range Agents() {
		d := dialects[n]
		if _, ok := d.events[name]; ok && d.detect {
			return d, nil
		}
	}
	return dialects[AgentClaude], nil
}

// claudeOutput is Claude Code's answer: the card as additional context
// of the event.
func claudeOutput(event, text string) ([]byte, error) {
	return json.Marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": event, "additionalContext": text}})
}
