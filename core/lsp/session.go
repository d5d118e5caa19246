package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// State is a session's lifecycle state.
type State int

// Session states.
const (
	// Stopped: not running (never started, stopped when idle, or by Stop).
	// The next request starts it.
	Stopped State = iota
	// Starting: the process runs and initialize is under way.
	Starting
	// Ready: initialized; requests are served.
	Ready
	// Crashed: the server failed to start or exited on its own. The next
	// request after the backoff restarts it.
	Crashed
)

func (s State) String() string {
	switch s {
	case Stopped:
		return "stopped"
	case Starting:
		return "starting"
	case Ready:
		return "ready"
	case Crashed:
		return "crashed"
	}
	return "unknown"
}

// MarshalText renders the state by name (for JSON status answers).
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Status is a snapshot of a session, for `ccd doctor` and `ccd status`.
type Status struct {
	Language string   `json:"language"`
	Server   string   `json:"server"`
	Root     string   `json:"root"`
	Command  []string `json:"command"`
	Path     string   `json:"path"`
	Version  string   `json:"version,omitempty"`
	State    State    `json:"state"`
	// Indexing lists the titles of the server's work-done progress under
	// way (e.g. gopls "Loading packages"); empty when the server is idle.
	Indexing []string `json:"indexing,omitempty"`
	Pid      int      `json:"pid,omitempty"`
	// RSS is the resident memory of the server's process tree, in bytes.
	RSS      int64  `json:"rss,omitempty"`
	OpenDocs int    `json:"open_docs,omitempty"`
	Requests uint64 `json:"requests"`
	Failures uint64 `json:"failures"`
	// Cancelled counts the requests of the running server given up on
	// ($/cancelRequest sent).
	Cancelled uint64    `json:"cancelled,omitempty"`
	Restarts  int       `json:"restarts"`
	LastError string    `json:"last_error,omitempty"`
	StartedAt time.Time `json:"started_at,omitzero"`
	LastUsed  time.Time `json:"last_used,omitzero"`
	// RetryAt is when a crashed server may be restarted.
	RetryAt time.Time `json:"retry_at,omitzero"`
	// Log holds the server's last error and warning messages.
	Log []string `json:"log,omitempty"`
}

// Session is the language server of one language for one workspace root.
// It survives restarts of the server process: requests start the server
// when needed (after the backoff, when it crashed). Safe for concurrent
// use.
type Session struct {
	m       *Manager
	spec    ServerSpec
	path    string
	version string
	root    string

	mu        sync.Mutex
	cl        *client
	state     State
	starting  chan struct{} // closed when the start under way ends
	abort     context.CancelFunc
	lastErr   string
	crashes   int // consecutive
	restarts  int
	retryAt   time.Time
	lastUsed  time.Time
	inflight  int
	requests  uint64
	failures  uint64
	closed    bool
	everStart bool
}

// Language returns the session's language key.
func (s *Session) Language() string { return s.spec.Language }

// Root returns the session's absolute workspace root.
func (s *Session) Root() string { return s.root }

// Spec returns the server spec the session runs.
func (s *Session) Spec() ServerSpec { return s.spec }

// Start makes sure the server runs and is initialized, waiting at most
// until ctx ends (the start itself goes on, bounded by StartTimeout).
func (s *Session) Start(ctx context.Context) error {
	_, err := s.get(ctx)
	return err
}

// get returns the running client, starting the server when needed.
func (s *Session) get(ctx context.Context) (*client, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, ErrClosed
		}
		if s.cl != nil && !s.cl.proc.exited() {
			c := s.cl
			s.lastUsed = time.Now()
			s.mu.Unlock()
			return c, nil
		}
		if s.starting == nil && s.state == Crashed && time.Now().Before(s.retryAt) {
			err := fmt.Errorf("%s crashed (%s); next restart in %s", s.spec.DisplayName(), s.lastErr,
				time.Until(s.retryAt).Round(100*time.Millisecond))
			s.mu.Unlock()
			return nil, err
		}
		if s.starting == nil {
			s.starting = make(chan struct{})
			if s.everStart {
				s.restarts++
			}
			s.everStart = true
			s.state = Starting
			ctx, cancel := context.WithTimeout(context.Background(), s.m.opt.StartTimeout)
			s.abort = cancel
			go s.start(ctx, s.starting)
		}
		ch := s.starting
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: waiting for start: %w", s.spec.DisplayName(), ctx.Err())
		}
		s.mu.Lock()
		failed := s.cl == nil && s.state == Crashed
		msg := s.lastErr
		s.mu.Unlock()
		if failed {
			return nil, fmt.Errorf("%s failed to start: %s", s.spec.DisplayName(), msg)
		}
	}
}

