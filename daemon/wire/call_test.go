package wire

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const envelope = `{"code":"not_found","message":"nope","hint":"try"}`

// serve answers every connection on a fresh socket with raw, after
// reading the request, and returns the socket and the requests seen.
func serve(t *testing.T, raw string) (string, <-chan *http.Request) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	reqs := make(chan *http.Request, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(c))
			if err == nil {
				req.Body.Close()
				reqs <- req
			}
			io.WriteString(c, raw)
			c.Close()
		}
	}()
	return sock, reqs
}

func TestCall(t *testing.T) {
	cases := []struct {
		name, raw string
		status    int
		body      string
		fail      bool
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Ccd-Fresh: true\r\n\r\nhello", 200, "hello", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n", 200, "hello world", false},
		{"until close", "HTTP/1.1 200 OK\r\n\r\nall of it", 200, "all of it", false},
		{"empty", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 200, "", false},
		{"error envelope", "HTTP/1.1 404 Not Found\r\nContent-Length: " + strconv.Itoa(len(envelope)) + "\r\n\r\n" + envelope, 404, "", false},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", 0, "", true},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0, "", true},
		{"bad status line", "SSH-2.0-OpenSSH\r\n\r\n", 0, "", true},
		{"huge length", "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n", 0, "", true},
		{"no headers end", "HTTP/1.1 200 OK\r\nContent-Length: 1", 0, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sock, reqs := serve(t, c.raw)
			r, err := Client{Version: Version}.Call(sock, "POST", "/v1/x?a=b", []byte(`{"k":1}`))
			if c.fail {
				if err == nil {
					t.Fatalf("want an error, got %+v", r)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			req := <-reqs
			if req.Method != "POST" || req.URL.String() != "/v1/x?a=b" || req.Header.Get(VersionHeader) != Version || req.ContentLength != 7 {
				t.Errorf("request: %s %s %v", req.Method, req.URL, req.Header)
			}
			if r.Status != c.status {
				t.Errorf("status %d, want %d", r.Status, c.status)
			}
			if c.status == 200 && string(r.Body) != c.body {
				t.Errorf("body %q, want %q", r.Body, c.body)
			}
			if c.name == "content-length" && r.Header["x-ccd-fresh"] != "true" {
				t.Errorf("headers: %v", r.Header)
			}
			var e *Error
			if c.status == 404 {
				if err := r.Err(); !errors.As(err, &e) || e.Code != "not_found" || e.Hint != "try" || !strings.Contains(err.Error(), "Hint: try") {
					t.Errorf("envelope: %v", err)
				}
			} else if r.Err() != nil {
				t.Errorf("unexpected error: %v", r.Err())
			}
		})
	}
}

func TestCallNoDaemon(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none")
	if _, err := (Client{}).Call(sock, "GET", "/v1/ping", nil); !errors.Is(err, ErrNoDaemon) {
		t.Fatalf("want ErrNoDaemon, got %v", err)
	}
}

// TestCallHonoursDeadline: a daemon that accepts and never answers
// costs the caller its deadline, not more.
func TestCallHonoursDeadline(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t0 := time.Now()
	if _, err := (Client{Deadline: After(100 * Millisecond)}).Call(sock, "GET", "/v1/ping", nil); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("want a timeout, got %v", err)
	}
	if took := time.Since(t0); took < 100*time.Millisecond || took > 5*time.Second {
		t.Fatalf("returned after %s, want the deadline (100ms)", took)
	}
}

func TestSocketPathLimit(t *testing.T) {
	t.Setenv("CCD_SOCKET", "/tmp/"+strings.Repeat("x", 120))
	if _, err := SocketPath(); err == nil || !strings.Contains(err.Error(), "CCD_SOCKET") {
		t.Fatalf("want an error naming the fix, got %v", err)
	}
	t.Setenv("CCD_SOCKET", "")
	t.Setenv("CCD_HOME", "/tmp/h")
	if p, err := SocketPath(); err != nil || p != "/tmp/h/ccd.sock" {
		t.Fatalf("%q %v", p, err)
	}
	t.Setenv("CCD_HOME", "")
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/7")
	if d, _ := StateDir(); d != "/run/user/7/ccd" {
		t.Fatalf("state dir %q", d)
	}
}
