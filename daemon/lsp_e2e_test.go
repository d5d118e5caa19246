package daemon_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// goplsWorkspace starts a daemon with gopls on a copy of the Go fixture
// of testdata/lsp and waits for its first refinement.
func goplsWorkspace(t *testing.T) (*env, string) {
	t.Helper()
	dir := lspPath(t, "gopls")
	e := newEnv(t, "CCD_LSP=auto", "CCD_LSP_PATH="+dir)
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "lsp", "go.txtar")), tempDir(t))
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	waitFor(t, "first refinement", 3*time.Minute, func() bool { return e.workspace(t).LSP == "done" })
	return e, root
}

// lspPath is where scripts/install-lsp.sh puts the servers.
func lspPath(t *testing.T, server string) string {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", ".tools", "bin"))
	if p := os.Getenv("CCD_LSP_PATH"); p != "" {
		dir = p
	}
	if _, err := exec.LookPath(filepath.Join(dir, server)); err != nil {
		if os.Getenv("CCD_REQUIRE_LSP") != "" {
			t.Fatalf("%s not installed in %s (CCD_REQUIRE_LSP is set): run scripts/install-lsp.sh", server, dir)
		}
		t.Skipf("%s not installed in %s: run scripts/install-lsp.sh (CCD_REQUIRE_LSP=1 makes this a failure)", server, dir)
	}
	return dir
}

