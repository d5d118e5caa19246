package wire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// listen opens a unix socket in a fresh directory.
func listen(t *testing.T) (string, *net.UnixListener) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return sock, ln
}

// httpDaemon serves h on a fresh socket with net/http, as the daemon does.
func httpDaemon(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	sock, ln := listen(t)
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sock
}

func TestCallNetHTTP(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MB
	sock := httpDaemon(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/echo":
			if r.Method != "POST" || r.URL.RawQuery != "a=1&b=%2F" || r.Header.Get(VersionHeader) != "9.9.9" ||
				r.Header.Get("Content-Type") != "application/json" || r.ContentLength != int64(len(body)) {
				http.Error(w, "bad request "+r.Method+" "+r.URL.String(), 400)
				return
			}
			w.Write(body) // large: chunked
		case "/small":
			w.Write([]byte(`{"ok":true}`)) // small: Content-Length
		case "/v1/ping":
			w.WriteHeader(200)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			io.WriteString(w, `{"code":"not_found","message":"no endpoint","hint":"see the README"}`)
		}
	})
	c := Client{Version: "9.9.9", Deadline: After(30_000 * Millisecond)}
	r, err := c.Call(sock, "POST", "/echo?a=1&b=%2F", big)
	if err != nil || r.Status != 200 || !bytes.Equal(r.Body, big) {
		t.Fatalf("echo: %v, %+v", err, r)
	}
	if r.Header["transfer-encoding"] != "chunked" {
		t.Errorf("a large answer was not chunked: %v", r.Header)
	}
	r, err = c.Call(sock, "GET", "/small", nil)
	if err != nil || string(r.Body) != `{"ok":true}` || r.Header["content-length"] != "11" {
		t.Fatalf("small: %v %+v", err, r)
	}
	if err := c.Ping(sock); err != nil {
		t.Errorf("ping: %v", err)
	}
	var e *Error
	r, err = c.Call(sock, "GET", "/nope", nil)
	if err != nil || !errors.As(r.Err(), &e) || e.Code != "not_found" || e.Error() != "no endpoint\nHint: see the README" {
		t.Errorf("envelope: %v %v", err, r.Err())
	}
}

// TestCallStopsAtContentLength: the answer is complete at its length;
// the caller does not wait for the daemon to close the connection.
func TestCallStopsAtContentLength(t *testing.T) {
	sock, ln := listen(t)
	release := make(chan struct{})
	defer close(release)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		conn.Read(make([]byte, 4096))
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		<-release // hold the connection open until the test ends
	}()
	r, err := Client{Deadline: After(20_000 * Millisecond)}.Call(sock, "GET", "/x", nil)
	if err != nil || string(r.Body) != "ok" {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestCallFailures(t *testing.T) {
	dir := t.TempDir()
	stale, ln := listen(t)
	ln.SetUnlinkOnClose(false)
	ln.Close() // the socket file stays, nobody listens: ECONNREFUSED

	silent, _ := listen(t) // accepts (in the backlog) and never answers

	hangup, ln2 := listen(t)
	go func() {
		for {
			c, err := ln2.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 4096)) // the request, then hang up
			c.Close()
		}
	}()

	cases := []struct {
		name, sock string
		dl         Deadline
		is         []error
		msg        string
	}{
		{"no socket", filepath.Join(dir, "none.sock"), After(5000 * Millisecond), []error{ErrNoDaemon}, "no such file"},
		{"stale socket", stale, After(5000 * Millisecond), []error{ErrNoDaemon}, "connection refused"},
		{"not a socket", dir, After(5000 * Millisecond), []error{ErrNoDaemon}, "no daemon is running at"},
		{"silent daemon", silent, After(100 * Millisecond), []error{ErrTimeout}, "read answer: timed out"},
		{"deadline already passed", silent, After(-1), []error{ErrTimeout}, "connect " + silent + ": timed out"},
		{"hang-up", hangup, After(5000 * Millisecond), nil, "closed the connection without answering"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Client{Deadline: c.dl}.Call(c.sock, "POST", "/v1/hook", []byte("{}"))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("want an error with %q, got %v", c.msg, err)
			}
			for _, target := range c.is {
				if !errors.Is(err, target) {
					t.Errorf("%v is not %v", err, target)
				}
			}
		})
	}
}

func TestRequestBytes(t *testing.T) {
	got := string(request("POST", "/v1/hook?x=1", "1.2.3", []byte(`{}`)))
	want := "POST /v1/hook?x=1 HTTP/1.1\r\nHost: ccd\r\nX-Ccd-Version: 1.2.3\r\nConnection: close\r\n" +
		"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := string(request("GET", "/v1/ping", "", nil)); got != "GET /v1/ping HTTP/1.1\r\nHost: ccd\r\nConnection: close\r\n\r\n" {
		t.Errorf("no body, no version: %q", got)
	}
}

// TestCallDaemonGoingAway: a daemon killed while its listening socket is
// still open resets connections without answering; that reads as no
// daemon (so callers start one), not as a broken answer.
func TestCallDaemonGoingAway(t *testing.T) {
	t.Run("accepted, then closed unread", func(t *testing.T) {
		sock, ln := listen(t)
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond) // the request arrives, unread
			c.Close()
		}()
		_, err := Client{Deadline: After(5_000 * Millisecond)}.Call(sock, "POST", "/v1/hook", []byte(`{}`))
		if !errors.Is(err, ErrNoDaemon) || !strings.Contains(err.Error(), "went away") {
			t.Fatalf("err = %v, want one wrapping ErrNoDaemon that says the daemon went away", err)
		}
	})
	t.Run("listener closed with the connection pending", func(t *testing.T) {
		sock, ln := listen(t)
		done := make(chan error, 1)
		go func() {
			_, err := Client{Deadline: After(5_000 * Millisecond)}.Call(sock, "GET", "/v1/ping", nil)
			done <- err
		}()
		time.Sleep(50 * time.Millisecond) // connected, in the backlog
		ln.Close()
		if err := <-done; !errors.Is(err, ErrNoDaemon) {
			t.Fatalf("err = %v, want one wrapping ErrNoDaemon", err)
		}
	})
	t.Run("an answer cut short is not mistaken for it", func(t *testing.T) {
		sock, ln := listen(t)
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			c.Read(buf)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))
			c.Close()
		}()
		_, err := Client{Deadline: After(5_000 * Millisecond)}.Call(sock, "GET", "/v1/ping", nil)
		if err == nil || errors.Is(err, ErrNoDaemon) {
			t.Fatalf("err = %v, want a truncated-answer error", err)
		}
	})
}
