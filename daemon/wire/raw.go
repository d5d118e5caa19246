package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds an answer read by Call.
const maxBody = 64 << 20

// Response is an answer read by Call.
type Response struct {
	Status int
	Header map[string]string // canonical lower-case names
	Body   []byte
}

// Err returns the daemon's error envelope for a non-2xx answer, else nil.
func (r *Response) Err() error {
	if r.Status < 300 {
		return nil
	}
	e := &Error{Status: r.Status}
	if json.Unmarshal(r.Body, e) != nil || e.Message == "" {
		e.Code = "http_" + strconv.Itoa(r.Status)
		e.Message = fmt.Sprintf("daemon answered %d: %s", r.Status, bytes.TrimSpace(r.Body))
	}
	return e
}

// Call sends one HTTP/1.1 request over the socket and reads the whole
// answer. It is deliberately tiny (no net/http): a hook shim starts and
// finishes in a few milliseconds, and net/http's initialisation and client
// machinery would be a large share of that. A dead socket gives an error
// wrapping ErrNoDaemon.
func Call(ctx context.Context, sock, method, path string, body []byte) (*Response, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNoDaemon, sock, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	} else {
		conn.SetDeadline(time.Now().Add(time.Minute))
	}
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: ccd\r\n%s: %s\r\nConnection: close\r\n", method, path, VersionHeader, Version)
	if body != nil {
		fmt.Fprintf(&req, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return readResponse(bufio.NewReader(conn))
}

func readResponse(br *bufio.Reader) (*Response, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "HTTP/1.") {
		return nil, fmt.Errorf("read answer: bad status line %q", strings.TrimSpace(line))
	}
	r := &Response{Header: map[string]string{}}
	if r.Status, err = strconv.Atoi(f[1]); err != nil {
		return nil, fmt.Errorf("read answer: bad status %q", f[1])
	}
	for {
		h, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read answer headers: %w", err)
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		if k, v, ok := strings.Cut(h, ":"); ok {
			r.Header[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	switch {
	case strings.EqualFold(r.Header["transfer-encoding"], "chunked"):
		r.Body, err = readChunked(br)
	case r.Header["content-length"] != "":
		n, cerr := strconv.Atoi(r.Header["content-length"])
		if cerr != nil || n < 0 || n > maxBody {
			return nil, fmt.Errorf("read answer: bad content-length %q", r.Header["content-length"])
		}
		r.Body = make([]byte, n)
		_, err = io.ReadFull(br, r.Body)
	default:
		r.Body, err = io.ReadAll(io.LimitReader(br, maxBody))
	}
	if err != nil {
		return nil, fmt.Errorf("read answer body: %w", err)
	}
	return r, nil
}

func readChunked(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, err := strconv.ParseInt(strings.TrimSpace(strings.SplitN(line, ";", 2)[0]), 16, 64)
		if err != nil || size < 0 || int64(len(out))+size > maxBody {
			return nil, fmt.Errorf("bad chunk size %q", strings.TrimSpace(line))
		}
		if size == 0 {
			return out, nil // trailers, if any, are not needed
		}
		chunk := make([]byte, size+2) // data + CRLF
		if _, err := io.ReadFull(br, chunk); err != nil {
			return nil, err
		}
		out = append(out, chunk[:size]...)
	}
}

// Ping reports whether a daemon answers on the socket.
func Ping(ctx context.Context, sock string) error {
	r, err := Call(ctx, sock, "GET", "/v1/ping", nil)
	if err != nil {
		return err
	}
	return r.Err()
}

// Ensure returns the socket of a running daemon. With autostart, a missing
// daemon is started (`ccd daemon`, see DaemonExe) and awaited until ctx
// expires; concurrent callers start at most one process between them, and
// the daemon's own lock makes sure only one survives in any case.
func Ensure(ctx context.Context, autostart bool) (string, error) {
	sock, err := SocketPath()
	if err != nil {
		return "", err
	}
	if err = Ping(ctx, sock); err == nil || !autostart {
		return sock, err
	}
	if !errors.Is(err, ErrNoDaemon) {
		return "", err
	}
	if err := spawn(); err != nil {
		return "", err
	}
	wait := 5 * time.Millisecond
	for {
		if err = Ping(ctx, sock); err == nil {
			return sock, nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("daemon did not start in time (see the log in the state dir): %w", err)
		case <-time.After(wait):
		}
		if wait < 100*time.Millisecond {
			wait *= 2
		}
	}
}
