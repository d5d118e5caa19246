package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadTasksTrust: a tasks file that links out of the project is not
// read, and a parse error quotes no text of the file (issue 17 #18: the
// first line of the link's target was echoed).
func TestLoadTasksTrust(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("SECRET-TOKEN-123: [\n"), 0o600)
	cases := []struct {
		name  string
		setup func(root string)
		want  string
	}{
		{"link out of the project", func(root string) { os.Symlink(outside, filepath.Join(root, "tasks.yaml")) }, "outside the project"},
		{"bad YAML in the project", func(root string) {
			os.WriteFile(filepath.Join(root, "tasks.yaml"), []byte("tasks: SECRET-TOKEN-123\n"), 0o644)
		}, "line 1"},
		{"broken YAML in the project", func(root string) {
			os.WriteFile(filepath.Join(root, "tasks.yaml"), []byte("tasks:\n  - id: T1\n    title: !!int SECRET-TOKEN-123\n"), 0o644)
		}, "Tasks.yaml"},
		{"link inside the project", func(root string) {
			os.WriteFile(filepath.Join(root, "real.yaml"), []byte("tasks:\n  - id: T1\n    title: one\n"), 0o644)
			os.Symlink(filepath.Join(root, "real.yaml"), filepath.Join(root, "tasks.yaml"))
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			c.setup(root)
			ts, _, terr := loadTasks(root)
			if c.want == "" {
				if terr != nil || len(ts) != 1 {
					t.Fatalf("tasks %v, err %v", ts, terr)
				}
				return
			}
			if terr == nil {
				t.Fatalf("read: %v", ts)
			}
			msg := terr.msg + " " + terr.hint
			if strings.Contains(msg, "SECRET") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q: must say %q and quote nothing of the file", msg, c.want)
			}
		})
	}
}
