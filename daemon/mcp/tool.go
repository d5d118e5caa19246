package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ToolName is the name of the tool.
const ToolName = "canvas"

// Description is the canvas tool's description: a short tutorial, so an
// agent (even a small model) knows the workflow without other docs.
const Description = `ccd canvas: see the blast radius of code before you change it, and keep an evidence board that survives context compaction.

WORKFLOW (recommended pattern):
1. init → index the repo and get an architecture map (often done by hooks; the ccd daemon keeps the graph live as files change)
2. impact symbol="target" → callers, callees, blast radius and affected tests, before changing a symbol
3. claim text="..." → record a hypothesis|finding|question, linked to the latest evidence
4. decide text="..." → record a plan|test|edit before acting
5. mark/skip symbol="..." → tick off each affected node; the board counts progress

ACTIONS:
• init: index repo_path (default: your project) and draw its architecture. Returns architecture + board images. Never clears the board.
• impact: 1-hop callers/callees of symbol, transitive callers up to depth (default 2), affected tests. Returns impact + board images. Sets the focus.
• claim: kind=hypothesis (default)|finding|question. Settle one later with kind=confirmed|refuted|answered text="C1: why".
• decide: kind=plan (default)|test|edit.
• mark: symbol verified (default: the focus). skip: symbol out of scope.
• task_select: pick task_id from tasks.yaml (no task_id lists the tasks).
• status: refresh the board picture (cheap, no reparse).
• read: text-only board dump (no images).

SYMBOLS: a name (total), a qualified name (Cart.add), a node id (shop/models.py::Cart.add), a file (shop/models.py) or path:line. Unknown names get suggestions.

EVIDENCE BOARD:
Your persistent working memory: evidence E1.., claims C1.., decisions D1.., focus and progress. It lives in the ccd daemon and .codecanvas/, shared by every session on the repo. Check it when resuming.

EXAMPLE SESSION:
1. init → E1 (architecture)
2. impact symbol="process_data" → E2 (5 callers, 2 callees)
3. claim text="Changing process_data may break validate_input" kind=hypothesis → C1
4. decide text="Update process_data, then fix validate_input tests" kind=plan → D1
5. [make edits, run tests]
6. mark symbol="process_data" text="Verified via unit tests" → Progress 1/6 addressed

TIPS:
• Use impact BEFORE changing a symbol
• Every answer ends with the board summary and a Next hint: follow it`

// Instructions are the server instructions sent at initialisation.
const Instructions = `ccd keeps a live code graph of this project. Before changing a function or class, call canvas(action="impact", symbol="...") to see its callers, callees and affected tests; record hypotheses, plans and verified nodes on the evidence board, which survives context compaction.`

// Actions lists the canvas actions.
var Actions = []string{"init", "impact", "claim", "decide", "mark", "skip", "task_select", "status", "read"}

// Defaults and limits of the numeric parameters.
const (
	DefaultDepth    = 2
	MaxDepth        = 20
	DefaultMaxNodes = 20
	MaxMaxNodes     = 100
)

// inputSchema is the JSON schema of the tool's arguments. use_lsp is
// accepted but deliberately not advertised.
func inputSchema() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	return map[string]any{
		"type":     "object",
		"required": []string{"action"},
		"properties": map[string]any{
			"action":    map[string]any{"type": "string", "enum": Actions, "description": "What to do; see the tool description."},
			"repo_path": str(`Project root (init; other actions use the project of the last init). Default "." = your working directory.`),
			"symbol":    str(`Target for impact, mark, skip (and optionally decide): a name, Class.method, a node id "path::Qual.name", a file, or path:line.`),
			"text":      str(`Claim or decision text; note for mark/skip. To settle claim C1: kind=confirmed|refuted|answered, text="C1: why".`),
			"kind": map[string]any{"type": "string",
				"enum":        []string{"hypothesis", "finding", "question", "confirmed", "refuted", "answered", "plan", "test", "edit"},
				"description": "claim: hypothesis (default), finding, question; or confirmed, refuted, answered to settle a claim. decide: plan (default), test, edit."},
			"depth": map[string]any{"type": "integer", "default": DefaultDepth, "minimum": 0, "maximum": MaxDepth,
				"description": "impact: hops of transitive callers counted in the blast radius (0 = unlimited). Callers/callees are always 1 hop."},
			"max_nodes": map[string]any{"type": "integer", "default": DefaultMaxNodes, "minimum": 1, "maximum": MaxMaxNodes,
				"description": "impact: nodes drawn in the picture (at most 8 callers and 8 callees)."},
			"task_id": str("task_select: the id of a task in tasks.yaml; leave it out to list the tasks."),
		},
	}
}