// start runs one start attempt, independent of any caller's context.
func (s *Session) start(ctx context.Context, done chan struct{}) {
	c, err := startClient(ctx, s.spec, s.path, s.root, s.m.opt.Logf)
	s.mu.Lock()
	defer func() {
		s.abort()
		s.starting, s.abort = nil, nil
		s.mu.Unlock()
		close(done)
	}()
	if err != nil && s.closed {
		s.state, s.lastErr = Stopped, err.Error()
		return
	}
	if err != nil {
		s.crashed(err.Error(), 0)
		s.m.logf("lsp %s %s: %v", s.spec.DisplayName(), s.root, err)
		return
	}
	if s.closed {
		go c.shutdown(s.m.opt.ShutdownGrace)
		s.state = Stopped
		return
	}
	s.cl, s.state, s.lastErr = c, Ready, ""
	go s.watch(c)
}

// crashed records a failure; s.mu is held.
func (s *Session) crashed(msg string, ran time.Duration) {
	if ran > 5*time.Minute {
		s.crashes = 0
	}
	s.crashes++
	s.state, s.lastErr = Crashed, msg
	back := s.m.opt.RestartBackoff
	for i := 1; i < s.crashes && back < s.m.opt.MaxBackoff; i++ {
		back *= 2
	}
	if back > s.m.opt.MaxBackoff {
		back = s.m.opt.MaxBackoff
	}
	s.retryAt = time.Now().Add(back)
}

// watch notices a server that exits on its own.
func (s *Session) watch(c *client) {
	<-c.proc.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cl != c {
		return // stopped on purpose
	}
	s.cl = nil
	c.conn.Close()
	s.crashed("server exited unexpectedly: "+c.proc.exitReason(), time.Since(c.started))
	s.m.logf("lsp %s %s: %s", s.spec.DisplayName(), s.root, s.lastErr)
}

// Stop shuts the server down (it starts again on the next request).
func (s *Session) Stop() { s.stop(false) }

func (s *Session) stop(final bool) {
	s.mu.Lock()
	c := s.cl
	s.cl = nil
	var starting chan struct{}
	if final {
		s.closed = true
		if s.abort != nil {
			s.abort() // a start under way gives up and kills its process
			starting = s.starting
		}
	}
	if s.state != Crashed || c != nil {
		s.state = Stopped
	}
	s.mu.Unlock()
	if c != nil {
		c.shutdown(s.m.opt.ShutdownGrace)
	}
	if starting != nil {
		<-starting
	}
}

// idleFor returns how long a running session has been unused (0 when it
// is not running or busy).
func (s *Session) idleFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cl == nil || s.inflight > 0 {
		return 0
	}
	return time.Since(s.lastUsed)
}

// Status returns a snapshot of the session.
func (s *Session) Status() Status {
	s.mu.Lock()
	st := Status{Language: s.spec.Language, Server: s.spec.DisplayName(), Root: s.root, Command: s.spec.Command,
		Path: s.path, Version: s.version, State: s.state, Requests: s.requests, Failures: s.failures,
		Restarts: s.restarts, LastError: s.lastErr, LastUsed: s.lastUsed}
	if s.state == Crashed {
		st.RetryAt = s.retryAt
	}
	c := s.cl
	s.mu.Unlock()
	if c != nil {
		st.Pid = c.proc.pid()
		st.RSS = processTreeRSS(st.Pid)
		st.StartedAt = c.started
		st.Indexing = c.busy()
		st.OpenDocs = c.openDocs()
		st.Cancelled = c.cancels.Load()
		c.mu.Lock()
		st.Log = append([]string(nil), c.logs...)
		c.mu.Unlock()
	}
	return st
}

// Ready reports whether the server is running, initialized and reports no
// work in progress.
func (s *Session) Ready() bool {
	s.mu.Lock()
	c := s.cl
	s.mu.Unlock()
	return c != nil && c.ready()
}

// WaitReady starts the server if needed and waits until it reports no work
// in progress (e.g. gopls has loaded the workspace), or ctx ends.
func (s *Session) WaitReady(ctx context.Context) error {
	c, err := s.get(ctx)
	if err != nil {
		return err
	}
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for !c.ready() {
		if c.proc.exited() {
			return fmt.Errorf("%s exited while loading: %s", s.spec.DisplayName(), c.proc.exitReason())
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: waiting until ready (%v): %w", s.spec.DisplayName(), c.busy(), ctx.Err())
		case <-t.C:
		}
	}
	return nil
}

// Supports reports whether the running server announced a capability
// ("definitionProvider", "implementationProvider", ...). It starts the
// server if needed.
func (s *Session) Supports(ctx context.Context, capability string) (bool, error) {
	c, err := s.get(ctx)
	if err != nil {
		return false, err
	}
	return c.supports(capability), nil
}

// abs resolves a file given absolute or relative to the root.
func (s *Session) abs(file string) string {
	if filepath.IsAbs(file) {
		return filepath.Clean(file)
	}
	return filepath.Join(s.root, filepath.FromSlash(file))
}

// ErrUnsupported is wrapped by errors for requests the server does not
// support.
var ErrUnsupported = errors.New("not supported by the language server")

