package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/search"
)

// SearchHost is implemented by hosts that also serve the retrieval tools
// (query, evidence_pack, expand, status, index, invalidate: Canopy's tools
// without their canopy_ prefix).
type SearchHost interface {
	// Search returns the retrieval index of the workspace holding root
	// (adding and indexing the workspace when needed) and its current
	// graph, for references.
	Search(ctx context.Context, root string) (*search.Index, *graph.Graph, error)
}

// RetrievalTools are the names of the retrieval tools.
var RetrievalTools = []string{"query", "evidence_pack", "expand", "status", "index", "invalidate"}

// retrieval serves the retrieval tools of one session.
type retrieval struct {
	h    SearchHost
	c    *canvas
	sess *search.Session
}

func addRetrievalTools(srv *sdk.Server, h SearchHost, c *canvas) {
	r := &retrieval{h: h, c: c, sess: search.NewSession()}
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	intp := func(desc string) map[string]any { return map[string]any{"type": "integer", "description": desc} }
	pathP := str("Absolute path of the repository root (default: the session's project).")
	searchProps := func() map[string]any {
		return map[string]any{
			"path":     pathP,
			"pattern":  str("Full-text search, ranked (identifier-aware: camelCase and snake_case parts match)."),
			"patterns": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Several text patterns, combined by match."},
			"symbol":   str("Code symbol: function, class, struct, method (a name, Class.method or a node id)."),
			"section":  str("Markdown section heading."),
			"parent":   str("Only members of this class or section."),
			"kind":     map[string]any{"type": "string", "enum": []string{"definition", "reference", "any"}, "description": `"reference" adds ref_handles (call, import, type_ref sites) from the code graph.`},
			"glob":     str(`File filter, e.g. "src/**/*.ts".`),
			"match":    map[string]any{"type": "string", "enum": []string{"any", "all"}, "description": "patterns: OR (any, default) or AND (all)."},
			"query":    str(`S-expression DSL: (grep "x") (code "x") (definition "x") (references "x") (section "x") (file "path") (children "P") (children-named "P" "c") (in-file "glob" Q) (union Q...) (intersect Q...) (limit N Q).`),
		}
	}
	qp := searchProps()
	qp["limit"] = intp("Most handles (default 16).")
	qp["expand_budget"] = intp("Deprecated: include content of the best handles up to this many tokens.")
	pp := searchProps()
	pp["max_handles"] = intp("Most ranked handles in the pack (default 8).")
	pp["max_per_file"] = intp("Most handles from one file (default 2).")
	pp["plan"] = map[string]any{"type": "boolean", "description": "Accepted for compatibility; ignored."}
	schema := func(props map[string]any, required ...string) map[string]any {
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	no := false
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	srv.AddTool(&sdk.Tool{Name: "query", Annotations: ro, InputSchema: schema(qp),
		Description: "Search the code and docs: ranked handles (id, file_path, node_type, line_range, token_count, ~100-byte preview). Handles are cheap; expand only the ones you need. Give at least one of pattern, patterns, symbol, section, parent or query. kind=reference adds the call/import sites of a symbol."},
		r.wrap(r.query))
	srv.AddTool(&sdk.Tool{Name: "evidence_pack", Annotations: ro, InputSchema: schema(pp),
		Description: "Start here for discovery: a compact ranked pack (handles with scores, grouped by file, no content), an expand_suggestion, and guidance (stop_querying, recommended_action, suggested_expand_count, confidence). Follow the guidance: expand the suggested handles and answer, or refine once."},
		r.wrap(r.pack))
	srv.AddTool(&sdk.Tool{Name: "expand", Annotations: ro, InputSchema: schema(map[string]any{
		"path":       pathP,
		"handle_ids": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": `Handle ids to expand, e.g. ["h1a2b3c4d5e6f7890abcdef12"].`},
	}, "handle_ids"),
		Description: "Full content of handles, read fresh from disk (\"// <id>\" then the text, per handle). A handle whose code moved is found again; one whose code is gone is reported with its replacement."},
		r.wrap(r.expand))
	srv.AddTool(&sdk.Tool{Name: "status", Annotations: ro, InputSchema: schema(map[string]any{"path": pathP}),
		Description: "Retrieval index statistics: files_indexed, total_tokens, handles, pending files, last_indexed."},
		r.wrap(r.status))
	srv.AddTool(&sdk.Tool{Name: "index", Annotations: &sdk.ToolAnnotations{OpenWorldHint: &no, IdempotentHint: true},
		InputSchema: schema(map[string]any{"path": pathP, "glob": str(`Files to index now, e.g. "**/*.rs".`)}, "glob"),
		Description: "Index files matching a glob now. Rarely needed: ccd indexes the whole project in the background and keeps it fresh."},
		r.wrap(r.index))
	srv.AddTool(&sdk.Tool{Name: "invalidate", Annotations: &sdk.ToolAnnotations{OpenWorldHint: &no, DestructiveHint: &no, IdempotentHint: true},
		InputSchema: schema(map[string]any{"path": pathP, "glob": str("Files to re-index (all when omitted).")}),
		Description: "Force re-indexing of files (all when glob is omitted). Rarely needed: ccd re-indexes changed files itself."},
		r.wrap(r.invalidate))
}

// wrap turns a retrieval handler into a tool handler: arguments decoded,
// errors as error results with hints, panics contained.
func (r *retrieval) wrap(fn func(ctx context.Context, args map[string]json.RawMessage) (string, error)) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, _ error) {
		defer func() {
			if p := recover(); p != nil {
				res = errorResult(fmt.Sprintf("Internal error: %v.", p), "this is a bug in ccd; the daemon log has details")
			}
		}()
		var args map[string]json.RawMessage
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return errorResult("Arguments are not a JSON object: "+err.Error(), "pass the parameters as an object"), nil
			}
		}
		text, err := fn(ctx, args)
		if err != nil {
			var se *search.Error
			if errors.As(err, &se) {
				msg := se.Code + ": " + se.Message
				return errorResult(msg, se.Hint), nil
			}
			var he interface{ Hint() string }
			if errors.As(err, &he) {
				return errorResult(err.Error(), he.Hint()), nil
			}
			return errorResult(err.Error(), "check the parameters; the tool description lists them"), nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
	}
}

