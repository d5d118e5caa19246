// Package mcpshim is the MCP stdio shim: it connects to the daemon
// (starting it when needed), upgrades the connection with GET /v1/mcp and
// then carries JSON-RPC messages (one per line, the stdio transport)
// between stdin/stdout and the daemon. Stdout carries only the protocol;
// errors go to stderr and to mcp.log.
//
// When the daemon goes away during a session (idle exit, crash, upgrade),
// the shim starts or reaches a new one and replays the client's
// initialize handshake to it, so the client keeps its session: a request
// that was in flight gets an error answer saying to call again, and every
// later one is served by the new daemon.
package mcpshim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// Main runs the shim and returns its exit code.
func Main(stdin io.Reader, stdout, stderr io.Writer) int {
	if err := run(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "ccd-mcp: %v\n", err)
		logf("%v", err)
		return 1
	}
	return 0
}

// message is what the shim reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// session is one client's MCP session across daemon connections.
type session struct {
	out   io.Writer
	outMu sync.Mutex

	mu          sync.Mutex
	initialize  []byte            // the client's initialize request, replayed on reconnect
	initialized []byte            // its initialized notification
	pending     map[string][]byte // requests the daemon has not answered, by id
	swallow     string            // the id of a replayed initialize: its answer is not the client's
}

func (s *session) write(line []byte) error {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	_, err := s.out.Write(line)
	return err
}

// fromClient notes what a client message means for a reconnect.
func (s *session) fromClient(line []byte) {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Method {
	case "initialize":
		s.initialize = append([]byte(nil), line...)
	case "notifications/initialized":
		s.initialized = append([]byte(nil), line...)
	}
	if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
		s.pending[string(m.ID)] = append([]byte(nil), line...)
	}
}

// fromDaemon notes an answer and says whether the client should see it.
func (s *session) fromDaemon(line []byte) bool {
	var m message
	if json.Unmarshal(line, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.swallow != "" && string(m.ID) == s.swallow {
		s.swallow = ""
		delete(s.pending, string(m.ID))
		return false
	}
	delete(s.pending, string(m.ID))
	return true
}

func run(stdin io.Reader, stdout io.Writer) error {
	s := &session{out: stdout, pending: map[string][]byte{}}
	lines := make(chan []byte)
	stdinErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(stdin, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				stdinErr <- err
				close(lines)
				return
			}
		}
	}()
	var held []byte // the client message that finds the daemon gone
	for first := true; ; first = false {
		conn, br, err := connect()
		if err != nil {
			return err
		}
		if !first {
			if err := s.resume(conn); err != nil {
				conn.Close()
				return err
			}
		}
		if held != nil {
			s.fromClient(held)
			if _, err := conn.Write(held); err != nil {
				conn.Close()
				return fmt.Errorf("send to the new daemon: %w", err)
			}
			held = nil
		}
		done, err := s.pipe(conn, br, lines)
		conn.Close()
		if done {
			if err == nil {
				err = <-stdinErr
			}
			return err
		}
		// The daemon went away (ccd stop, idle exit, a crash, an
		// upgrade). A new one is reached only when the client asks
		// for something: a stopped daemon stays stopped meanwhile.
		logf("the daemon went away (%v); reconnecting at the next message", err)
		line, ok := <-lines
		if !ok {
			return <-stdinErr
		}
		held = line
	}
}

// pipe carries messages until the client closes stdin (done) or the
// daemon's side of the connection ends (not done: reconnect).
func (s *session) pipe(conn *daemonConn, br *bufio.Reader, lines <-chan []byte) (done bool, err error) {
	daemonEnd := make(chan error, 1)
	go func() {
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 && s.fromDaemon(line) {
				if werr := s.write(line); werr != nil {
					daemonEnd <- werr
					return
				}
			}
			if err != nil {
				daemonEnd <- err
				return
			}
		}
	}()
	for {
		// A daemon already gone gets nothing more written to it.
		select {
		case err := <-daemonEnd:
			return false, endErr(err)
		default:
		}
		select {
		case line, ok := <-lines:
			if !ok {
				// The client is done: let the daemon finish what it
				// was asked, then end.
				conn.closeWrite()
				select {
				case <-daemonEnd:
				case <-time.After(30 * time.Second):
				}
				return true, nil
			}
			s.fromClient(line)
			if _, err := conn.Write(line); err != nil {
				return false, err
			}
		case err := <-daemonEnd:
			return false, endErr(err)
		}
	}
}

