package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// TestRemoveWhileIndexing: a workspace removed while its index runs stops
// reading files, starts no watch and writes nothing more into the root
// (issue 17 #9: the run went on, kept its watches and heap, and saved its
// picture into the removed root).
func TestRemoveWhileIndexing(t *testing.T) {
	e := newEnv(t)
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("detach: %+v", r)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/big\n\ngo 1.22\n"), 0o644)
	for d := 0; d < 40; d++ {
		dir := filepath.Join(root, fmt.Sprintf("p%02d", d))
		os.MkdirAll(dir, 0o755)
		for f := 0; f < 60; f++ {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%02d\n\n", d)
			for k := 0; k < 30; k++ {
				fmt.Fprintf(&b, "func F%d_%d(x int) int { return x*%d + G%d_%d(x) }\nfunc G%d_%d(x int) int { return x }\n", f, k, k, f, k, f, k)
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", f)), []byte(b.String()), 0o644)
		}
	}
	ctx := context.Background()
	if err := e.client().Do(ctx, http.MethodPost, "/v1/workspaces", wire.AddWorkspace{Root: root}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the run is under way
	if err := e.client().Do(ctx, http.MethodDelete, "/v1/workspaces?root="+url.QueryEscape(root), nil, nil); err != nil {
		t.Fatal(err)
	}
	var list []wire.WorkspaceInfo
	time.Sleep(3 * time.Second)
	if err := e.client().Do(ctx, http.MethodGet, "/v1/workspaces", nil, &list); err != nil || len(list) != 0 {
		t.Fatalf("workspaces after the removal: %v %+v", err, list)
	}
	if _, err := os.Stat(filepath.Join(root, ".codecanvas", "architecture.png")); err == nil {
		t.Errorf("the removed workspace's run wrote its picture into the root")
	}
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if strings.Contains(string(log), "msg=indexed root="+root) {
		t.Errorf("the run went on to the end after the removal:\n%s", log)
	}
}
