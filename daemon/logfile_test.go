package daemon

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestLogRotation(t *testing.T) {
	for _, c := range []struct {
		name     string
		existing int // bytes in daemon.log before the open
		lines    int // 100-byte lines written
		max      int64
		wantLog  int // bytes in daemon.log after
		wantOld  int // bytes in daemon.log.1 after (-1: none)
	}{
		{"small log stays", 0, 5, 1000, 500, -1},
		{"rotates when full", 0, 15, 1000, 500, 1000},
		{"rotates twice, keeps one old", 0, 25, 1000, 500, 1000},
		{"too big at start", 5000, 1, 1000, 100, 5000},
		{"grows to the limit exactly", 0, 10, 1000, 1000, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "daemon.log")
			if c.existing > 0 {
				os.WriteFile(p, bytes.Repeat([]byte("x"), c.existing), 0o600)
			}
			l, err := openLog(p, c.max)
			if err != nil {
				t.Fatal(err)
			}
			line := bytes.Repeat([]byte("y"), 99)
			for i := 0; i < c.lines; i++ {
				if _, err := fmt.Fprintf(l, "%s\n", line); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
			if fi, err := os.Stat(p); err != nil || fi.Size() != int64(c.wantLog) {
				t.Errorf("daemon.log: %v, want %d bytes", fi.Size(), c.wantLog)
			}
			fi, err := os.Stat(p + ".1")
			switch {
			case c.wantOld < 0 && err == nil:
				t.Errorf("daemon.log.1 exists (%d bytes), want none", fi.Size())
			case c.wantOld >= 0 && (err != nil || fi.Size() != int64(c.wantOld)):
				t.Errorf("daemon.log.1: %v %v, want %d bytes", fi, err, c.wantOld)
			}
		})
	}
}
