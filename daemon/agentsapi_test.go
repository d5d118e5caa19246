package daemon_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// agentAPI is a scripted stand-in for the model APIs other coding agents
// speak, for driving their real CLIs without a network: Gemini's
// streamGenerateContent (Gemini CLI), OpenAI's Chat Completions (Copilot
// CLI with a custom provider) and Responses (Codex CLI with a custom
// model provider). Factory Droid speaks the Messages API: fakeAPI.
//
// Requests that carry tools are the agent's turns. The turn a request is
// at is read from the conversation it carries (how many scripted calls
// it answers), so retries and side requests cannot shift the script;
// past the script, and in requests without tools, the model answers a
// short text.
type agentAPI struct {
	t      *testing.T
	srv    *httptest.Server
	proto  string // gemini, chat, responses
	script []agentStep

	mu   sync.Mutex
	reqs []*agentReq
}

// agentStep is one scripted model turn: one tool call, or text.
type agentStep struct {
	Tool string         // the tool's name as the agent offers it; "" for text
	Args map[string]any // its arguments
	// Custom is the free-form input of a custom tool (Codex's apply_patch)
	// instead of Args.
	Custom string
	// Namespace is the MCP namespace of a deferred tool (Codex): the model
	// first searches for it with tool_search.
	Namespace string
	Text      string
}

// agentReq is one request as the stand-in received it.
type agentReq struct {
	Path  string
	Agent bool // carries tools
	Turn  int  // the scripted turn it was answered with (-1: none)
	Raw   []byte
	Body  map[string]any
}

func newAgentAPI(t *testing.T, proto string, script ...agentStep) *agentAPI {
	a := &agentAPI{t: t, proto: proto, script: script}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *agentAPI) URL() string { return a.srv.URL }

// callID marks a call of scripted turn n; the conversation echoes it.
func callID(n int) string { return fmt.Sprintf("ccd_%d_call", n) }

var callIDRe = regexp.MustCompile(`ccd_(\d+)_call`)

func (a *agentAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := &agentReq{Path: r.URL.Path, Raw: raw, Turn: -1}
	json.Unmarshal(raw, &req.Body)
	a.mu.Lock()
	a.reqs = append(a.reqs, req)
	a.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "gpt-4.1", "object": "model"}}, "models": []any{}})
		return
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 100})
		return
	case r.Method != http.MethodPost || req.Body == nil:
		http.NotFound(w, r)
		return
	}
	tools, _ := req.Body["tools"].([]any)
	req.Agent = len(tools) > 0
	step := agentStep{Text: "Done."}
	if req.Agent {
		n := a.turnOf(req)
		a.mu.Lock()
		req.Turn = n
		a.mu.Unlock()
		if n < len(a.script) {
			step = a.script[n]
		}
	} else if a.proto == "gemini" {
		// Gemini CLI's side requests may ask for JSON (a router).
		if gc, _ := req.Body["generationConfig"].(map[string]any); gc != nil && (gc["responseJsonSchema"] != nil || gc["responseSchema"] != nil || gc["responseMimeType"] == "application/json") {
			step = agentStep{Text: `{"reasoning":"scripted","next_speaker":"user","model_choice":"flash"}`}
		}
	}
	switch a.proto {
	case "gemini":
		a.gemini(w, r, step)
	case "chat":
		a.chat(w, req, step)
	case "responses":
		a.responses(w, req, step)
	default:
		a.t.Errorf("agentAPI: unknown protocol %q", a.proto)
	}
}

// turnOf is the scripted turn a conversation is at: one past the last
// scripted call it holds (Gemini CLI keeps no call ids: its model turns
// with a function call are counted).
func (a *agentAPI) turnOf(req *agentReq) int {
	if a.proto == "gemini" {
		n := 0
		contents, _ := req.Body["contents"].([]any)
		for _, c := range contents {
			m, _ := c.(map[string]any)
			if m["role"] != "model" {
				continue
			}
			parts, _ := m["parts"].([]any)
			for _, p := range parts {
				if pm, _ := p.(map[string]any); pm["functionCall"] != nil {
					n++
					break
				}
			}
		}
		return n
	}
	n := 0
	for _, m := range callIDRe.FindAllSubmatch(req.Raw, -1) {
		if k, _ := strconv.Atoi(string(m[1])); k+1 > n {
			n = k + 1
		}
	}
	return n
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func sseHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
}