func endErr(err error) error {
	if errors.Is(err, io.EOF) || isClosed(err) {
		return errors.New("connection closed")
	}
	return err
}

// resume prepares a new daemon connection for a session in progress: the
// client's initialize handshake is replayed (its answer swallowed), then
// the requests the old daemon never answered are sent again, except tool
// calls (the old daemon may have done part of one: a claim recorded
// twice), which get an error answer saying to call again.
func (s *session) resume(conn *daemonConn) error {
	s.mu.Lock()
	var lost []string
	var again [][]byte
	for id, line := range s.pending {
		var m message
		if json.Unmarshal(line, &m) == nil && m.Method != "tools/call" && m.Method != "initialize" {
			again = append(again, line)
			continue
		}
		if m.Method != "initialize" {
			lost = append(lost, id)
		}
	}
	s.pending = map[string][]byte{}
	init, initialized := s.initialize, s.initialized
	if init != nil {
		var m message
		json.Unmarshal(init, &m)
		s.swallow = string(m.ID)
	}
	s.mu.Unlock()
	for _, id := range lost {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"the ccd daemon restarted while answering; call again"}}`+"\n", id)
		if err := s.write([]byte(msg)); err != nil {
			return err
		}
	}
	for _, line := range append([][]byte{init, initialized}, again...) {
		if line == nil {
			continue
		}
		s.fromClient(line)
		if _, err := conn.Write(line); err != nil {
			return fmt.Errorf("replay the session to the new daemon: %w", err)
		}
	}
	logf("reconnected to a new daemon; %d request(s) in flight answered with an error", len(lost))
	return nil
}

// daemonConn is an upgraded connection to the daemon.
type daemonConn struct {
	*os.File
	fd int
}

// closeWrite says the client has nothing more to send (the daemon still
// answers what it was asked).
func (c *daemonConn) closeWrite() { syscall.Shutdown(c.fd, syscall.SHUT_WR) }

// connect reaches (or starts) the daemon and upgrades a connection to MCP.
func connect() (*daemonConn, *bufio.Reader, error) {
	c := wire.Client{Version: wire.Version, Deadline: wire.After(15000 * wire.Millisecond)}
	sock, err := c.Ensure(true)
	if err != nil {
		return nil, nil, fmt.Errorf("connect: %w", err)
	}
	workspace := os.Getenv("CLAUDE_PROJECT_DIR")
	if workspace == "" {
		workspace, _ = os.Getwd()
	}
	fd, rest, err := c.Upgrade(sock, "/v1/mcp", "mcp", "X-Ccd-Workspace", workspace)
	if err != nil {
		return nil, nil, fmt.Errorf("connect %s: %w", sock, err)
	}
	// Non-blocking, so that the runtime's poller serves it: closing the
	// file ends a read waiting on it.
	if err := syscall.SetNonblock(int(fd), true); err != nil {
		syscall.Close(int(fd))
		return nil, nil, fmt.Errorf("connect %s: %w", sock, err)
	}
	conn := &daemonConn{File: os.NewFile(uintptr(fd), "ccd daemon"), fd: int(fd)}
	return conn, bufio.NewReaderSize(io.MultiReader(bytes.NewReader(rest), conn), 64<<10), nil
}

func isClosed(err error) bool { return errors.Is(err, os.ErrClosed) }

func logf(format string, args ...any) {
	wire.AppendLog("mcp.log", "ccd-mcp", fmt.Sprintf(format, args...))
}
