package daemon_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedStoreKeepsDaemon: random bytes in the data pages of a
// workspace's database made bbolt panic in a goroutine of its own and took
// the daemon down with every workspace (issue 17 #1). The real daemon now
// checks the file in a child process (`ccd check-store`) first: it moves
// the file aside, indexes again, and stays up.
func TestDamagedStoreKeepsDaemon(t *testing.T) {
	e := newEnv(t)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/d\n\ngo 1.22\n"), 0o644)
	// A database of a few dozen pages: this package's own sources.
	srcs, _ := filepath.Glob("*.go")
	for _, p := range srcs {
		data, _ := os.ReadFile(p)
		os.WriteFile(filepath.Join(ws, p), data, 0o644)
	}
	if r := e.run(bins.ccd, nil, "init", ws); r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	e.run(bins.ccd, nil, "stop")
	db := filepath.Join(ws, ".codecanvas", "ccd.db")
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	rng := rand.New(rand.NewSource(7))
	junk := make([]byte, 256)
	for off := int64(2 * 4096); off+4096 <= st.Size(); off += 4096 {
		rng.Read(junk)
		f.WriteAt(junk, off+64) // past the page header's first bytes
	}
	f.Close()

	r := e.run(bins.ccd, nil, "init", ws)
	if r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("init on a damaged store: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := e.run(bins.ccd, nil, "status"); r.code != 0 || !strings.Contains(r.stdout, "ccd daemon pid") {
		t.Fatalf("the daemon did not survive: %d %s %s", r.code, r.stdout, r.stderr)
	}
	bad, _ := filepath.Glob(db + ".bad-*")
	if len(bad) != 1 {
		t.Fatalf("damaged database not moved aside: %v", bad)
	}
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(log), "checked apart") {
		t.Errorf("daemon.log does not say why the store was replaced:\n%s", log)
	}
}
