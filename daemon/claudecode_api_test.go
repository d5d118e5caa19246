package daemon_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAPI is a scripted stand-in for the Anthropic Messages API, for
// driving the real Claude Code CLI (ANTHROPIC_BASE_URL) without a network.
// It answers POST /v1/messages with Server-Sent Events in the API's order
// and records every request body, so a test can read exactly what the
// model was given.
//
// Requests that carry tools are the agent's turns: each is answered by the
// next turn of the script (after the script, a short end_turn text). A
// request without tools (titles, summaries) and a compaction request (the
// agent asked for a summary of the conversation) get a short text and do
// not consume the script. count_tokens is answered with a small count.
type fakeAPI struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	script []apiTurn
	next   int
	reqs   []*apiRequest
}

// apiTurn is one scripted answer of the model: text, and/or one tool call.
type apiTurn struct {
	Text  string
	Tool  string // tool name; empty for a text-only turn (end_turn)
	Input any    // the tool's input, marshalled to JSON
	// InputTokens is the prompt size the answer's usage reports (default
	// 10); a size near the context window makes Claude Code compact.
	InputTokens int
}

// Kinds of request.
const (
	reqAgent   = "agent"   // carries tools: a turn of the agent loop
	reqCompact = "compact" // carries tools, asks for a summary of the conversation
	reqSide    = "side"    // no tools: a title, a summary of a tool call, ...
	reqOther   = "other"   // count_tokens or an unknown path
)

// apiRequest is one request as the fake received it.
type apiRequest struct {
	Path      string
	Kind      string
	Body      apiBody
	Raw       []byte
	Received  time.Time
	Answered  time.Time // the last byte of the answer was written
	Turn      int       // index into the script, -1 when not scripted
	ToolUseID string    // the id of the tool_use the answer carried
}

type apiBody struct {
	Model    string       `json:"model"`
	Messages []apiMessage `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type apiMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or a list of blocks
}

type apiBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // tool_result: a string or a list of blocks
	Source    *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source,omitempty"`
}

func newFakeAPI(t *testing.T, script ...apiTurn) *fakeAPI {
	f := &fakeAPI{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL }

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := &apiRequest{Path: r.URL.Path, Raw: raw, Received: time.Now(), Turn: -1, Kind: reqOther}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	n := len(f.reqs)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		req.Answered = time.Now()
		f.mu.Unlock()
	}()
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages"):
		http.NotFound(w, r)
		return
	}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	turn := apiTurn{Text: "OK."}
	f.mu.Lock()
	switch {
	case len(req.Body.Tools) == 0:
		req.Kind = reqSide
	case req.isCompaction():
		req.Kind = reqCompact
		turn = apiTurn{Text: "<analysis>Short.</analysis>\n<summary>The user asked for a look at the code; the agent read files.</summary>"}
	default:
		req.Kind = reqAgent
		if f.next < len(f.script) {
			turn = f.script[f.next]
			req.Turn = f.next
			f.next++
		} else {
			turn = apiTurn{Text: "Done."}
		}
	}
	f.mu.Unlock()
	if turn.Tool != "" {
		req.ToolUseID = fmt.Sprintf("toolu_%02d", n)
	}
	f.stream(w, req, turn, n)
}

// stream writes turn as the Messages API's Server-Sent Events.
func (f *fakeAPI) stream(w http.ResponseWriter, req *apiRequest, turn apiTurn, n int) {
	in := turn.InputTokens
	if in == 0 {
		in = 10
	}
	var b bytes.Buffer
	ev := func(name string, data map[string]any) {
		j, err := json.Marshal(data)
		if err != nil {
			f.t.Errorf("fake API: %v", err)
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, j)
	}
	model := req.Body.Model
	if model == "" {
		model = "claude-fake"
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%02d", n), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": 1}}})
	idx := 0
	if turn.Text != "" {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
			"delta": map[string]any{"type": "text_delta", "text": turn.Text}})
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	stop := "end_turn"
	if turn.Tool != "" {
		input, err := json.Marshal(turn.Input)
		if err != nil {
			f.t.Errorf("fake API: tool input: %v", err)
		}
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": idx,
			"content_block": map[string]any{"type": "tool_use", "id": req.ToolUseID, "name": turn.Tool, "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx})
		stop = "tool_use"
	}
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"input_tokens": in, "output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}

// isCompaction says whether the request asks the model to summarise the
// conversation (Claude Code's compaction; it carries the tools too). The
// instruction is in a user message after the last assistant message, not
// always the last message: hook context may follow it.
func (r *apiRequest) isCompaction() bool {
	for _, s := range r.lastUserTexts() {
		if strings.Contains(s, "create a detailed summary of the conversation") {
			return true
		}
	}
	return false
}

// requests returns the requests of the given kinds ("" = all), in order.
func (f *fakeAPI) requests(kinds ...string) []*apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*apiRequest
	for _, r := range f.reqs {
		if len(kinds) == 0 || contains(kinds, r.Kind) {
			out = append(out, r)
		}
	}
	return out
}