// gemini answers as streamGenerateContent (alt=sse) or generateContent.
func (a *agentAPI) gemini(w http.ResponseWriter, r *http.Request, s agentStep) {
	part := map[string]any{"text": s.Text}
	if s.Tool != "" {
		part = map[string]any{"functionCall": map[string]any{"name": s.Tool, "args": s.Args}}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "scripted",
	}
	if r.URL.Query().Get("alt") != "sse" {
		writeJSON(w, resp)
		return
	}
	sseHeaders(w)
	b, _ := json.Marshal(resp)
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
}

// chat answers as Chat Completions, streamed (chat.completion.chunk) or
// not.
func (a *agentAPI) chat(w http.ResponseWriter, req *agentReq, s agentStep) {
	id := fmt.Sprintf("chatcmpl-%d", len(a.reqs))
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	msg := map[string]any{"role": "assistant", "content": s.Text}
	finish := "stop"
	var call map[string]any
	if s.Tool != "" {
		args, _ := json.Marshal(s.Args)
		call = map[string]any{"id": callID(req.Turn), "type": "function", "function": map[string]any{"name": s.Tool, "arguments": string(args)}}
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}
		finish = "tool_calls"
	}
	if stream, _ := req.Body["stream"].(bool); !stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "model": req.Body["model"],
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	sseHeaders(w)
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "model": req.Body["model"],
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if call == nil {
		chunk(map[string]any{"role": "assistant", "content": ""}, nil)
		chunk(map[string]any{"content": s.Text}, nil)
	} else {
		fn := call["function"].(map[string]any)
		chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": call["id"], "type": "function",
			"function": map[string]any{"name": fn["name"], "arguments": ""}}}}, nil)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": fn["arguments"]}}}}, nil)
	}
	chunk(map[string]any{}, finish)
	b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "model": req.Body["model"], "choices": []any{}, "usage": usage})
	fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", b)
}

// responses answers as the Responses API, streamed. A deferred MCP tool
// is first searched for with the client-side tool_search tool, then
// called in its namespace; a custom tool gets its free-form input.
func (a *agentAPI) responses(w http.ResponseWriter, req *agentReq, s agentStep) {
	var item map[string]any
	switch {
	case s.Tool == "":
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": s.Text, "annotations": []any{}}}}
	case s.Namespace != "" && !strings.Contains(string(req.Raw), `"tool_search_output"`):
		item = map[string]any{"type": "tool_search_call", "id": "ts_1", "call_id": fmt.Sprintf("ccds_%d", req.Turn),
			"status": "completed", "execution": "client", "arguments": map[string]any{"query": s.Tool, "limit": 8}}
	case s.Custom != "":
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_1", "call_id": callID(req.Turn), "name": s.Tool, "input": s.Custom}
	default:
		args, _ := json.Marshal(s.Args)
		item = map[string]any{"type": "function_call", "id": "fc_1", "call_id": callID(req.Turn), "name": s.Tool, "arguments": string(args)}
		if s.Namespace != "" {
			item["namespace"] = s.Namespace
		}
	}
	sseHeaders(w)
	ev := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	respID := fmt.Sprintf("resp_%d", len(a.reqs))
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	ev(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if s.Tool == "" {
		ev(map[string]any{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": s.Text})
	}
	ev(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": respID, "usage": map[string]any{
		"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 10,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}}})
}

// agentRequests returns the agent's turns (requests with tools), in order.
func (a *agentAPI) agentRequests() []*agentReq {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*agentReq
	for _, r := range a.reqs {
		if r.Agent {
			out = append(out, r)
		}
	}
	return out
}

// texts returns every string in a request body: what the model was given,
// whatever the protocol's layout.
func (r *agentReq) texts() []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(r.Body)
	return out
}

// find returns the strings of the request that contain sub.
func (r *agentReq) find(sub string) []string {
	var out []string
	for _, s := range r.texts() {
		if strings.Contains(s, sub) {
			out = append(out, s)
		}
	}
	return out
}