// args are the tool's arguments.
type args struct {
	Action   string          `json:"action"`
	RepoPath string          `json:"repo_path"`
	Symbol   string          `json:"symbol"`
	Text     string          `json:"text"`
	Kind     string          `json:"kind"`
	Depth    json.RawMessage `json:"depth"`
	MaxNodes json.RawMessage `json:"max_nodes"`
	TaskID   flexStr         `json:"task_id"`
	// UseLSP is accepted for compatibility and ignored: ccd always uses
	// the best edges it has.
	UseLSP *bool `json:"use_lsp"`

	depth, maxNodes int // parsed Depth and MaxNodes, defaults applied
}

// parseInt reads an integer parameter; models sometimes send numbers as
// strings ("3"), which are accepted. def is used when it is absent.
func parseInt(name string, raw json.RawMessage, def, lo, hi int, hint string) (int, *toolError) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return def, nil
	}
	s = strings.Trim(s, `"`)
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != float64(int(f)) {
		return 0, &toolError{msg: fmt.Sprintf("Parameter %s: want a whole number, got %s.", name, raw), hint: hint}
	}
	if n := int(f); n < lo || n > hi {
		return 0, &toolError{msg: fmt.Sprintf("Parameter %s: %d is out of range.", name, n), hint: hint}
	}
	return int(f), nil
}

// flexStr is a string that also accepts a number (task_id=1).
type flexStr string

func (s *flexStr) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexStr(v)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want a string, got %s", b)
	}
	*s = flexStr(n.String())
	return nil
}

var paramNames = "action, repo_path, symbol, text, kind, depth, max_nodes, task_id"

// parseArgs decodes and checks the arguments.
func parseArgs(raw json.RawMessage) (args, *toolError) {
	var a args
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return a, &toolError{msg: "Missing arguments.", hint: `call canvas(action="status"), or see the tool description for the actions`}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		msg := err.Error()
		if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
			return a, &toolError{msg: "Unknown parameter " + f + ".", hint: "the parameters are " + paramNames}
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return a, &toolError{msg: fmt.Sprintf("Parameter %s: want a %s, got a JSON %s.", te.Field, te.Type.Kind(), te.Value),
				hint: "see the tool's input schema"}
		}
		msg = strings.TrimPrefix(msg, "json: ")
		return a, &toolError{msg: "Bad arguments: " + msg + ".", hint: "see the tool's input schema"}
	}
	a.Action = strings.ToLower(strings.TrimSpace(a.Action))
	a.Action = strings.ReplaceAll(a.Action, "-", "_")
	known := false
	for _, x := range Actions {
		known = known || x == a.Action
	}
	if !known {
		what := "Missing action."
		if a.Action != "" {
			what = fmt.Sprintf("Unknown action %q.", a.Action)
		}
		return a, &toolError{msg: what, hint: "action is one of " + strings.Join(Actions, ", ")}
	}
	var terr *toolError
	if a.depth, terr = parseInt("depth", a.Depth, DefaultDepth, 0, MaxDepth,
		fmt.Sprintf("use 1..%d hops (0 = unlimited); the default is %d", MaxDepth, DefaultDepth)); terr != nil {
		return a, terr
	}
	if a.maxNodes, terr = parseInt("max_nodes", a.MaxNodes, DefaultMaxNodes, 1, MaxMaxNodes,
		fmt.Sprintf("use 1..%d; the default is %d", MaxMaxNodes, DefaultMaxNodes)); terr != nil {
		return a, terr
	}
	return a, nil
}