// used is how many turns of the script were played.
func (f *fakeAPI) used() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next
}

// blocks returns a message's content as blocks (a string is one text block).
func (m apiMessage) blocks() []apiBlock {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []apiBlock{{Type: "text", Text: s}}
	}
	var bs []apiBlock
	json.Unmarshal(m.Content, &bs)
	return bs
}

// resultBlocks returns a tool_result's content as blocks.
func (b apiBlock) resultBlocks() []apiBlock {
	return apiMessage{Content: b.Content}.blocks()
}

// resultText is the text of a tool_result.
func (b apiBlock) resultText() string {
	var parts []string
	for _, c := range b.resultBlocks() {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// afterTool finds, in this request, the tool_result of the tool call id
// and returns it with the texts the model was given beside it: the blocks
// after it in its message and the messages that follow up to the next
// assistant message (Claude Code 2.1.328 sends hook context as a separate
// message after the tool_result, with the role "system").
func (r *apiRequest) afterTool(id string) (result apiBlock, texts []string, ok bool) {
	for i, m := range r.Body.Messages {
		bs := m.blocks()
		for j, b := range bs {
			if b.Type != "tool_result" || b.ToolUseID != id {
				continue
			}
			for _, c := range bs[j+1:] {
				if c.Type == "text" {
					texts = append(texts, c.Text)
				}
			}
			for _, m2 := range r.Body.Messages[i+1:] {
				if m2.Role == "assistant" {
					break
				}
				for _, c := range m2.blocks() {
					if c.Type == "text" {
						texts = append(texts, c.Text)
					}
				}
			}
			return b, texts, true
		}
	}
	return apiBlock{}, nil, false
}

// allTexts returns every text block of every message (not tool results).
func (r *apiRequest) allTexts() []string {
	var out []string
	for _, m := range r.Body.Messages {
		for _, b := range m.blocks() {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// lastUserTexts returns the text blocks of the messages after the last
// assistant message: what is new to the model in this request.
func (r *apiRequest) lastUserTexts() []string {
	start := 0
	for i, m := range r.Body.Messages {
		if m.Role == "assistant" {
			start = i + 1
		}
	}
	var out []string
	for _, m := range r.Body.Messages[start:] {
		for _, b := range m.blocks() {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// hookContext is one hook's additionalContext as the model received it:
// Claude Code prefixes it with "<Event>[:<Tool>] hook additional context: ".
type hookContext struct {
	Event, Tool string
	Text        string
}

const hookMarker = " hook additional context: "

// hookContexts extracts the hook contexts from texts. A context runs from
// its marker to the next blank line, the next marker or the end of the
// text (Claude Code may join it with other system text; ccd's cards hold
// no blank line).
func hookContexts(texts []string) []hookContext {
	var out []hookContext
	for _, s := range texts {
		for {
			i := strings.Index(s, hookMarker)
			if i < 0 {
				break
			}
			// The label is the word before the marker.
			j := strings.LastIndexAny(s[:i], " \n>") + 1
			label := s[j:i]
			s = s[i+len(hookMarker):]
			end := len(s)
			if k := strings.Index(s, "\n\n"); k >= 0 && k < end {
				end = k
			}
			if k := strings.Index(s, hookMarker); k >= 0 {
				if l := strings.LastIndex(s[:k], "\n"); l >= 0 && l < end {
					end = l
				}
			}
			if k := strings.Index(s, "\n</system-reminder>"); k >= 0 && k < end {
				end = k
			}
			ev, tool, _ := strings.Cut(label, ":")
			out = append(out, hookContext{Event: ev, Tool: tool, Text: s[:end]})
			s = s[end:]
		}
	}
	return out
}
