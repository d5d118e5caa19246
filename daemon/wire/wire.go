// Package wire is the client side of the daemon's socket: where the state
// directory and socket live, how to dial them, the request/response
// envelope, and starting the daemon when it is not running. It is pure Go
// (no cgo), so the shims stay small and static.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// Version is the protocol/binary version every request carries. A daemon
// older than its client hands over to a new one.
var Version = "0.1.0"

// VersionHeader carries the client's version on every request.
const VersionHeader = "X-Ccd-Version"

// maxSocketPath is the usable length of a unix socket path on Linux
// (sun_path is 108 bytes including the terminating NUL).
const maxSocketPath = 107

// StateDir is where the daemon keeps its socket, lock and log: $CCD_HOME,
// else $XDG_RUNTIME_DIR/ccd, else ~/.cache/ccd.
func StateDir() (string, error) {
	if d := os.Getenv("CCD_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "ccd"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state dir: no $CCD_HOME, $XDG_RUNTIME_DIR or home directory: %w", err)
	}
	return filepath.Join(home, ".cache", "ccd"), nil
}

// SocketPath is $CCD_SOCKET, else ccd.sock in the state directory. It
// fails with advice when the path is too long for a unix socket.
func SocketPath() (string, error) {
	p := os.Getenv("CCD_SOCKET")
	if p == "" {
		dir, err := StateDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(dir, "ccd.sock")
	}
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("socket path %s is %d bytes, over the unix socket limit of %d: set CCD_SOCKET (or CCD_HOME) to a shorter path",
			p, len(p), maxSocketPath)
	}
	return p, nil
}

// Error is the daemon's error envelope.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + "\nHint: " + e.Hint
	}
	return e.Message
}

// ErrNoDaemon means nothing listens on the socket.
var ErrNoDaemon = errors.New("no daemon is running")

// Client talks HTTP/1.1 to the daemon over its unix socket.
type Client struct {
	Socket string
	HTTP   *http.Client
}

// NewClient returns a client for the socket at path. Requests have no
// overall timeout; pass a context with a deadline.
func NewClient(path string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
		MaxIdleConns:    4,
		IdleConnTimeout: 30 * time.Second,
	}
	return &Client{Socket: path, HTTP: &http.Client{Transport: tr}}
}

// Ping reports whether a daemon answers on the socket.
func (c *Client) Ping(ctx context.Context) error {
	return c.Do(ctx, http.MethodGet, "/v1/ping", nil, nil)
}

// Do sends a JSON request (in may be nil) and decodes a JSON answer into
// out (which may be nil). A daemon error comes back as *Error; a dead
// socket as an error wrapping ErrNoDaemon.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) error {
	resp, err := c.Raw(ctx, method, path, in)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return decodeError(resp)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if w, ok := out.(io.Writer); ok {
		_, err = io.Copy(w, resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return nil
}

// Raw sends a request and returns the response unread.
func (c *Client) Raw(ctx context.Context, method, path string, in any) (*http.Response, error) {
	var body io.Reader
	if in != nil {
		if r, ok := in.(io.Reader); ok {
			body = r
		} else {
			b, err := json.Marshal(in)
			if err != nil {
				return nil, fmt.Errorf("encode %s %s: %w", method, path, err)
			}
			body = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://ccd"+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set(VersionHeader, Version)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		var ne *net.OpError
		if errors.As(err, &ne) && ne.Op == "dial" {
			return nil, fmt.Errorf("%w at %s: %v", ErrNoDaemon, c.Socket, ne.Err)
		}
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return resp, nil
}

func decodeError(resp *http.Response) error {
	e := &Error{Status: resp.StatusCode}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if json.Unmarshal(b, e) != nil || e.Message == "" {
		e.Code = "http_" + fmt.Sprint(resp.StatusCode)
		e.Message = fmt.Sprintf("daemon answered %s: %s", resp.Status, bytes.TrimSpace(b))
	}
	return e
}
