package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client is one running server process and the JSON-RPC connection to it.
type client struct {
	spec    ServerSpec
	root    string // absolute workspace root
	proc    *process
	conn    *jsonrpc2.Conn
	ids     atomic.Uint64
	cancels atomic.Uint64 // $/cancelRequest sent
	logf    func(format string, args ...any)
	started time.Time

	mu          sync.Mutex
	caps        map[string]json.RawMessage // server capabilities
	serverName  string
	initialized bool
	progress    map[string]string // active work-done progress: token → title
	docs        map[string]int32  // open documents: uri → version
	logs        []string          // last window/logMessage lines
}

// clientCapabilities is what ccd tells servers it supports: enough for
// navigation requests, work-done progress and configuration pulls.
const clientCapabilities = `{
  "workspace": {
    "workspaceFolders": true,
    "configuration": true,
    "didChangeConfiguration": {"dynamicRegistration": true},
    "didChangeWatchedFiles": {"dynamicRegistration": true}
  },
  "textDocument": {
    "synchronization": {"dynamicRegistration": true, "didSave": false},
    "declaration": {"linkSupport": true},
    "definition": {"linkSupport": true},
    "typeDefinition": {"linkSupport": true},
    "implementation": {"linkSupport": true},
    "references": {},
    "documentSymbol": {"hierarchicalDocumentSymbolSupport": true}
  },
  "window": {"workDoneProgress": true}
}`

// startClient starts the server at path for the workspace root and
// initializes it. It gives up when ctx ends, killing the process.
func startClient(ctx context.Context, spec ServerSpec, path, root string, logf func(string, ...any)) (*client, error) {
	proc, err := startProcess(path, spec.Command[1:], root, spec.Env)
	if err != nil {
		return nil, err
	}
	c := &client{spec: spec, root: root, proc: proc, logf: logf, started: time.Now(),
		progress: map[string]string{}, docs: map[string]int32{}}
	stream := jsonrpc2.NewBufferedStream(proc.stream(), jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, handler{c}, jsonrpc2.SetLogger(rpcLogger{c}))
	if err := c.initialize(ctx); err != nil {
		c.conn.Close()
		proc.kill()
		select {
		case <-proc.done:
		case <-time.After(2 * time.Second):
		}
		if proc.exited() && ctx.Err() == nil {
			return nil, fmt.Errorf("%s: initialize: %w (server %s)", spec.DisplayName(), err, proc.exitReason())
		}
		return nil, fmt.Errorf("%s: initialize: %w", spec.DisplayName(), err)
	}
	return c, nil
}

func (c *client) initialize(ctx context.Context) error {
	var caps protocol.ClientCapabilities
	if err := json.Unmarshal([]byte(clientCapabilities), &caps); err != nil {
		return fmt.Errorf("client capabilities: %w", err)
	}
	pid := protocol.Integer(os.Getpid())
	rootURI := fileURI(c.root)
	rootPath := c.root
	params := protocol.InitializeParams{
		ProcessID:        &pid,
		RootPath:         &rootPath,
		RootURI:          &rootURI,
		Capabilities:     caps,
		WorkspaceFolders: []protocol.WorkspaceFolder{{URI: rootURI, Name: filepath.Base(c.root)}},
	}
	params.ClientInfo = &struct {
		Name    string  `json:"name"`
		Version *string `json:"version,omitempty"`
	}{Name: "ccd"}
	if len(c.spec.InitOptions) > 0 {
		params.InitializationOptions = c.spec.InitOptions
	}
	raw, err := c.call(ctx, "initialize", params)
	if err != nil {
		return err
	}
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		ServerInfo   *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("decode initialize result: %w", err)
	}
	c.mu.Lock()
	c.caps = res.Capabilities
	if res.ServerInfo != nil {
		c.serverName = res.ServerInfo.Name + " " + res.ServerInfo.Version
	}
	c.mu.Unlock()
	if err := c.notify(ctx, "initialized", struct{}{}); err != nil {
		return err
	}
	c.mu.Lock()
	c.initialized = true
	c.mu.Unlock()
	return nil
}

// supports reports whether the server announced a capability
// ("definitionProvider", ...) as true or as an options object.
func (c *client) supports(capability string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.caps[capability]
	if !ok {
		return false
	}
	s := string(v)
	return s != "false" && s != "null"
}

