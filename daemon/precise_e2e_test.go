package daemon_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/core/scip"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// scipTool is where scripts/install-scip.sh puts a SCIP tool.
func scipTool(t *testing.T, name string) string {
	t.Helper()
	p, _ := filepath.Abs(filepath.Join("..", ".tools", "scip", "bin", name))
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CCD_REQUIRE_LSP") != "" {
			t.Fatalf("%s not installed (CCD_REQUIRE_LSP is set): run scripts/install-scip.sh", p)
		}
		t.Skipf("%s not installed: run scripts/install-scip.sh (CCD_REQUIRE_LSP=1 makes this a failure)", p)
	}
	return p
}

// TestDaemonPreciseIndex: a workspace holding index.scip from the real
// scip-go gets its edges in the daemon's answers with confidence precise
// (with CCD_LSP=off, the index alone; else before gopls), status and the orientation card say
// what it did, an edit of the calling file falls back to tree-sitter's
// edge for it, and an index written again is imported again.
func TestDaemonPreciseIndex(t *testing.T) {
	t.Run("index alone", func(t *testing.T) { testDaemonPrecise(t, "CCD_LSP=off") })
	t.Run("with gopls", func(t *testing.T) {
		testDaemonPrecise(t, "CCD_LSP=auto", "CCD_LSP_PATH="+lspPath(t, "gopls"))
	})
}

func testDaemonPrecise(t *testing.T, envs ...string) {
	scipGo := scipTool(t, "scip-go")
	e := newEnv(t, envs...)
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "scip", "precise", "go.txtar")), tempDir(t))
	index := func() {
		t.Helper()
		cmd := exec.Command(scipGo, "-q", "--output", filepath.Join(root, "index.scip"))
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("scip-go: %v\n%s", err, out)
		}
	}
	index()
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	confidence := func(callee, caller string) string { return e.callerConfidence(root, callee, caller) }
	// holder.name's only caller was a name-match before the index.
	waitFor(t, "precise edges", time.Minute, func() bool {
		return confidence("holder.name", "app/app.go::Use") == "precise"
	})
	ws := e.workspace(t)
	if !strings.Contains(ws.Precise, "scip-go") || !strings.Contains(ws.Precise, "confirmed") {
		t.Errorf("status precise = %q", ws.Precise)
	}
	// An answer with precise edges says which index they come from and
	// how old it is.
	r := e.run(bins.ccd, nil, "impact", "--root", root, "holder.name", "--json")
	var ans struct{ Precise string }
	if json.Unmarshal([]byte(r.stdout), &ans) != nil || !strings.Contains(ans.Precise, "scip-go 0.1.26") || !strings.Contains(ans.Precise, " old)") {
		t.Errorf("impact's precise = %q", ans.Precise)
	}
	if r := e.run(bins.ccd, nil, "impact", "--root", root, "holder.name"); !strings.Contains(r.stdout, "Precise index: index.scip (scip-go 0.1.26") {
		t.Errorf("impact's text does not name the index:\n%s", r.stdout)
	}
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "scip: Precise index: index.scip (scip-go") {
		t.Errorf("status does not show the precise index:\n%s", r.stdout)
	}
	ev := `{"hook_event_name":"SessionStart","session_id":"p","cwd":"` + root + `","source":"startup"}`
	if r := e.run(bins.hook, []byte(ev)); !strings.Contains(r.stdout, "Precise index:") {
		t.Errorf("orientation card without the precise index: %s", r.stdout)
	}

	// An edit of app.go: its call sites are not as indexed any more.
	app := filepath.Join(root, "app", "app.go")
	src, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(app, append(src, []byte("\n// edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "fallback after the edit", time.Minute, func() bool {
		c := confidence("holder.name", "app/app.go::Use")
		return c != "" && c != "precise"
	})
	// A new index after the edit: imported again, precise again.
	index()
	waitFor(t, "the new index imported", time.Minute, func() bool {
		return confidence("holder.name", "app/app.go::Use") == "precise"
	})
}

