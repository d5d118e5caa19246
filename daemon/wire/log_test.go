package wire

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAppendLog(t *testing.T) {
	home := filepath.Join(t.TempDir(), "state", "dir")
	t.Setenv("CCD_HOME", home)
	AppendLog("hook.log", "ccd-hook", "first: cause")
	AppendLog("hook.log", "ccd-hook", "second")
	b, err := os.ReadFile(filepath.Join(home, "hook.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines: %q", b)
	}
	for i, want := range []string{" ccd-hook: first: cause", " ccd-hook: second"} {
		ts, rest, _ := strings.Cut(lines[i], " ")
		if tm, err := time.Parse(time.RFC3339Nano, ts); err != nil || time.Since(tm).Abs() > time.Minute || " "+rest != want {
			t.Errorf("line %q: %v", lines[i], err)
		}
	}
	if fi, _ := os.Stat(home); fi == nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode: %v", fi)
	}
	if fi, _ := os.Stat(filepath.Join(home, "hook.log")); fi == nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode: %v", fi)
	}
	// An unwritable state dir is not the caller's problem.
	t.Setenv("CCD_HOME", "/proc/no/such/dir")
	AppendLog("hook.log", "ccd-hook", "lost")
}
