// Package house holds tests of the repository's own rules: what may import
// what, and that the Justfile's recipes cover what they claim to.
package house

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// top is the repository root.
func top(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUpdateGoldenCoversEveryPackage: `just update-golden` runs every
// package whose tests take -update, so no golden is left behind.
func TestUpdateGoldenCoversEveryPackage(t *testing.T) {
	root := top(t)
	want := map[string]bool{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") && p != root {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), "flag.Bool("+`"update"`) {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				want["./"+filepath.ToSlash(rel)] = true
			}
		}
		return nil
	})
	just, err := os.ReadFile(filepath.Join(root, "Justfile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^update-golden:\n\s+go test (.*) -update$`).FindSubmatch(just)
	if m == nil {
		t.Fatal("no update-golden recipe of the form `go test PKGS -update`")
	}
	have := map[string]bool{}
	for _, p := range strings.Fields(string(m[1])) {
		have[p] = true
	}
	var missing []string
	for p := range want {
		if !have[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(want) == 0 {
		t.Errorf("just update-golden leaves out %v (packages with -update: %d)", missing, len(want))
	}
}

// TestCoreNeverImportsDaemon: the engine is a library; the daemon uses it,
// never the other way.
func TestCoreNeverImportsDaemon(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/ccd-dev/ccd/core/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/ccd-dev/ccd/daemon") {
			t.Errorf("core depends on %s", p)
		}
	}
}
