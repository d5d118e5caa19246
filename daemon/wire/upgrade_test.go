package wire

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUpgrade: a 101 answer hands over the connection with the bytes that
// came after its headers, and no timeout left on it; a refusal is the
// daemon's envelope.
func TestUpgrade(t *testing.T) {
	cases := []struct {
		name, answer string
		wantErr      string
	}{
		{"switched", "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: mcp\r\n\r\nfirst\n", ""},
		{"refused", "HTTP/1.1 400 Bad Request\r\nContent-Length: 52\r\n\r\n" + `{"code":"bad_request","message":"no","hint":"retry"}`, "refused the upgrade to mcp: no"},
		{"closed", "", "closed the connection without answering"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sock := filepath.Join(t.TempDir(), "s")
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			reqs := make(chan *http.Request, 1)
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
				br := bufio.NewReader(conn)
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				reqs <- req
				io.WriteString(conn, c.answer)
				if strings.HasPrefix(c.answer, "HTTP/1.1 101") {
					line, _ := br.ReadString('\n') // echo one line in the new protocol
					io.WriteString(conn, "echo "+line)
				}
			}()
			fd, rest, err := Client{Version: "9.9", Deadline: After(5000 * Millisecond)}.Upgrade(sock, "/v1/mcp", "mcp", "X-Ccd-Workspace", "/w")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(int(fd))
			req := <-reqs
			if req.Header.Get("Upgrade") != "mcp" || req.Header.Get("Connection") != "Upgrade" || req.Header.Get(VersionHeader) != "9.9" ||
				req.Header.Get("X-Ccd-Workspace") != "/w" || req.URL.Path != "/v1/mcp" {
				t.Errorf("request: %s %v", req.URL, req.Header)
			}
			if string(rest) != "first\n" {
				t.Errorf("bytes after the headers: %q", rest)
			}
			time.Sleep(10 * time.Millisecond)
			if _, err := fd.Write([]byte("ping\n")); err != nil {
				t.Fatal(err)
			}
			got, err := fd.ReadAll(1 << 10)
			if err != nil || string(got) != "echo ping\n" {
				t.Errorf("after the upgrade: %q, %v", got, err)
			}
		})
	}
}
