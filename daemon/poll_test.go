package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPollingWithoutInotify: with no inotify instance to be had, the
// workspace still follows edits (by polling), and status says so (issue
// 17 #10: it never followed edits while init said "watching").
func TestPollingWithoutInotify(t *testing.T) {
	e := newEnv(t, "CCD_TEST_NO_INOTIFY=1")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("def old():\n    return 1\n"), 0o644)
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "polling") {
		t.Errorf("status does not say the tree is polled:\n%s", r.stdout)
	}
	os.WriteFile(filepath.Join(dir, "b.py"), []byte("def brand_new():\n    return old()\n"), 0o644)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if r := e.run(bins.ccd, nil, "symbols", "--root", dir, "brand_new"); strings.Contains(r.stdout, "b.py") {
			return
		}
	}
	t.Fatalf("an edit was never picked up without inotify")
}