// TestDaemonRefinesWithGopls: a workspace whose calls go through an
// interface gets gopls's implementation edges in the daemon's answers once
// refinement is done, and status, doctor and the orientation card say so.
func TestDaemonRefinesWithGopls(t *testing.T) {
	dir := lspPath(t, "gopls")
	e := newEnv(t, "CCD_LSP=auto", "CCD_LSP_PATH="+dir)
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "lsp", "go.txtar")), tempDir(t))
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	var ws wire.WorkspaceInfo
	waitFor(t, "refinement done", 3*time.Minute, func() bool {
		ws = e.workspace(t)
		return ws.LSP == "done" || ws.LSP == "failed"
	})
	if ws.LSP != "done" || ws.LSPAdded == 0 {
		t.Fatalf("refinement: %+v", ws)
	}
	r := e.run(bins.ccd, nil, "impact", "--root", root, "Email.Notify", "--json")
	var ans struct {
		Callers []struct {
			ID, Confidence string
		} `json:"callers"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ans) != nil {
		t.Fatalf("impact: %+v", r)
	}
	found := false
	for _, c := range ans.Callers {
		if c.ID == "app/app.go::App.Alert" && c.Confidence == "lsp" {
			found = true
		}
	}
	if !found {
		t.Errorf("App.Alert is not an lsp caller of Email.Notify: %s", r.stdout)
	}
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "gopls") || !strings.Contains(r.stdout, "call edges added") {
		t.Errorf("status does not show the session and refinement:\n%s", r.stdout)
	}
	if r := e.run(bins.ccd, nil, "doctor", "--json"); !strings.Contains(r.stdout, `"server_found": true`) || !strings.Contains(r.stdout, `"sessions"`) {
		t.Errorf("doctor:\n%s", r.stdout)
	}
	ev := `{"hook_event_name":"SessionStart","session_id":"l","cwd":"` + root + `","source":"startup"}`
	if r := e.run(bins.hook, []byte(ev)); !strings.Contains(r.stdout, "Language servers:") {
		t.Errorf("orientation card without the language-server line: %s", r.stdout)
	}
}

// TestExportLSPMode: export --lsp=auto adds lsp edges, --lsp=off is the
// tree-sitter graph.
func TestExportLSPMode(t *testing.T) {
	dir := lspPath(t, "gopls")
	e := newEnv(t, "CCD_LSP_PATH="+dir)
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "lsp", "go.txtar")), tempDir(t))
	off := e.run(bins.ccd, nil, "export", root, "-q", "--lsp=off")
	auto := e.run(bins.ccd, nil, "export", root, "--lsp=auto")
	if off.code != 0 || auto.code != 0 {
		t.Fatalf("export: %+v %+v", off, auto)
	}
	if strings.Contains(off.stdout, `"confidence":"lsp"`) || !strings.Contains(auto.stdout, `"confidence":"lsp"`) {
		t.Errorf("lsp edges: off has them=%v, auto has them=%v", strings.Contains(off.stdout, `"confidence":"lsp"`), strings.Contains(auto.stdout, `"confidence":"lsp"`))
	}
	if !strings.Contains(auto.stderr, "edges added") {
		t.Errorf("export --lsp=auto does not report what it did: %s", auto.stderr)
	}
}

// TestDaemonRefinesEdits: after an edit, the servers are asked about the
// edited file again, so a new call through an interface gets its lsp edge.
func TestDaemonRefinesEdits(t *testing.T) {
	e, root := goplsWorkspace(t)
	// Edits of another file keep gopls's edges in every answer: the first
	// impact after each update already has App.Alert as an lsp caller
	// (the refined graph follows the update by a splice, not by a rebuild
	// that leaves the tree-sitter graph in answers meanwhile).
	lspCaller := func(callee, caller string) bool { return e.callerConfidence(root, callee, caller) == "lsp" }
	if !lspCaller("Email.Notify", "app/app.go::App.Alert") {
		t.Fatal("no lsp caller of Email.Notify after the first refinement")
	}
	other := filepath.Join(root, "notify", "notify.go")
	for i := 0; i < 5; i++ {
		gen := e.workspace(t).Generation
		b, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(other, append(b, []byte("\n// touched\n")...), 0o644)
		waitFor(t, "the edit applied", time.Minute, func() bool { return e.workspace(t).Generation > gen })
		if !lspCaller("Email.Notify", "app/app.go::App.Alert") {
			t.Fatalf("edit %d: the first answer after the update lost gopls's edge", i)
		}
	}
	if ws := e.workspace(t); ws.LSPSpliced < 5 || ws.LSPReapplied != 0 {
		t.Errorf("the refined graph followed 5 body edits with %d splices and %d re-applications, want >= 5 and 0", ws.LSPSpliced, ws.LSPReapplied)
	}
	p := filepath.Join(root, "app", "app.go")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\n// Page notifies on call.\nfunc Page(n notify.Notifier) error {\n\treturn n.Notify(\"page\")\n}\n")...), 0o644)
	waitFor(t, "Page as an lsp caller of SMS.Notify", 3*time.Minute, func() bool { return lspCaller("SMS.Notify", "app/app.go::Page") })
}

// TestDaemonKeepsRefinementAcrossRestarts: a daemon stopped and started
// again with nothing changed serves gopls's edges at once from the store,
// without starting gopls; after a file changed while it was down, it
// serves the edges of the other files at once and asks the server about
// that file only.
func TestDaemonKeepsRefinementAcrossRestarts(t *testing.T) {
	e, root := goplsWorkspace(t)
	first := e.workspace(t)
	restart := func() {
		t.Helper()
		e.run(bins.ccd, nil, "stop")
		waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
		if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
			t.Fatalf("init after restart: %+v", r)
		}
	}
	sessions := func() int {
		var st wire.Status
		if err := e.client().Do(context.Background(), http.MethodGet, "/v1/status", nil, &st); err != nil {
			t.Fatal(err)
		}
		return len(st.LSP)
	}
	restart()
	// init returns once the index is ready; the stored refinement is
	// applied right after, without a server.
	var w wire.WorkspaceInfo
	waitFor(t, "refinement restored", 30*time.Second, func() bool { w = e.workspace(t); return w.LSP == "done" })
	if w.LSPAdded != first.LSPAdded || w.LSPUpgraded != first.LSPUpgraded {
		t.Errorf("restored refinement: %d added, %d confirmed; before the restart %d, %d", w.LSPAdded, w.LSPUpgraded, first.LSPAdded, first.LSPUpgraded)
	}
	r := e.run(bins.ccd, nil, "impact", "--root", root, "Email.Notify", "--json")
	if !strings.Contains(r.stdout, `"app/app.go::App.Alert"`) || !strings.Contains(r.stdout, `"lsp"`) {
		t.Errorf("no lsp caller after the restart: %s", r.stdout)
	}
	if n := sessions(); n != 0 {
		t.Errorf("%d language-server sessions started, want none: the stored refinement covers the unchanged tree", n)
	}
	// A file changed while the daemon was down: the edges from the other
	// files are served at once, and the server is asked about that file.
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	p := filepath.Join(root, "notify", "notify.go")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\n// changed while down\n")...), 0o644)
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	waitFor(t, "refinement restored in part", 30*time.Second, func() bool { return e.workspace(t).LSP == "done" })
	r = e.run(bins.ccd, nil, "impact", "--root", root, "Email.Notify", "--json")
	if !strings.Contains(r.stdout, `"app/app.go::App.Alert"`) || !strings.Contains(r.stdout, `"lsp"`) {
		t.Errorf("the lsp edges of unchanged files are not served after a restart with a changed file: %s", r.stdout)
	}
	waitFor(t, "the changed file asked about", 3*time.Minute, func() bool {
		log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
		return sessions() > 0 && strings.Contains(string(log), "lsp refine after edit")
	})
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if n := strings.Count(string(log), "lsp refinement restored"); n != 2 {
		t.Errorf("the log says the refinement was restored %d times, want 2:\n%s", n, log)
	}
	if !strings.Contains(string(log), "changed_while_down=1") {
		t.Errorf("the partial restore does not say one file changed:\n%s", log)
	}
	if n := strings.Count(string(log), `msg="lsp refine" `); n != 1 {
		t.Errorf("%d full refinements, want 1 (the first index only):\n%s", n, log)
	}
}

// TestEditCardShowsLSPCallers: the card after an edit lists the callers
// only gopls knows (App.Alert calls Email.Notify through an interface), so
// a signature change warns about them.
func TestEditCardShowsLSPCallers(t *testing.T) {
	e, root := goplsWorkspace(t)
	p := filepath.Join(root, "notify", "email.go")
	b, _ := os.ReadFile(p)
	old, repl := "Notify(msg string) error {", "Notify(msg string, urgent bool) error {"
	if !strings.Contains(string(b), old) {
		t.Fatal("fixture changed: no Email.Notify")
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, repl, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "session_id": "lspcard", "cwd": root, "tool_name": "Edit",
		"tool_input": map[string]string{"file_path": p, "old_string": old, "new_string": repl}})
	r := e.run(bins.hook, ev)
	if r.code != 0 || !strings.Contains(r.stdout, "Signature of Email.Notify changed") {
		t.Fatalf("no signature card: %+v", r)
	}
	if !strings.Contains(r.stdout, "App.Alert") {
		t.Errorf("the card does not name App.Alert, a caller only gopls knows:\n%s", r.stdout)
	}
}

// TestProjectChangeRefinesAll: a change of the project facts (here the Go
// module path, with the import that uses it) may change how any call
// resolves, so the servers are asked about everything again rather than
// about the edited files only.
func TestProjectChangeRefinesAll(t *testing.T) {
	e, root := goplsWorkspace(t)
	full := func() int {
		log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
		return strings.Count(string(log), `msg="lsp refine" `)
	}
	if n := full(); n != 1 {
		t.Fatalf("%d full refinements after init, want 1", n)
	}
	replace := func(rel, old, repl string) {
		t.Helper()
		p := filepath.Join(root, rel)
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), old) {
			t.Fatalf("fixture changed: no %q in %s", old, rel)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, repl, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replace("app/app.go", `"example.com/alerts/notify"`, `"example.com/alarms/notify"`)
	replace("go.mod", "module example.com/alerts", "module example.com/alarms")
	waitFor(t, "a full refinement after the module path changed", 3*time.Minute, func() bool {
		return full() == 2 && e.workspace(t).LSP == "done"
	})
	r := e.run(bins.ccd, nil, "impact", "--root", root, "Email.Notify", "--json")
	if !strings.Contains(r.stdout, `"app/app.go::App.Alert"`) || !strings.Contains(r.stdout, `"lsp"`) {
		t.Errorf("no lsp caller after the refinement: %s", r.stdout)
	}
}

// TestDaemonFindsServersInstalledLater follows the README's order of
// steps: a daemon started before the servers are installed (`just run`,
// then `just test`). Without gopls the refinement says "gopls not found"
// and is stored as incomplete; a running daemon finds a server installed
// meanwhile as soon as someone asks for the status, and a restart with
// gopls installed asks it instead of restoring a refinement made without
// it.
func TestDaemonFindsServersInstalledLater(t *testing.T) {
	gopls := filepath.Join(lspPath(t, "gopls"), "gopls")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	servers := t.TempDir() // empty: nothing installed yet
	// PATH without any language server (gopls itself needs go).
	e := newEnv(t, "CCD_LSP=auto", "CCD_LSP_PATH="+servers, "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin")
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "lsp", "go.txtar")), tempDir(t))
	start := func(args ...string) {
		t.Helper()
		if r := e.run(bins.ccd, nil, append(args, root)...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	stop := func() {
		t.Helper()
		e.run(bins.ccd, nil, "stop")
		waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	}
	link := filepath.Join(servers, "gopls")
	install := func() {
		t.Helper()
		if err := os.Symlink(gopls, link); err != nil {
			t.Fatal(err)
		}
	}
	lspCaller := func() bool {
		r := e.run(bins.ccd, nil, "impact", "--root", root, "Email.Notify", "--json")
		return strings.Contains(r.stdout, `"app/app.go::App.Alert"`) && strings.Contains(r.stdout, `"lsp"`)
	}
	var w wire.WorkspaceInfo
	withoutGopls := func(what string) {
		t.Helper()
		waitFor(t, what, time.Minute, func() bool { w = e.workspace(t); return w.LSP == "done" })
		if w.LSPMissing["go"] != "gopls" || len(w.LSPServers) != 0 || w.LSPAdded != 0 {
			t.Fatalf("%s: missing %v, servers %v, %d added", what, w.LSPMissing, w.LSPServers, w.LSPAdded)
		}
	}
	withGopls := func(what string) {
		t.Helper()
		waitFor(t, what, 3*time.Minute, func() bool {
			w = e.workspace(t)
			return w.LSP == "done" && w.LSPServers["go"] == "gopls"
		})
		if w.LSPAdded == 0 || len(w.LSPMissing) != 0 || !lspCaller() {
			t.Errorf("%s: %+v, lsp caller %v", what, w, lspCaller())
		}
	}

	start("init")
	withoutGopls("refinement without gopls")
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "language servers: gopls not found") {
		t.Errorf("status does not say gopls is missing:\n%s", r.stdout)
	}
	// Installed while the daemon runs: `ccd status` looks again at once.
	install()
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "language servers: starting") &&
		!strings.Contains(r.stdout, "language servers: refining") && !strings.Contains(r.stdout, "language servers: gopls: ") {
		t.Errorf("status right after the install does not show the refinement starting:\n%s", r.stdout)
	}
	withGopls("refinement with gopls installed while running")
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "language servers: gopls: ") {
		t.Errorf("status does not name gopls:\n%s", r.stdout)
	}

	// A refinement made without gopls in a daemon that has never seen it
	// (reindex after a restart) is stored as incomplete ...
	os.Remove(link)
	stop()
	start("reindex")
	withoutGopls("reindex without gopls")
	// ... so a restart with gopls installed asks it rather than restoring.
	stop()
	install()
	start("init")
	withGopls("refinement with gopls after a restart")
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(log), "missed a server that is installed now") {
		t.Errorf("the log does not say why the stored refinement was not used:\n%s", log)
	}
	// Complete now: a restart restores it, with no server started.
	stop()
	start("init")
	waitFor(t, "refinement restored", 30*time.Second, func() bool { w = e.workspace(t); return w.LSP == "done" })
	var st wire.Status
	if err := e.client().Do(context.Background(), http.MethodGet, "/v1/status", nil, &st); err != nil {
		t.Fatal(err)
	}
	if w.LSPServers["go"] != "gopls" || !lspCaller() || len(st.LSP) != 0 {
		t.Errorf("complete refinement not restored: %+v, %d sessions", w, len(st.LSP))
	}
}

// TestDoctorForAWorkspace: doctor asked about a workspace lists its
// languages first with their file counts, and spells out the problems of
// those languages only, with how to install servers once.
func TestDoctorForAWorkspace(t *testing.T) {
	e := newEnv(t, "CCD_LSP=auto", "CCD_LSP_PATH="+t.TempDir(), "PATH=/usr/bin:/bin")
	root := fixture(t, "go")
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	r := e.run(bins.ccd, nil, "doctor", "--root", filepath.Join(root, "store"))
	lines := strings.Split(r.stdout, "\n")
	if r.code != 0 || len(lines) < 4 || lines[1] != "workspace "+root || !strings.HasPrefix(lines[3], "go ") {
		t.Fatalf("doctor --root:\n%s%s", r.stdout, r.stderr)
	}
	if f := strings.Fields(lines[3]); len(f) < 2 || f[1] == "-" {
		t.Errorf("the go row has no file count: %q", lines[3])
	}
	if !strings.Contains(r.stdout, "Servers this workspace's languages need:\n  go: gopls not found in ") {
		t.Errorf("doctor does not spell out gopls's problem:\n%s", r.stdout)
	}
	for _, other := range []string{"jdtls not found", "clangd not found", "solargraph not found"} {
		if strings.Contains(r.stdout, other) {
			t.Errorf("doctor spells out %q for a Go workspace:\n%s", other, r.stdout)
		}
	}
	if strings.Count(r.stdout, "install-lsp.sh") != 1 {
		t.Errorf("the install hint is not said exactly once:\n%s", r.stdout)
	}
}
