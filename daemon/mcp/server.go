package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Option configures NewServer and Serve.
type Option func(*options)

type options struct {
	log         *slog.Logger
	version     string
	defaultRoot string
}

// WithLogger sends the server's logs to l (never to the protocol stream).
// Without it nothing is logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithVersion sets the version the server reports to clients.
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithDefaultRoot sets the directory repo_path defaults to (and relative
// repo_paths are resolved against): the agent's working directory.
func WithDefaultRoot(dir string) Option { return func(o *options) { o.defaultRoot = dir } }

// canvas serves the canvas tool for one server. It remembers the root of
// the last successful init or explicit repo_path, which later actions
// default to; a server made by Serve has one session, so this is the
// session's project.
type canvas struct {
	h   Host
	opt options

	mu   sync.Mutex
	root string
}

// NewServer returns an MCP server with the canvas tool, served by h. Use
// one server per client session (Serve does), since it remembers the
// session's project.
func NewServer(h Host, opts ...Option) *sdk.Server {
	o := options{version: "dev"}
	for _, f := range opts {
		f(&o)
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	c := &canvas{h: h, opt: o}
	srv := sdk.NewServer(&sdk.Implementation{Name: "ccd", Title: "ccd code canvas", Version: o.version},
		&sdk.ServerOptions{Instructions: Instructions, Logger: o.log})
	no := false
	srv.AddTool(&sdk.Tool{
		Name:        ToolName,
		Title:       "Code canvas: impact analysis and evidence board",
		Description: Description,
		InputSchema: inputSchema(),
		Annotations: &sdk.ToolAnnotations{Title: "Code canvas", DestructiveHint: &no, OpenWorldHint: &no},
	}, c.handle)
	if sh, ok := h.(SearchHost); ok {
		addRetrievalTools(srv, sh, c)
	}
	return srv
}

// Serve runs one MCP session over rwc (newline-delimited JSON-RPC, e.g. an
// upgraded socket connection) until the client disconnects or ctx ends,
// then closes rwc. defaultRoot is the client's working directory. A client
// that disconnects is a normal end (nil error).
func Serve(ctx context.Context, h Host, rwc io.ReadWriteCloser, defaultRoot string, opts ...Option) error {
	defer rwc.Close()
	srv := NewServer(h, append(opts, WithDefaultRoot(defaultRoot))...)
	t := &sdk.IOTransport{Reader: rwc, Writer: nopCloser{rwc}}
	err := srv.Run(ctx, t)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || strings.Contains(err.Error(), "closed") {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	return fmt.Errorf("mcp session: %w", err)
}

// nopCloser keeps the transport from closing rwc twice (reader and writer
// are the same connection; Serve closes it).
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// handle runs one tool call. A panic in an action (a bug) becomes an
// error answer and a log line, never a dead session.
func (c *canvas) handle(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, _ error) {
	defer func() {
		if p := recover(); p != nil {
			c.opt.log.Error("canvas panic", "panic", p, "stack", string(debug.Stack()))
			res = toResult(nil, &toolError{msg: fmt.Sprintf("Internal error: %v.", p), hint: "this is a bug in ccd; the daemon log has details. Other actions still work"})
		}
	}()
	start := time.Now()
	a, terr := parseArgs(req.Params.Arguments)
	var r *response
	if terr == nil {
		r, terr = c.dispatch(ctx, a)
	}
	res = toResult(r, terr)
	c.opt.log.Info("canvas", "action", a.Action, "symbol", a.Symbol, "error", terr != nil,
		"images", len(res.Content)-1, "ms", time.Since(start).Milliseconds())
	return res, nil
}

func (c *canvas) dispatch(ctx context.Context, a args) (*response, *toolError) {
	switch a.Action {
	case "init":
		return c.init(ctx, a)
	case "impact":
		return c.impact(ctx, a)
	case "claim":
		return c.claim(ctx, a)
	case "decide":
		return c.decide(ctx, a)
	case "mark", "skip":
		return c.mark(ctx, a)
	case "task_select":
		return c.taskSelect(ctx, a)
	case "status":
		return c.status(ctx, a)
	case "read":
		return c.read(ctx, a)
	}
	return nil, &toolError{msg: fmt.Sprintf("Unknown action %q.", a.Action), hint: "action is one of " + strings.Join(Actions, ", ")}
}

// rootFor picks the directory an action works on: repo_path (relative
// ones against the default root), else the session's project, else the
// default root.
func (c *canvas) rootFor(a args) (string, *toolError) {
	p := strings.TrimSpace(a.RepoPath)
	if p != "" {
		if strings.HasPrefix(p, "~/") || p == "~" {
			return "", &toolError{msg: fmt.Sprintf("repo_path %q starts with ~.", p), hint: "give an absolute path, or a path relative to your working directory"}
		}
		if !filepath.IsAbs(p) {
			if c.opt.defaultRoot == "" {
				return "", &toolError{msg: fmt.Sprintf("repo_path %q is relative and this session has no working directory.", p),
					hint: "give an absolute repo_path"}
			}
			p = filepath.Join(c.opt.defaultRoot, p)
		}
		return filepath.Clean(p), nil
	}
	c.mu.Lock()
	root := c.root
	c.mu.Unlock()
	if root == "" {
		root = c.opt.defaultRoot
	}
	if root == "" {
		return "", &toolError{msg: "No project: this session has no working directory.", hint: `pass repo_path with the project's absolute path, e.g. canvas(action="init", repo_path="/path/to/repo")`}
	}
	return root, nil
}

// remember makes root the session's project.
func (c *canvas) remember(root string) {
	c.mu.Lock()
	c.root = root
	c.mu.Unlock()
}

// hostError explains an error from the host.
func hostError(err error, root string) *toolError {
	var hinter interface{ Hint() string }
	hint := ""
	if errors.As(err, &hinter) {
		hint = hinter.Hint()
	}
	switch {
	case errors.Is(err, ErrNotInitialized):
		return &toolError{msg: "Not initialized: " + root + " is not an indexed project.",
			hint: `run canvas(action="init", repo_path="` + root + `") first (hooks may also do it for you)`}
	case errors.Is(err, ErrIndexing):
		if hint == "" {
			hint = `wait a few seconds and retry, or call canvas(action="init"), which waits for the index`
		}
		return &toolError{msg: "The project is still being indexed: " + err.Error() + ".", hint: hint}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &toolError{msg: "Cancelled: " + err.Error() + ".", hint: "retry the call"}
	}
	return &toolError{msg: capitalise(err.Error()) + ".", hint: hint}
}
