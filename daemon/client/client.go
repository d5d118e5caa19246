// Package client is the CLI's client for the daemon: JSON requests over
// the unix socket with net/http. The shims use the leaner wire package
// instead (no net/http, a faster start).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// Client talks HTTP/1.1 to the daemon over its unix socket.
type Client struct {
	Socket string
	HTTP   *http.Client
}

// New returns a client for the socket at path. Requests have no
// overall timeout; pass a context with a deadline.
func New(path string) *Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return nil, err
			}
			if err := wire.CheckConn(c); err != nil {
				c.Close()
				return nil, err
			}
			return c, nil
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

// HeaderReceiver is an out value of Do that wants the answer's headers.
type HeaderReceiver interface{ ReceiveHeader(http.Header) }

// Do sends a JSON request (in may be nil) and decodes a JSON answer into
// out (which may be nil, or an io.Writer for the raw body; a
// HeaderReceiver also gets the headers). A daemon error
// comes back as *wire.Error; a dead socket as an error wrapping
// wire.ErrNoDaemon.
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
	if hr, ok := out.(HeaderReceiver); ok {
		hr.ReceiveHeader(resp.Header)
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
	req.Header.Set(wire.VersionHeader, wire.Version)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		var ne *net.OpError
		if errors.As(err, &ne) && ne.Op == "dial" {
			return nil, fmt.Errorf("%w at %s: %v", wire.ErrNoDaemon, c.Socket, ne.Err)
		}
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return resp, nil
}

func decodeError(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return (&wire.Response{Status: resp.StatusCode, Body: b}).Err()
}

// Connect returns a client for the running daemon, starting one first when
// autostart is set (see wire.Ensure).
func Connect(ctx context.Context, autostart bool) (*Client, error) {
	sock, err := wire.Ensure(ctx, autostart)
	if err != nil {
		return nil, err
	}
	return New(sock), nil
}
