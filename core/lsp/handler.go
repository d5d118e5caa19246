package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// handler answers what a server sends on its own: requests a client must
// answer (or the server stalls) and notifications (logs, progress,
// diagnostics).
type handler struct{ c *client }

// Handle runs on the connection's read loop: notifications are handled
// inline (they are cheap), requests are answered on their own goroutine so
// that a slow write never stops the reading.
func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		h.notification(req)
		return
	}
	go func() {
		result, rerr := h.request(req)
		if rerr != nil {
			_ = conn.ReplyWithError(ctx, req.ID, rerr)
			return
		}
		_ = conn.Reply(ctx, req.ID, result)
	}()
}

func params(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return nil
	}
	return json.Unmarshal(*req.Params, v)
}

// request answers one server-to-client request.
func (h handler) request(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	c := h.c
	switch req.Method {
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		if err := params(req, &p); err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
		}
		out := make([]json.RawMessage, len(p.Items))
		for i, it := range p.Items {
			out[i] = json.RawMessage("null")
			if v, ok := c.spec.Settings[it.Section]; ok && json.Valid(v) {
				out[i] = v
			}
		}
		return out, nil
	case "workspace/workspaceFolders":
		return []protocol.WorkspaceFolder{{URI: fileURI(c.root), Name: filepath.Base(c.root)}}, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest":
		return nil, nil
	case "window/showDocument":
		return map[string]bool{"success": false}, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "ccd does not edit files"}, nil
	}
	if strings.HasSuffix(req.Method, "/refresh") {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "ccd does not handle " + req.Method}
}

// notification handles one server-to-client notification.
func (h handler) notification(req *jsonrpc2.Request) {
	c := h.c
	switch req.Method {
	case "window/logMessage", "window/showMessage":
		var p struct {
			Type    int    `json:"type"`
			Message string `json:"message"`
		}
		if params(req, &p) == nil && p.Type <= 2 { // errors and warnings only
			c.log(p.Message)
		}
	case "$/progress":
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct {
				Kind  string `json:"kind"`
				Title string `json:"title"`
			} `json:"value"`
		}
		if params(req, &p) != nil {
			return
		}
		tok := string(p.Token)
		c.mu.Lock()
		switch p.Value.Kind {
		case "begin":
			c.progress[tok] = p.Value.Title
		case "end":
			delete(c.progress, tok)
		}
		c.mu.Unlock()
	case "pyright/beginProgress":
		c.mu.Lock()
		c.progress["pyright"] = "analyzing"
		c.mu.Unlock()
	case "pyright/endProgress":
		c.mu.Lock()
		delete(c.progress, "pyright")
		c.mu.Unlock()
	default:
		// textDocument/publishDiagnostics, telemetry/event, $/logTrace and
		// server-specific notifications are of no use to ccd.
	}
}

func (h handler) String() string { return fmt.Sprintf("handler(%s)", h.c.spec.DisplayName()) }
