package wire

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPeerOfAnotherUser: a socket served by a process of another user is
// refused before anything is sent (issue 17 #17: a fake server received a
// Write event and injected a card).
func TestPeerOfAnotherUser(t *testing.T) {
	dir, err := os.MkdirTemp("/tmp", "peer")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan int, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 64)
			n, _ := c.Read(buf)
			got <- n
			c.Close()
		}
	}()
	// Served by this user: fine.
	c, err := dial(sock, After(2000*Millisecond))
	if err != nil {
		t.Fatalf("own socket refused: %v", err)
	}
	syscall.Close(c.fd)
	<-got
	// As if served by someone else.
	saved := ownUID
	ownUID = saved + 4242
	defer func() { ownUID = saved }()
	_, err = Client{Deadline: After(2000 * Millisecond)}.Call(sock, "POST", "/v1/hook", []byte(`{"secret":"x"}`))
	if err == nil || !strings.Contains(err.Error(), "not by you") {
		t.Fatalf("a stranger's socket was used: %v", err)
	}
	if n := <-got; n != 0 {
		t.Fatalf("the stranger received %d bytes", n)
	}
}

// TestStateDirOfAnotherUser: a state directory that belongs to another
// user is not used (issue 17 #17).
func TestStateDirOfAnotherUser(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CCD_HOME", dir)
	t.Setenv("CCD_SOCKET", "")
	if _, err := SocketPath(); err != nil {
		t.Fatalf("own state dir refused: %v", err)
	}
	saved := ownUID
	ownUID = saved + 4242
	defer func() { ownUID = saved }()
	if _, err := SocketPath(); err == nil || !strings.Contains(err.Error(), "not to you") {
		t.Fatalf("another user's state dir was used: %v", err)
	}
}