func errorResult(msg, hint string) *sdk.CallToolResult {
	text := msg
	if hint != "" {
		text += "\nHint: " + hint
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// index returns the retrieval index for the call's path.
func (r *retrieval) index_(ctx context.Context, args map[string]json.RawMessage) (*search.Index, *graph.Graph, error) {
	var p string
	if raw, ok := args["path"]; ok {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, nil, fmt.Errorf("path must be a string")
		}
	}
	root := r.c.rootOr(p)
	return r.h.Search(ctx, root)
}

func decode(args map[string]json.RawMessage, v any) error {
	delete(args, "path")
	b, _ := json.Marshal(args)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &hinted{fmt.Sprintf("bad parameters: %v", err), "see the tool's input schema for the parameter names and types"}
	}
	return nil
}

type hinted struct{ msg, hint string }

func (h *hinted) Error() string { return h.msg }
func (h *hinted) Hint() string  { return h.hint }

func pretty(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func (r *retrieval) query(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	ix, g, err := r.index_(ctx, args)
	if err != nil {
		return "", err
	}
	var a search.QueryParams
	if err := decode(args, &a); err != nil {
		return "", err
	}
	res, err := ix.Query(a, search.GraphRefs(g))
	if err != nil {
		return "", err
	}
	return budget(pretty(res)), nil
}

func (r *retrieval) pack(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	ix, g, err := r.index_(ctx, args)
	if err != nil {
		return "", err
	}
	var a search.PackRequest
	if err := decode(args, &a); err != nil {
		return "", err
	}
	p, err := ix.EvidencePack(a, r.sess, search.GraphRefs(g))
	if err != nil {
		return "", err
	}
	return budget(pretty(p)), nil
}

func (r *retrieval) expand(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	ix, _, err := r.index_(ctx, args)
	if err != nil {
		return "", err
	}
	var a struct {
		HandleIDs []string `json:"handle_ids"`
	}
	if err := decode(args, &a); err != nil {
		return "", err
	}
	if len(a.HandleIDs) == 0 {
		return "", &hinted{"handle_ids is empty", `pass the ids of handles from query or evidence_pack, e.g. handle_ids=["h…"]`}
	}
	res := ix.Expand(a.HandleIDs, r.sess, nil)
	return budget(res.Text()), nil
}

func (r *retrieval) status(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	ix, _, err := r.index_(ctx, args)
	if err != nil {
		return "", err
	}
	return pretty(ix.Status()), nil
}

func (r *retrieval) index(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	return globOp(ctx, r, args, (*search.Index).IndexGlob)
}

func (r *retrieval) invalidate(ctx context.Context, args map[string]json.RawMessage) (string, error) {
	return globOp(ctx, r, args, (*search.Index).Invalidate)
}

// globOp runs an index operation whose one parameter is a glob.
func globOp[T any](ctx context.Context, r *retrieval, args map[string]json.RawMessage, op func(*search.Index, string) (T, error)) (string, error) {
	ix, _, err := r.index_(ctx, args)
	if err != nil {
		return "", err
	}
	var a struct {
		Glob string `json:"glob"`
	}
	if err := decode(args, &a); err != nil {
		return "", err
	}
	rep, err := op(ix, a.Glob)
	if err != nil {
		return "", err
	}
	return pretty(rep), nil
}

// budget keeps a retrieval answer far below Claude Code's MCP limit.
func budget(s string) string {
	if len(s) <= MaxResultChars*4 {
		return s
	}
	cut := MaxResultChars * 4
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "\n… (answer cut at " + fmt.Sprint(MaxResultChars*4) + " characters: lower limit or max_handles, narrow glob, or expand fewer handles at once)"
}

// rootOr resolves a path parameter like repo_path: empty means the
// session's project.
func (c *canvas) rootOr(p string) string {
	if p != "" {
		if !filepath.IsAbs(p) && c.opt.defaultRoot != "" {
			p = filepath.Join(c.opt.defaultRoot, p)
		}
		return p
	}
	c.mu.Lock()
	root := c.root
	c.mu.Unlock()
	if root != "" {
		return root
	}
	return c.opt.defaultRoot
}