// call sends a request and waits for its result until ctx ends; then it
// sends $/cancelRequest and returns ctx's error. It never blocks beyond
// ctx, even when the server stops reading its input.
func (c *client) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	id := jsonrpc2.ID{Num: c.ids.Add(1)}
	type result struct {
		raw json.RawMessage
		err error
	}
	ch := make(chan result, 1)
	go func() {
		w, err := c.conn.DispatchCall(ctx, method, params, jsonrpc2.PickID(id))
		if err != nil {
			ch <- result{err: err}
			return
		}
		var raw json.RawMessage
		err = w.Wait(ctx, &raw)
		ch <- result{raw, err}
	}()
	var r result
	select {
	case r = <-ch:
	case <-ctx.Done():
		r.err = ctx.Err()
	}
	if r.err == nil {
		return r.raw, nil
	}
	if ctx.Err() != nil {
		c.cancels.Add(1)
		go func() { _ = c.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id.Num}) }()
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
	if errors.Is(r.err, jsonrpc2.ErrClosed) {
		return nil, fmt.Errorf("%s: connection to %s closed: %w", method, c.spec.DisplayName(), r.err)
	}
	return nil, fmt.Errorf("%s: %w", method, r.err)
}

// notify sends a notification, giving up when ctx ends.
func (c *client) notify(ctx context.Context, method string, params any) error {
	ch := make(chan error, 1)
	go func() { ch <- c.conn.Notify(ctx, method, params) }()
	select {
	case err := <-ch:
		if err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// ensureOpen opens the document at abs (read from disk) unless it is open.
func (c *client) ensureOpen(ctx context.Context, abs string) (string, error) {
	uri := fileURI(abs)
	c.mu.Lock()
	_, open := c.docs[uri]
	c.mu.Unlock()
	if open {
		return uri, nil
	}
	text, err := os.ReadFile(abs)
	if err != nil {
		return "", fmt.Errorf("open document: %w", err)
	}
	return uri, c.open(ctx, abs, string(text))
}

// open sends didOpen with the given text (didChange when already open).
func (c *client) open(ctx context.Context, abs, text string) error {
	uri := fileURI(abs)
	c.mu.Lock()
	v, open := c.docs[uri]
	if !open {
		c.docs[uri] = 1
	}
	c.mu.Unlock()
	if open {
		return c.change(ctx, abs, text, v)
	}
	err := c.notify(ctx, "textDocument/didOpen", protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: c.spec.languageID(abs), Version: 1, Text: text},
	})
	if err != nil {
		c.mu.Lock()
		delete(c.docs, uri)
		c.mu.Unlock()
	}
	return err
}

// change replaces an open document's text.
func (c *client) change(ctx context.Context, abs, text string, _ int32) error {
	uri := fileURI(abs)
	c.mu.Lock()
	v, open := c.docs[uri]
	if open {
		v++
		c.docs[uri] = v
	}
	c.mu.Unlock()
	if !open {
		return nil
	}
	return c.notify(ctx, "textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: v},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: text}},
	})
}

// closeDoc sends didClose for an open document.
func (c *client) closeDoc(ctx context.Context, abs string) error {
	uri := fileURI(abs)
	c.mu.Lock()
	_, open := c.docs[uri]
	delete(c.docs, uri)
	c.mu.Unlock()
	if !open {
		return nil
	}
	return c.notify(ctx, "textDocument/didClose", protocol.DidCloseTextDocumentParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
	})
}

// openDocs returns the number of open documents.
func (c *client) openDocs() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.docs)
}

// ready reports whether the server is initialized and reports no work in
// progress.
func (c *client) ready() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.initialized && len(c.progress) == 0
}

// busy returns the titles of the work-done progress under way.
func (c *client) busy() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, t := range c.progress {
		out = append(out, t)
	}
	return out
}

// shutdown asks the server to shut down and exit, and kills its process
// group when it has not exited within grace.
func (c *client) shutdown(grace time.Duration) {
	deadline := time.Now().Add(grace)
	if !c.proc.exited() {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		if _, err := c.call(ctx, "shutdown", nil); err == nil {
			_ = c.notify(ctx, "exit", nil)
		}
		cancel()
		select {
		case <-c.proc.done:
		case <-time.After(time.Until(deadline)):
		}
	}
	c.proc.kill()
	c.conn.Close()
	select {
	case <-c.proc.done:
	case <-time.After(2 * time.Second):
	}
}

// log keeps a server's log line (and forwards it to logf).
func (c *client) log(line string) {
	c.mu.Lock()
	c.logs = append(c.logs, line)
	if len(c.logs) > 20 {
		c.logs = c.logs[len(c.logs)-20:]
	}
	c.mu.Unlock()
	if c.logf != nil {
		c.logf("lsp %s: %s", c.spec.DisplayName(), line)
	}
}

// rpcLogger routes jsonrpc2's own complaints into the client's log.
type rpcLogger struct{ c *client }

func (l rpcLogger) Printf(format string, args ...any) { l.c.log(fmt.Sprintf(format, args...)) }
