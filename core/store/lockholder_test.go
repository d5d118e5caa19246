package store

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

func TestLockTableHolder(t *testing.T) {
	table := `1: POSIX  ADVISORY  WRITE 900 00:1b:77 0 EOF
2: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF
2: -> FLOCK  ADVISORY  WRITE 4343 08:01:1234567 0 EOF
3: FLOCK  ADVISORY  READ 17 08:01:99 0 EOF
`
	for _, c := range []struct {
		ino  uint64
		want int
	}{{1234567, 4242}, {99, 17}, {77, 900}, {5, 0}} {
		if got := lockTableHolder(bufio.NewScanner(strings.NewReader(table)), c.ino); got != c.want {
			t.Errorf("inode %d: pid %d, want %d", c.ino, got, c.want)
		}
	}
}

// TestLockHolderFindsThisProcess: a lock this process takes is found in
// the kernel's table with this pid.
func TestLockHolderFindsThisProcess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, nil, 0o600)
	if pid, _ := LockHolder(p); pid != 0 {
		t.Fatalf("unlocked file held by %d", pid)
	}
	l := flock.New(p)
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	pid, cmd := LockHolder(p)
	if pid != os.Getpid() || cmd == "" {
		t.Fatalf("holder %d %q, want %d", pid, cmd, os.Getpid())
	}
}
