package oracle

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestPyRuntime: pyruntime.py runs a package's unittest module with the
// package copy under ROOT shadowing nothing else, and reports the calls
// between ROOT's files that ran, on the caller's line, including a call
// made through C (a sorted key) from the line of the C call, and none
// that did not run.
func TestPyRuntime(t *testing.T) {
	repo := repoRoot(t)
	root := t.TempDir()
	files := map[string]string{
		"shapes/__init__.py": "",
		"shapes/area.py": `def square(x):
    return x * x


def by_size(items):
    return sorted(items, key=size)


def size(item):
    return square(item)


def unused():
    return square(3)
`,
		"test_shapes.py": `import unittest

from shapes.area import by_size


class T(unittest.TestCase):
    def test_order(self):
        self.assertEqual(by_size([3, 1]), [1, 3])
`,
	}
	for rel, src := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("python3", "-S", filepath.Join(repo, "internal", "oracle", "pyoracle", "pyruntime.py"), root, "unittest:test_shapes").Output()
	if err != nil {
		t.Fatalf("pyruntime: %v", err)
	}
	var o Oracle
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, e := range o.Edges {
		if e.Kind != "runtime" {
			t.Errorf("edge of kind %q", e.Kind)
		}
		got = append(got, e.File+":"+strconv.Itoa(e.Line)+" -> "+e.CalleeFile+":"+strconv.Itoa(e.CalleeLine)+" "+e.CalleeName)
	}
	for _, want := range []string{
		"test_shapes.py:8 -> shapes/area.py:5 by_size",
		"shapes/area.py:6 -> shapes/area.py:9 size", // through sorted
		"shapes/area.py:10 -> shapes/area.py:1 square",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %s in %q", want, got)
		}
	}
	for _, e := range got {
		if e == "shapes/area.py:14 -> shapes/area.py:1 square" {
			t.Errorf("a call that never ran: %s", e)
		}
	}
}
