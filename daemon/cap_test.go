package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkspaceCap: a daemon holds at most CCD_MAX_WORKSPACES workspaces;
// one more is refused with what to do (issue 17 #16).
func TestWorkspaceCap(t *testing.T) {
	e := newEnv(t, "CCD_MAX_WORKSPACES=2")
	var roots []string
	for i := 0; i < 3; i++ {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, "a.py"), []byte("def f():\n    return 1\n"), 0o644)
		roots = append(roots, d)
	}
	for _, d := range roots[:2] {
		if r := e.run(bins.ccd, nil, "init", d); r.code != 0 {
			t.Fatalf("init %s: %+v", d, r)
		}
	}
	r := e.run(bins.ccd, nil, "init", roots[2])
	if r.code == 0 || !strings.Contains(r.stderr, "already holds 2 workspaces") || !strings.Contains(r.stderr, "CCD_MAX_WORKSPACES") {
		t.Fatalf("third workspace: %+v", r)
	}
	// A root already held is not a new one.
	if r := e.run(bins.ccd, nil, "init", roots[0]); r.code != 0 {
		t.Fatalf("init of a held root: %+v", r)
	}
}
