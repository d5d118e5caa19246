// Package house holds tests of the repository's own rules, read from go
// list: what may import what (core never imports daemon; cgo only under
// core/parse; the shims link neither cgo, net/http nor the engine), and
// that the Justfile's recipes cover what they claim to.
package house

import (
	"bytes"
	"encoding/json"
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

// pkg is what the house rules read of a package from go list.
type pkg struct {
	ImportPath string
	Standard   bool
	CgoFiles   []string
	Imports    []string
	Deps       []string
}

// list runs go list -json on patterns (with -deps when deps) from the
// repository root.
func list(t *testing.T, deps bool, patterns ...string) []pkg {
	t.Helper()
	args := []string{"list", "-json=ImportPath,Standard,CgoFiles,Imports,Deps"}
	if deps {
		args = append(args, "-deps")
	}
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir = top(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list listed nothing")
	}
	return pkgs
}

const module = "github.com/ccd-dev/ccd/"

// TestCgoOnlyUnderParse: the only packages of the module with cgo files,
// or importing a package with cgo files outside the standard library
// (tree-sitter's bindings), are core/parse and the packages below it.
func TestCgoOnlyUnderParse(t *testing.T) {
	all := list(t, true, "./...")
	cgo := map[string]bool{}
	for _, p := range all {
		if !p.Standard && len(p.CgoFiles) > 0 {
			cgo[p.ImportPath] = true
		}
	}
	under := func(p string) bool {
		return p == module+"core/parse" || strings.HasPrefix(p, module+"core/parse/")
	}
	found := false
	for _, p := range all {
		if !strings.HasPrefix(p.ImportPath, module) {
			continue
		}
		if under(p.ImportPath) {
			found = found || len(p.CgoFiles) > 0
			continue
		}
		if len(p.CgoFiles) > 0 {
			t.Errorf("%s has cgo files %v; cgo lives under core/parse", p.ImportPath, p.CgoFiles)
		}
		for _, imp := range p.Imports {
			if cgo[imp] && !strings.HasPrefix(imp, module) {
				t.Errorf("%s imports %s, which links cgo; only core/parse may", p.ImportPath, imp)
			}
		}
	}
	if !found {
		t.Error("core/parse has no cgo files: the rule checks nothing")
	}
}

// TestShimsStayLean: the shims and core/graph link no cgo at all, and the
// shims no net/http (nor the engine).
func TestShimsStayLean(t *testing.T) {
	for _, c := range []struct {
		pkg    string
		banned []string
	}{
		{"./hookshim/ccd-hook", []string{"net/http", "net", module + "core/", module + "daemon/hooks", module + "daemon/workspace"}},
		{"./mcpshim/ccd-mcp", []string{"net/http", module + "core/", module + "daemon/mcp", module + "daemon/workspace"}},
		{"./core/graph", []string{module + "daemon"}},
	} {
		deps := list(t, true, c.pkg)
		for _, d := range deps {
			if len(d.CgoFiles) > 0 || d.ImportPath == "runtime/cgo" {
				t.Errorf("%s links cgo through %s", c.pkg, d.ImportPath)
			}
			for _, b := range c.banned {
				if d.ImportPath == b || (strings.HasSuffix(b, "/") && strings.HasPrefix(d.ImportPath, b)) ||
					strings.HasPrefix(d.ImportPath, b+"/") {
					t.Errorf("%s links %s", c.pkg, d.ImportPath)
				}
			}
		}
	}
}