// TestExportPrecise: ccd export --scip=auto reads DIR/index.scip from a
// real indexer, --scip=off ignores it, and an index written by ccd itself
// is refused with a clear message.
func TestExportPrecise(t *testing.T) {
	scipGo := scipTool(t, "scip-go")
	e := newEnv(t, "CCD_LSP=off")
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "scip", "precise", "go.txtar")), tempDir(t))
	cmd := exec.Command(scipGo, "-q")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scip-go: %v\n%s", err, out)
	}
	auto := e.run(bins.ccd, nil, "export", root)
	off := e.run(bins.ccd, nil, "export", root, "-q", "--scip=off")
	if auto.code != 0 || off.code != 0 {
		t.Fatalf("export: %+v %+v", auto, off)
	}
	if !strings.Contains(auto.stdout, `"confidence":"precise"`) || strings.Contains(off.stdout, `"confidence":"precise"`) {
		t.Errorf("precise edges: auto has them=%v, off has them=%v", strings.Contains(auto.stdout, `"confidence":"precise"`), strings.Contains(off.stdout, `"confidence":"precise"`))
	}
	if !strings.Contains(auto.stderr, "scip-go 0.1.26") || !strings.Contains(auto.stderr, "confirmed") {
		t.Errorf("export does not say what the index did: %s", auto.stderr)
	}
	// ccd impact without a daemon applies the index too, and says so.
	if r := e.run(bins.ccd, nil, "impact", "--root", root, "holder.name"); !strings.Contains(r.stdout, "precise") || !strings.Contains(r.stdout, "Precise index: index.scip (scip-go 0.1.26") {
		t.Errorf("in-process impact:\n%+v", r)
	}
	// ccd's own index in its place.
	if r := e.run(bins.ccd, nil, "export", root, "--format", "scip", "-o", filepath.Join(root, "index.scip"), "-q"); r.code != 0 {
		t.Fatalf("export --format scip: %+v", r)
	}
	own := e.run(bins.ccd, nil, "export", root)
	if own.code != 0 || !strings.Contains(own.stderr, "written by ccd itself") || strings.Contains(own.stdout, `"confidence":"precise"`) {
		t.Errorf("ccd's own index: %+v", own)
	}
	// A damaged index found in the workspace does not stop the export; one
	// named explicitly is an error.
	if err := os.WriteFile(filepath.Join(root, "index.scip"), []byte{0x12, 0xff, 0x01}, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := e.run(bins.ccd, nil, "export", root, "-q"); r.code != 0 || !strings.Contains(r.stderr, "index.scip not used") || !strings.Contains(r.stdout, `"nodes"`) {
		t.Errorf("a damaged index.scip with --scip=auto: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "export", root, "--scip="+filepath.Join(root, "index.scip")); r.code == 0 || !strings.Contains(r.stderr, "index.scip") {
		t.Errorf("a damaged index named explicitly: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "export", root, "--scip="+filepath.Join(root, "missing.scip")); r.code == 0 || !strings.Contains(r.stderr, "missing.scip") {
		t.Errorf("a missing index named explicitly: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "export", root, "--format", "scip"); r.code != 2 || !strings.Contains(r.stderr, "-o") {
		t.Errorf("--format scip without -o: %+v", r)
	}
}

// TestDaemonWritesSCIP: with CCD_SCIP_EXPORT the daemon writes the
// workspace's SCIP index after indexing it and again after an edit.
func TestDaemonWritesSCIP(t *testing.T) {
	e := newEnv(t, "CCD_LSP=off", "CCD_SCIP_EXPORT=ccd.scip")
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "scip", "precise", "go.txtar")), tempDir(t))
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	out := filepath.Join(root, "ccd.scip")
	var idx *scip.Index
	waitFor(t, "ccd.scip", time.Minute, func() bool {
		var err error
		idx, err = scip.ReadFile(out)
		return err == nil
	})
	if idx.Metadata.ToolName != "ccd" || len(idx.Documents) != 2 {
		t.Fatalf("ccd.scip: tool %q, %d documents", idx.Metadata.ToolName, len(idx.Documents))
	}
	if err := os.WriteFile(filepath.Join(root, "app", "more.go"), []byte("package app\n\nfunc More() string { return Describe() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "ccd.scip with the new file", time.Minute, func() bool {
		idx, err := scip.ReadFile(out)
		return err == nil && len(idx.Documents) == 3
	})
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	bad := newEnv(t, "CCD_SCIP_EXPORT=index.scip")
	if r := bad.run(bins.ccd, nil, "export", root, "-q"); r.code == 0 || !strings.Contains(r.stderr, "CCD_SCIP_EXPORT") {
		t.Errorf("CCD_SCIP_EXPORT=index.scip: %+v", r)
	}
}

// TestDaemonDamagedPreciseIndex: a damaged index.scip costs only its
// edges: the workspace is served from tree-sitter, and status says the
// index was not used and why.
func TestDaemonDamagedPreciseIndex(t *testing.T) {
	e := newEnv(t, "CCD_LSP=off")
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "scip", "precise", "go.txtar")), tempDir(t))
	if err := os.WriteFile(filepath.Join(root, "index.scip"), []byte{0x12, 0xff, 0x01}, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	waitFor(t, "the index judged", time.Minute, func() bool { return e.workspace(t).Precise != "" })
	if ws := e.workspace(t); !strings.Contains(ws.Precise, "not used") || !strings.Contains(ws.Precise, "scip index") {
		t.Errorf("status precise = %q", ws.Precise)
	}
	if c := e.callerConfidence(root, "holder.name", "app/app.go::Use"); c == "" || c == "precise" {
		t.Errorf("Use calls holder.name with confidence %q, want tree-sitter's", c)
	}
}
