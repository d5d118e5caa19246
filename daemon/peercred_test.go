package daemon

import (
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPeerUIDListenerRejectsOtherUsers connects to a listener that expects
// another uid (standing in for a connection from another user, which a
// test cannot open as root): the connection must be closed unserved; the
// same listener expecting our uid serves it.
func TestPeerUIDListenerRejectsOtherUsers(t *testing.T) {
	for _, c := range []struct {
		name   string
		uid    int
		served bool
	}{
		{"same user", os.Getuid(), true},
		{"other user", os.Getuid() + 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sock := filepath.Join(t.TempDir(), "s")
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			l := peerUIDListener{Listener: ln, uid: c.uid, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			defer l.Close()
			go func() {
				for {
					conn, err := l.Accept()
					if err != nil {
						return
					}
					conn.Write([]byte("hello"))
					conn.Close()
				}
			}()
			conn, err := net.Dial("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetReadDeadline(time.Now().Add(2 * time.Second))
			b, err := io.ReadAll(conn)
			if served := string(b) == "hello"; served != c.served {
				t.Errorf("served=%v (read %q, %v), want %v", served, b, err, c.served)
			}
		})
	}
}
