package daemon_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// TestWorkspaceRootLifecycle: a root deleted under the daemon is not
// served as fresh and is not made again by an answer; a root deleted and
// made again at the same path (rm -rf repo && git clone ... repo) is
// indexed again (issue 17 #6).
func TestWorkspaceRootLifecycle(t *testing.T) {
	e := newEnv(t)
	parent := t.TempDir()
	root := filepath.Join(parent, "repo")
	write := func(files map[string]string) {
		for p, s := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
			os.WriteFile(filepath.Join(root, p), []byte(s), 0o644)
		}
	}
	write(map[string]string{"go.mod": "module example.com/r\n\ngo 1.22\n", "a.go": "package r\n\nfunc Old() int { return 1 }\n"})
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	status := func() wire.WorkspaceInfo {
		var st wire.Status
		if err := json.Unmarshal([]byte(e.run(bins.ccd, nil, "status", "--json").stdout), &st); err != nil || len(st.Workspaces) != 1 {
			t.Fatalf("status: %v %+v", err, st)
		}
		return st.Workspaces[0]
	}
	waitFor := func(what string, ok func(wire.WorkspaceInfo) bool) wire.WorkspaceInfo {
		t.Helper()
		var w wire.WorkspaceInfo
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if w = status(); ok(w) {
				return w
			}
		}
		t.Fatalf("%s: never; last %+v", what, w)
		return w
	}
	waitFor("fresh after init", func(w wire.WorkspaceInfo) bool { return w.Fresh })

	os.RemoveAll(root)
	w := status()
	if w.Fresh || !strings.Contains(w.Error, "gone") {
		t.Fatalf("a vanished root is served as fresh: %+v", w)
	}
	// An answer that saves a picture must not make the root again.
	e.run(bins.ccd, nil, "impact", "--root", root, "Old")
	time.Sleep(3 * time.Second) // the root check runs every 2 s
	if _, err := os.Stat(root); err == nil {
		t.Fatalf("the deleted root was made again")
	}

	write(map[string]string{"go.mod": "module example.com/r\n\ngo 1.22\n", "b.go": "package r\n\nfunc New() int { return 2 }\n"})
	w = waitFor("indexed again after the root came back", func(w wire.WorkspaceInfo) bool { return w.Fresh && w.Generation >= 2 })
	if r := e.run(bins.ccd, nil, "symbols", "--root", root, "New"); !strings.Contains(r.stdout, "New") {
		t.Fatalf("the new tree's symbol is not found: %s %s", r.stdout, r.stderr)
	}
	if r := e.run(bins.ccd, nil, "symbols", "--root", root, "Old"); strings.Contains(r.stdout, "a.go") {
		t.Fatalf("the vanished tree's symbol is still served: %s", r.stdout)
	}
}