// do runs one request with the manager's request budget, bookkeeping and
// the client the session has now.
func (s *Session) do(ctx context.Context, fn func(ctx context.Context, c *client) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.m.opt.RequestTimeout)
	defer cancel()
	s.mu.Lock()
	s.inflight++
	s.requests++
	s.mu.Unlock()
	c, err := s.get(ctx)
	if err == nil {
		err = fn(ctx, c)
	}
	s.mu.Lock()
	s.inflight--
	s.lastUsed = time.Now()
	if err != nil && !errors.Is(err, ErrUnsupported) {
		s.failures++
	}
	s.mu.Unlock()
	return err
}

// document returns a file's URI, opening the file on the server first
// unless the server reads files from disk (ServerSpec.NoOpen).
func (s *Session) document(ctx context.Context, c *client, file string) (string, error) {
	abs := s.abs(file)
	if s.spec.NoOpen {
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("open document: %w", err)
		}
		return fileURI(abs), nil
	}
	return c.ensureOpen(ctx, abs)
}

// positionRequest opens the file if needed and asks method at pos.
func (s *Session) positionRequest(ctx context.Context, method, capability, file string, pos protocol.Position) ([]Location, error) {
	var locs []Location
	err := s.do(ctx, func(ctx context.Context, c *client) error {
		if !c.supports(capability) {
			return fmt.Errorf("%s: %s: %w", s.spec.DisplayName(), method, ErrUnsupported)
		}
		uri, err := s.document(ctx, c, file)
		if err != nil {
			return err
		}
		raw, err := c.call(ctx, method, protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos})
		if err != nil {
			return err
		}
		locs, err = ParseLocations(raw)
		return err
	})
	return locs, err
}

// Definition asks where the symbol at pos (0-based line, UTF-16
// character) of file is defined. The file (absolute or relative to the
// root) is opened from disk unless it is open.
func (s *Session) Definition(ctx context.Context, file string, pos protocol.Position) ([]Location, error) {
	return s.positionRequest(ctx, "textDocument/definition", "definitionProvider", file, pos)
}

// Implementation asks for the implementations of the interface, interface
// method or abstract member at pos.
func (s *Session) Implementation(ctx context.Context, file string, pos protocol.Position) ([]Location, error) {
	return s.positionRequest(ctx, "textDocument/implementation", "implementationProvider", file, pos)
}

// DocumentSymbols returns the outline of a file.
func (s *Session) DocumentSymbols(ctx context.Context, file string) ([]Symbol, error) {
	var syms []Symbol
	err := s.do(ctx, func(ctx context.Context, c *client) error {
		if !c.supports("documentSymbolProvider") {
			return fmt.Errorf("%s: documentSymbol: %w", s.spec.DisplayName(), ErrUnsupported)
		}
		uri, err := s.document(ctx, c, file)
		if err != nil {
			return err
		}
		raw, err := c.call(ctx, "textDocument/documentSymbol", protocol.DocumentSymbolParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
		if err != nil {
			return err
		}
		syms, err = ParseSymbols(raw)
		return err
	})
	return syms, err
}

// Open tells the server a file's current text (didOpen, or didChange when
// it is already open).
func (s *Session) Open(ctx context.Context, file, text string) error {
	return s.do(ctx, func(ctx context.Context, c *client) error { return c.open(ctx, s.abs(file), text) })
}

// Change replaces the text of an open file; a file that is not open is
// left alone (the server reads it from disk).
func (s *Session) Change(ctx context.Context, file, text string) error {
	return s.do(ctx, func(ctx context.Context, c *client) error { return c.change(ctx, s.abs(file), text, 0) })
}

// CloseDocument closes an open file (didClose). Nothing happens when the
// server is not running.
func (s *Session) CloseDocument(ctx context.Context, file string) error {
	s.mu.Lock()
	c := s.cl
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.closeDoc(ctx, s.abs(file))
}

// FilesChanged tells a running server that files changed on disk
// (workspace/didChangeWatchedFiles: changed, or deleted when the file is
// gone). Nothing is sent when the server is not running: it reads the
// disk when it starts.
func (s *Session) FilesChanged(ctx context.Context, files []string) error {
	s.mu.Lock()
	c := s.cl
	s.mu.Unlock()
	if c == nil || len(files) == 0 {
		return nil
	}
	type event struct {
		URI  string `json:"uri"`
		Type int    `json:"type"`
	}
	evs := make([]event, 0, len(files))
	for _, f := range files {
		abs := s.abs(f)
		typ := 2 // changed
		if _, err := os.Stat(abs); err != nil {
			typ = 3 // deleted
		}
		evs = append(evs, event{URI: fileURI(abs), Type: typ})
	}
	return c.notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": evs})
}

// RawRequest sends any request to the server (starting it if needed) and
// returns the raw result, for requests this package has no helper for.
func (s *Session) RawRequest(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var raw json.RawMessage
	err := s.do(ctx, func(ctx context.Context, c *client) (err error) {
		raw, err = c.call(ctx, method, params)
		return err
	})
	return raw, err
}
