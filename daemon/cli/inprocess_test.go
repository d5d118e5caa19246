package cli_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInProcessWritesNoStore: without a daemon the CLI opens the workspace
// in its own process (daemon/workspace, one-shot) and answers from it, but
// never opens or writes the workspace's store, which a daemon may own, nor
// keeps an artifact it was not asked for.
func TestInProcessWritesNoStore(t *testing.T) {
	t.Setenv("CCD_NO_DAEMON", "1")
	dir := pyFixture(t)
	pic := filepath.Join(t.TempDir(), "arch.svg")
	for _, args := range [][]string{
		{"index", dir},
		{"symbols", "--root", dir, "total"},
		{"impact", "--root", dir, "total"},
		{"render", "architecture", "--root", dir, "-o", pic},
		{"export", dir},
	} {
		runOK(t, args...)
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecanvas")); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(filepath.Join(dir, ".codecanvas"))
		t.Errorf(".codecanvas/ made in-process (%v): %v", err, entries)
	}
	if fi, err := os.Stat(pic); err != nil || fi.Size() == 0 {
		t.Errorf("render -o: %v", err)
	}
}
