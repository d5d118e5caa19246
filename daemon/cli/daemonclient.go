package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// daemonClient talks to the daemon on its socket through package wire
// (one request per connection), with JSON in and out.
type daemonClient struct {
	Socket string
	// deadline bounds each call (0: none: an answer may wait for indexing).
	deadline time.Duration
}

// connect returns a client for the running daemon, starting one first
// when autostart is set, waiting up to wait for it.
func connect(wait time.Duration, autostart bool) (*daemonClient, error) {
	sock, err := (wire.Client{Version: wire.Version, Deadline: wire.After(int64(wait))}).Ensure(autostart)
	if err != nil {
		return nil, err
	}
	return &daemonClient{Socket: sock}, nil
}

// within returns a copy of c whose calls give up after d.
func (c *daemonClient) within(d time.Duration) *daemonClient {
	cc := *c
	cc.deadline = d
	return &cc
}

// answer sends a request (in, when not nil, as JSON) and returns the
// answer, an error for a daemon error (*wire.Error) or a dead socket
// (wrapping wire.ErrNoDaemon).
func (c *daemonClient) answer(method, path string, in any) (*wire.Response, error) {
	var body []byte
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		body = b
	}
	wc := wire.Client{Version: wire.Version}
	if c.deadline > 0 {
		wc.Deadline = wire.After(int64(c.deadline))
	}
	r, err := wc.Call(c.Socket, method, path, body)
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

// do is answer decoding the answer's JSON into out (nil: discarded; an
// io.Writer gets the raw body).
func (c *daemonClient) do(method, path string, in, out any) error {
	r, err := c.answer(method, path, in)
	if err != nil || out == nil {
		return err
	}
	if w, ok := out.(io.Writer); ok {
		_, err = w.Write(r.Body)
		return err
	}
	if err := json.Unmarshal(r.Body, out); err != nil {
		return fmt.Errorf("decode %s %s: %w", method, path, err)
	}
	return nil
}

// ping reports whether the daemon answers.
func (c *daemonClient) ping() error {
	_, err := c.answer("GET", "/v1/ping", nil)
	return err
}
