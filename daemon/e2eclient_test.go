package daemon_test

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

// testClient talks HTTP/1.1 to the daemon over its unix socket with
// kept-alive connections, for the end-to-end tests, which stream answers
// and read headers and profiles; everything else about the protocol is
// package wire's, which the shims, the CLI and the benchmark harness use.
type testClient struct {
	Socket string
	HTTP   *http.Client
}

// newTestClient returns a client for the socket at path. Requests have no
// overall timeout; pass a context with a deadline.
func newTestClient(path string) *testClient {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, "unix", path)
			if err != nil {
				return nil, err
			}
			if err := checkPeer(c); err != nil {
				c.Close()
				return nil, err
			}
			return c, nil
		},
		MaxIdleConns:    4,
		IdleConnTimeout: 30 * time.Second,
	}
	return &testClient{Socket: path, HTTP: &http.Client{Transport: tr}}
}

// Ping reports whether a daemon answers on the socket.
func (c *testClient) Ping(ctx context.Context) error {
	return c.Do(ctx, http.MethodGet, "/v1/ping", nil, nil)
}

// Do sends a JSON request (in may be nil) and decodes a JSON answer into
// out (which may be nil, or an io.Writer for the raw body). A daemon
// error comes back as *wire.Error; a dead socket as an error wrapping
// wire.ErrNoDaemon.
func (c *testClient) Do(ctx context.Context, method, path string, in, out any) error {
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
func (c *testClient) Raw(ctx context.Context, method, path string, in any) (*http.Response, error) {
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

// checkPeer checks that the daemon end of a unix socket connection runs
// as this user (wire.CheckPeer).
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil
	}
	var perr error
	if err := raw.Control(func(fd uintptr) { perr = wire.CheckPeer(int(fd)) }); err != nil {
		return nil
	}
	return perr
}
