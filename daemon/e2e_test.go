package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// bins holds the real binaries, built once for all tests.
var bins struct {
	once          sync.Once
	dir, err      string
	ccd, hook, mc string
}

// TestMain removes the binaries build made once every test has run (75
// MB a run, which repeated runs would otherwise pile up in the temp dir).
func TestMain(m *testing.M) {
	code := m.Run()
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
	os.Exit(code)
}

func build(t testing.TB) {
	t.Helper()
	bins.once.Do(func() {
		dir, err := os.MkdirTemp("", "ccd-e2e-bin-")
		if err != nil {
			bins.err = err.Error()
			return
		}
		bins.dir = dir
		bins.ccd, bins.hook, bins.mc = filepath.Join(dir, "ccd"), filepath.Join(dir, "ccd-hook"), filepath.Join(dir, "ccd-mcp")
		for _, b := range []struct{ out, pkg string }{{bins.ccd, "./ccd"}, {bins.hook, "../hookshim/ccd-hook"}, {bins.mc, "../mcpshim/ccd-mcp"}} {
			cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
			if b.out != bins.ccd {
				cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				bins.err = fmt.Sprintf("build %s: %v\n%s", b.pkg, err, out)
				return
			}
		}
	})
	if bins.err != "" {
		t.Fatal(bins.err)
	}
}

// env is one test's private daemon world.
type env struct {
	t    *testing.T
	home string
	vars []string
}

func newEnv(t *testing.T, extra ...string) *env {
	t.Helper()
	build(t)
	// A short state dir keeps the socket path far below its limit.
	home, err := os.MkdirTemp("/tmp", "ccde")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, home: home}
	// Language servers only where a test asks for them (CCD_LSP=auto).
	e.vars = append(e.vars, "CCD_HOME="+home, "CCD_EXE="+bins.ccd, "CCD_SOCKET=", "XDG_RUNTIME_DIR=", "CCD_LSP=off")
	e.vars = append(e.vars, extra...)
	t.Cleanup(func() {
		e.run(bins.ccd, nil, "stop")
		e.killAll()
		os.RemoveAll(home)
	})
	return e
}

type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
}

func (e *env) run(bin string, stdin []byte, args ...string) result {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), e.vars...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(t0)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.code = -1
		r.stderr += err.Error()
	}
	return r
}

func (e *env) client() *testClient { return newTestClient(filepath.Join(e.home, "ccd.sock")) }

// daemons lists the pids of daemon processes of this test's binary and
// state directory.
func (e *env) daemons() []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, d := range ents {
		var pid int
		if _, err := fmt.Sscan(d.Name(), &pid); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || !bytes.HasPrefix(cmdline, []byte(bins.ccd+"\x00daemon")) {
			continue
		}
		envb, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if bytes.Contains(envb, []byte("CCD_HOME="+e.home+"\x00")) {
			if st, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); err == nil && !strings.Contains(string(st), ") Z ") {
				pids = append(pids, pid)
			}
		}
	}
	sort.Ints(pids)
	return pids
}

func (e *env) killAll() {
	for _, p := range e.daemons() {
		syscall.Kill(p, syscall.SIGKILL)
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", d, what)
}

// tempDir is t.TempDir for workspaces: the daemon may still be writing
// artifacts into .codecanvas/ when the test ends (it is stopped by a
// cleanup that runs later), so removal is retried for a moment.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", strings.ReplaceAll(t.Name(), "/", "_"))
	if err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	t.Cleanup(func() {
		for i := 0; i < 50; i++ {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Errorf("could not remove %s", dir)
	})
	return dir
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	return testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "graph", name+".txtar")), tempDir(t))
}

var event = []byte(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/x.py"},"session_id":"s1","cwd":"/tmp"}`)

func TestAutostartRaceStartsOneDaemon(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	results := make([]result, 20)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = e.run(bins.hook, event)
		}(i)
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 || r.stdout != "" {
			t.Errorf("shim %d: exit %d, stdout %q, stderr %q", i, r.code, r.stdout, r.stderr)
		}
	}
	// Losers of the lock race exit on their own; give them a moment.
	waitFor(t, "exactly one daemon", 30*time.Second, func() bool { return len(e.daemons()) == 1 })
	time.Sleep(300 * time.Millisecond)
	if n := len(e.daemons()); n != 1 {
		t.Fatalf("%d daemons running, want 1: %v", n, e.daemons())
	}
	var st wire.Status
	if err := e.client().Do(context.Background(), http.MethodGet, "/v1/status", nil, &st); err != nil {
		t.Fatal(err)
	}
	if st.Requests < 20 {
		t.Errorf("daemon saw %d requests, want at least the 20 hook events", st.Requests)
	}
	if fi, err := os.Stat(filepath.Join(e.home, "ccd.sock")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v %v, want 0600", fi.Mode(), err)
	}
	if fi, err := os.Stat(e.home); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode: %v %v, want 0700", fi.Mode(), err)
	}
}

func TestInitStatusImpactStop(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	r := e.run(bins.ccd, nil, "init", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "parsed") || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("init: %+v", r)
	}
	var st wire.Status
	if err := json.Unmarshal([]byte(e.run(bins.ccd, nil, "status", "--json").stdout), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Workspaces) != 1 || st.Workspaces[0].State != "ready" || st.Workspaces[0].Nodes == 0 ||
		!st.Workspaces[0].Fresh || st.Workspaces[0].Generation != 1 || st.PID == 0 || st.RSSBytes == 0 {
		t.Fatalf("status: %+v", st)
	}
	if se := st.Workspaces[0].SyntaxErrors; len(se) != 1 || se[0].Path != "broken/partial.py" || se[0].Line != 5 || se[0].Errors == 0 {
		t.Errorf("status --json syntax errors: %+v", se)
	}
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "syntax errors in broken/partial.py:5") {
		t.Errorf("status does not name the file with syntax errors:\n%s", r.stdout)
	}
	// Live profiles are served on the socket.
	var heap bytes.Buffer
	if err := e.client().Do(context.Background(), http.MethodGet, "/debug/pprof/heap?debug=1", nil, &heap); err != nil ||
		!strings.Contains(heap.String(), "heap profile") {
		t.Errorf("GET /debug/pprof/heap: %v %.80q", err, heap.String())
	}
	// The daemon runs with lazily freed memory (see daemon/cli/lazyfree.go).
	if env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", st.PID)); err != nil ||
		!strings.Contains(string(env), "madvdontneed=0") {
		t.Errorf("the daemon's environment lacks GODEBUG=madvdontneed=0 (%v)", err)
	}
	// The daemon answers exactly what the in-process CLI computes.
	for _, args := range [][]string{
		{"impact", "--root", dir, "total"},
		{"impact", "--root", dir, "Cart.add", "--json", "--depth", "1"},
		{"symbols", "--root", dir, "amout"},
	} {
		viaDaemon := e.run(bins.ccd, nil, args...)
		e.vars = append(e.vars, "CCD_NO_DAEMON=1")
		inProc := e.run(bins.ccd, nil, args...)
		e.vars = e.vars[:len(e.vars)-1]
		if viaDaemon.code != 0 || viaDaemon.stdout != inProc.stdout {
			t.Errorf("%v: daemon and in-process answers differ:\n--- daemon (exit %d) ---\n%s%s\n--- in-process ---\n%s",
				args, viaDaemon.code, viaDaemon.stdout, viaDaemon.stderr, inProc.stdout)
		}
	}
	// An unknown symbol gets the envelope's message and hint.
	r = e.run(bins.ccd, nil, "impact", "--root", dir, "Cart.ad")
	if r.code != 1 || !strings.Contains(r.stderr, "symbol not found") || !strings.Contains(r.stderr, "Cart.add") || !strings.Contains(r.stderr, "Hint:") {
		t.Errorf("unknown symbol via daemon: %+v", r)
	}
	// Answers say which generation they reflect.
	resp, err := e.client().Raw(context.Background(), http.MethodGet, "/v1/symbols?q=total&root="+dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("X-Ccd-Generation") != "1" || resp.Header.Get("X-Ccd-Fresh") != "true" {
		t.Errorf("meta headers: %v", resp.Header)
	}
	if r := e.run(bins.ccd, nil, "stop"); r.code != 0 || !strings.Contains(r.stdout, "stopped") {
		t.Fatalf("stop: %+v", r)
	}
	waitFor(t, "socket removed", 30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(e.home, "ccd.sock"))
		return os.IsNotExist(err)
	})
	waitFor(t, "daemon process to exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
}

func TestHookFailsOpen(t *testing.T) {
	e := newEnv(t)
	logLines := func() int {
		b, _ := os.ReadFile(filepath.Join(e.home, "hook.log"))
		return bytes.Count(b, []byte("\n"))
	}
	cases := []struct {
		name  string
		vars  []string
		stdin []byte
	}{
		{"no daemon and autostart off", []string{"CCD_NO_AUTOSTART=1"}, event},
		{"daemon binary missing", []string{"CCD_EXE=/nonexistent/ccd", "CCD_HOOK_BUDGET_MS=500"}, event},
		{"empty stdin", nil, []byte{}},
		{"socket path too long", []string{"CCD_SOCKET=/tmp/" + strings.Repeat("x", 120)}, event},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := logLines()
			saved := e.vars
			e.vars = append(append([]string(nil), e.vars...), c.vars...)
			r := e.run(bins.hook, c.stdin)
			e.vars = saved
			if r.code != 0 || r.stdout != "" {
				t.Errorf("exit %d stdout %q stderr %q: a hook must fail open", r.code, r.stdout, r.stderr)
			}
			if r.took > 3*time.Second {
				t.Errorf("took %s: the shim must give up within its budget", r.took)
			}
			if logLines() <= before {
				t.Errorf("no cause logged to hook.log")
			}
		})
	}
	// Malformed JSON reaches a live daemon and still yields exit 0, no output.
	if r := e.run(bins.hook, []byte("{not json")); r.code != 0 || r.stdout != "" {
		t.Errorf("malformed JSON: %+v", r)
	}
}

func TestLongSocketPathIsAClearError(t *testing.T) {
	e := newEnv(t, "CCD_SOCKET=/tmp/"+strings.Repeat("s", 120))
	r := e.run(bins.ccd, nil, "init", t.TempDir())
	if r.code == 0 || !strings.Contains(r.stderr, "over the unix socket limit") || !strings.Contains(r.stderr, "CCD_SOCKET") {
		t.Fatalf("want a clear error naming the limit and the fix, got %+v", r)
	}
}

func TestKillDuringIndexingRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a large tree")
	}
	e := newEnv(t)
	big := filepath.Join(runtime.GOROOT(), "src", "cmd")
	if r := e.run(bins.ccd, nil, "init", "--no-wait", big); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	var first int
	waitFor(t, "daemon indexing", 30*time.Second, func() bool {
		var st wire.Status
		if e.client().Do(context.Background(), http.MethodGet, "/v1/status", nil, &st) != nil || len(st.Workspaces) == 0 {
			return false
		}
		first = st.PID
		return st.Workspaces[0].State == "indexing"
	})
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "daemon gone", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	// The next shim finds a dead socket and starts a new daemon.
	if r := e.run(bins.hook, event); r.code != 0 || r.stdout != "" {
		t.Fatalf("hook after kill: %+v", r)
	}
	pids := e.daemons()
	if len(pids) != 1 || pids[0] == first {
		hl, _ := os.ReadFile(filepath.Join(e.home, "hook.log"))
		dl, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
		t.Fatalf("daemons after restart: %v (killed %d)\nhook.log:\n%s\ndaemon.log:\n%s", pids, first, hl, dl)
	}
	r := e.run(bins.ccd, nil, "init", big)
	if r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("re-init after kill: %+v", r)
	}
}

func TestHandOverToNewerClient(t *testing.T) {
	e := newEnv(t)
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("detach: %+v", r)
	}
	pids := e.daemons()
	if len(pids) != 1 {
		t.Fatalf("daemons: %v", pids)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://ccd/v1/ping", nil)
	req.Header.Set(wire.VersionHeader, "99.0.0")
	resp, err := e.client().HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Ccd-Handover") != "1" {
		t.Fatalf("hand-over answer: %d %v", resp.StatusCode, resp.Header)
	}
	waitFor(t, "old daemon to hand over", 10*time.Second, func() bool { return len(e.daemons()) == 0 })

	// The ccd that starts next is the same old one: it hands over no more
	// (issue 17 #12: it restarted on every event), and says why in its log.
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("detach again: %+v", r)
	}
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequest(http.MethodGet, "http://ccd/v1/ping", nil)
		req.Header.Set(wire.VersionHeader, "99.0.0")
		resp, err := e.client().HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("X-Ccd-Handover") != "" {
			t.Fatalf("request %d: handed over again", i)
		}
	}
	time.Sleep(300 * time.Millisecond)
	if len(e.daemons()) != 1 {
		t.Fatalf("daemons after repeated newer clients: %v", e.daemons())
	}
	b, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(b), "still "+wire.Version) {
		t.Errorf("the log does not say the versions differ:\n%s", b)
	}
}

func TestIdleExit(t *testing.T) {
	e := newEnv(t, "CCD_IDLE_TIMEOUT=400ms")
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("detach: %+v", r)
	}
	waitFor(t, "idle exit", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
	b, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(b), "idle for") {
		t.Errorf("log does not say why it stopped:\n%s", b)
	}
}

func TestRootRules(t *testing.T) {
	home := t.TempDir()
	e := newEnv(t, "HOME="+home)
	for _, c := range []struct {
		dir, want string
		args      []string
	}{
		{"/", "system directory", nil},
		{"/usr", "system directory", nil},
		{"/etc/ssl", "system directory", nil}, // a system tree's subtree too
		{home, "home directory", nil},
		{t.TempDir(), "no source files", nil},
	} {
		r := e.run(bins.ccd, nil, append([]string{"init", c.dir}, c.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("init %s: want an error about %q, got %+v", c.dir, c.want, r)
		}
	}
	// --force indexes the home directory when asked.
	os.WriteFile(filepath.Join(home, "main.go"), []byte("package main\nfunc main() {}\n"), 0o644)
	if r := e.run(bins.ccd, nil, "init", "--force", home); r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Errorf("init --force HOME: %+v", r)
	}
	// An empty clone is not locked in: init refuses it before registering
	// it, by the rule every auto-registration follows; once files appear,
	// init indexes it.
	empty := t.TempDir()
	e.run(bins.ccd, nil, "init", empty)
	var werr *wire.Error
	if err := e.client().Do(context.Background(), http.MethodPost, "/v1/workspaces", wire.AddWorkspace{Root: empty}, nil); !errors.As(err, &werr) ||
		werr.Status != http.StatusUnprocessableEntity || werr.Code != "bad_root" || !strings.Contains(werr.Message, "no source files") {
		t.Errorf("POST /v1/workspaces of an empty root: %v", err)
	}
	var list []wire.WorkspaceInfo
	if err := e.client().Do(context.Background(), http.MethodGet, "/v1/workspaces", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, w := range list {
		if w.Root == empty {
			t.Errorf("the empty root was registered: %+v", w)
		}
	}
	os.WriteFile(filepath.Join(empty, "a.py"), []byte("def f():\n    pass\n"), 0o644)
	if r := e.run(bins.ccd, nil, "init", empty); r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Errorf("init after files appeared: %+v", r)
	}
}

func TestMCPUpgradeRequired(t *testing.T) {
	e := newEnv(t)
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("start: %+v", r)
	}
	// A plain GET without the upgrade is refused with the error envelope.
	resp, err := (wire.Client{Version: wire.Version}).Call(filepath.Join(e.home, "ccd.sock"), "GET", "/v1/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "Upgrade: mcp") || !strings.Contains(string(resp.Body), `"hint"`) {
		t.Errorf("GET /v1/mcp without upgrade: %d %s", resp.Status, resp.Body)
	}
}

// BenchmarkHookRoundTrip runs the real ccd-hook binary against a warm
// daemon (an event that produces no card) and reports p50/p99, next to
// the floor of starting a static no-op binary.
func BenchmarkHookRoundTrip(b *testing.B) {
	build(b)
	home, _ := os.MkdirTemp("/tmp", "ccdb")
	defer os.RemoveAll(home)
	vars := append(os.Environ(), "CCD_HOME="+home, "CCD_EXE="+bins.ccd, "CCD_SOCKET=", "XDG_RUNTIME_DIR=")
	runOnce := func(bin string, stdin []byte) time.Duration {
		cmd := exec.Command(bin)
		cmd.Env = vars
		cmd.Stdin = bytes.NewReader(stdin)
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	stop := func() {
		cmd := exec.Command(bins.ccd, "stop")
		cmd.Env = vars
		cmd.Run()
	}
	runOnce(bins.hook, event) // starts the daemon
	defer stop()
	noop := filepath.Join(bins.dir, "noop")
	if _, err := os.Stat(noop); err != nil {
		src := filepath.Join(bins.dir, "noop.go")
		os.WriteFile(src, []byte("package main\nfunc main() {}\n"), 0o644)
		cmd := exec.Command("go", "build", "-o", noop, src)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
	for _, c := range []struct {
		name string
		bin  string
	}{{"ccd-hook", bins.hook}, {"noop-static-binary", noop}} {
		b.Run(c.name, func(b *testing.B) {
			ts := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				ts = append(ts, runOnce(c.bin, event))
			}
			sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
			b.ReportMetric(float64(ts[len(ts)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(ts[len(ts)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// symbolsOf asks the daemon for the ids matching q.
func (e *env) symbolsOf(t *testing.T, root, q string) []string {
	t.Helper()
	var ans struct {
		Workspace wire.WorkspaceInfo `json:"workspace"`
		Symbols   []struct {
			ID string `json:"id"`
		} `json:"symbols"`
	}
	p := "/v1/symbols?limit=50&q=" + q + "&root=" + root
	if err := e.client().Do(context.Background(), http.MethodGet, p, nil, &ans); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range ans.Symbols {
		ids = append(ids, s.ID)
	}
	return ids
}

// callerConfidence is the confidence `ccd impact --json` gives caller
// among callee's callers in the workspace at root, "" when it is none.
func (e *env) callerConfidence(root, callee, caller string) string {
	r := e.run(bins.ccd, nil, "impact", "--root", root, callee, "--json")
	var ans struct {
		Callers []struct{ ID, Confidence string } `json:"callers"`
	}
	json.Unmarshal([]byte(r.stdout), &ans)
	for _, c := range ans.Callers {
		if c.ID == caller {
			return c.Confidence
		}
	}
	return ""
}

func (e *env) workspace(t *testing.T) wire.WorkspaceInfo {
	t.Helper()
	var list []wire.WorkspaceInfo
	if err := e.client().Do(context.Background(), http.MethodGet, "/v1/workspaces", nil, &list); err != nil || len(list) != 1 {
		t.Fatalf("workspaces: %v %v", list, err)
	}
	return list[0]
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestWatchKeepsGraphFresh(t *testing.T) {
	e := newEnv(t, "CCD_DEBOUNCE_MS=20")
	dir := fixture(t, "python")
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	head0 := e.workspace(t).Head
	if len(head0) != 40 {
		t.Fatalf("HEAD not reported: %q", head0)
	}
	has := func(q, id string) func() bool {
		return func() bool { return contains(e.symbolsOf(t, dir, q), id) }
	}
	write := func(rel, data string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// modify
	f := filepath.Join(dir, "shop", "pricing.py")
	b, _ := os.ReadFile(f)
	write("shop/pricing.py", string(b)+"\n\ndef surcharge(cart):\n    return total(cart) + 1\n")
	waitFor(t, "modified file's new function", 30*time.Second, has("surcharge", "shop/pricing.py::surcharge"))
	// create inside a new nested directory, written right after mkdir -p
	write("shop/extra/deep/promo.py", "from shop.pricing import total\n\ndef promo_price(cart):\n    return total(cart)\n")
	waitFor(t, "file in a new nested directory", 30*time.Second, has("promo_price", "shop/extra/deep/promo.py::promo_price"))
	// the new caller shows up in impact
	var ans struct {
		Impact struct {
			Callers []struct{ ID string } `json:"callers"`
		} `json:"impact"`
	}
	if err := e.client().Do(context.Background(), http.MethodGet, "/v1/impact?symbol=shop/pricing.py::total&root="+dir, nil, &ans); err != nil {
		t.Fatal(err)
	}
	var callers []string
	for _, c := range ans.Impact.Callers {
		callers = append(callers, c.ID)
	}
	if !contains(callers, "shop/extra/deep/promo.py::promo_price") || !contains(callers, "shop/pricing.py::surcharge") {
		t.Errorf("impact of total does not list the new callers: %v", callers)
	}
	// rename
	if err := os.Rename(filepath.Join(dir, "shop/extra/deep/promo.py"), filepath.Join(dir, "shop/extra/deep/offers.py")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "renamed file", 30*time.Second, func() bool {
		ids := e.symbolsOf(t, dir, "promo_price")
		return contains(ids, "shop/extra/deep/offers.py::promo_price") && !contains(ids, "shop/extra/deep/promo.py::promo_price")
	})
	// delete
	os.Remove(filepath.Join(dir, "shop/extra/deep/offers.py"))
	waitFor(t, "deleted file gone", 30*time.Second, func() bool {
		return !contains(e.symbolsOf(t, dir, "promo_price"), "shop/extra/deep/offers.py::promo_price")
	})
	// branch switch
	git(t, dir, "checkout", "-q", "-b", "feature")
	write("shop/feature.py", "def feature_flag():\n    return True\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "feature")
	waitFor(t, "feature branch file", 30*time.Second, has("feature_flag", "shop/feature.py::feature_flag"))
	git(t, dir, "checkout", "-q", "main")
	waitFor(t, "back on main: feature file gone", 30*time.Second, func() bool {
		return !contains(e.symbolsOf(t, dir, "feature_flag"), "shop/feature.py::feature_flag")
	})
	waitFor(t, "fresh, with main's HEAD", 5*time.Second, func() bool {
		w := e.workspace(t)
		return w.Fresh && w.Head == head0
	})
	w := e.workspace(t)
	if w.Updates < 5 || w.UpdateMS <= 0 {
		t.Errorf("updates not counted: %+v", w)
	}
}

func TestWarmStartReparsesOnlyChanges(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	cold := e.workspace(t)
	if cold.Warm || cold.Reparsed != cold.Files || cold.Files == 0 {
		t.Fatalf("cold index: %+v", cold)
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecanvas", "ccd.db")); err != nil {
		t.Fatalf("no store written: %v", err)
	}
	stop := func() {
		t.Helper()
		e.run(bins.ccd, nil, "stop")
		waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	}
	start := func() wire.WorkspaceInfo {
		t.Helper()
		if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
			t.Fatalf("init after restart: %+v", r)
		}
		return e.workspace(t)
	}
	restart := func() wire.WorkspaceInfo {
		t.Helper()
		stop()
		return start()
	}
	// Nothing changed: nothing is parsed.
	w := restart()
	if !w.Warm || w.Reparsed != 0 || w.Reused != cold.Files || w.Nodes != cold.Nodes || w.Edges != cold.Edges {
		t.Fatalf("warm start with no changes: %+v (cold %+v)", w, cold)
	}
	// One file edited while the daemon was down: exactly one is parsed.
	stop()
	p := filepath.Join(dir, "shop", "util", "fmt.py")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\ndef cents(v):\n    return money(v) + 'c'\n")...), 0o644)
	w = start()
	if !w.Warm || w.Reparsed != 1 || w.Reused != cold.Files-1 {
		dl, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
		t.Fatalf("warm start after one edit: %+v\ndaemon.log:\n%s", w, dl)
	}
	if !contains(e.symbolsOf(t, dir, "cents"), "shop/util/fmt.py::cents") {
		t.Errorf("the edit is not in the graph")
	}
	// An edit applied while the daemon runs is persisted in the background:
	// the next start parses nothing.
	q := filepath.Join(dir, "shop", "pricing.py")
	b, _ = os.ReadFile(q)
	os.WriteFile(q, append(b, []byte("\ndef tip(cart):\n    return 1\n")...), 0o644)
	waitFor(t, "live edit applied", 10*time.Second, func() bool { return contains(e.symbolsOf(t, dir, "tip"), "shop/pricing.py::tip") })
	w = restart()
	if !w.Warm || w.Reparsed != 0 || !contains(e.symbolsOf(t, dir, "tip"), "shop/pricing.py::tip") {
		t.Fatalf("warm start after a live edit: %+v", w)
	}
}

func TestBadRequestsGetTheEnvelope(t *testing.T) {
	e := newEnv(t)
	if r := e.run(bins.ccd, nil, "daemon", "--detach"); r.code != 0 {
		t.Fatalf("detach: %+v", r)
	}
	sock := filepath.Join(e.home, "ccd.sock")
	for _, c := range []struct {
		method, path, body, code string
		status                   int
	}{
		{"POST", "/v1/workspaces", "{not json", "bad_request", 400},
		{"POST", "/v1/workspaces", "{}", "bad_request", 400},
		{"GET", "/v1/impact?root=/tmp", "", "bad_request", 400},
		{"GET", "/v1/impact?symbol=x&root=/nowhere/at/all", "", "not_initialized", 404},
		{"GET", "/v1/impact?symbol=x&depth=-1&root=/tmp", "", "bad_request", 400},
		{"GET", "/v1/impact?symbol=x&min_confidence=sure&root=/tmp", "", "bad_request", 400},
		{"GET", "/v1/symbols?q=x&limit=0&root=/tmp", "", "bad_request", 400},
		{"GET", "/v1/nope", "", "not_found", 404},
		{"POST", "/v1/workspaces", `{"root":"/"}`, "bad_root", 422},
	} {
		var body []byte
		if c.body != "" {
			body = []byte(c.body)
		}
		resp, err := (wire.Client{Version: wire.Version}).Call(sock, c.method, c.path, body)
		if err != nil {
			t.Fatal(err)
		}
		var we *wire.Error
		if resp.Status != c.status || !errors.As(resp.Err(), &we) || we.Code != c.code || we.Message == "" || we.Hint == "" {
			t.Errorf("%s %s: status %d, envelope %+v; want %d %s with a message and a hint", c.method, c.path, resp.Status, resp.Err(), c.status, c.code)
		}
	}
}

func TestCorruptStoreIsRebuilt(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	cold := e.workspace(t)
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	db := filepath.Join(dir, ".codecanvas", "ccd.db")
	// Keep only the meta and freelist pages: the data pages the metas point
	// at are gone, and reading their mapping would fault. (Cutting the file
	// in half may only remove bbolt's preallocated, unused tail.)
	b, _ := os.ReadFile(db)
	os.WriteFile(db, b[:3*4096], 0o600)
	r := e.run(bins.ccd, nil, "init", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("init over a truncated db: %+v", r)
	}
	w := e.workspace(t)
	if w.Warm || w.Nodes != cold.Nodes || w.Edges != cold.Edges {
		t.Errorf("rebuild: %+v, want a cold build equal to %+v", w, cold)
	}
	if aside, _ := filepath.Glob(db + ".bad-*"); len(aside) != 1 {
		t.Errorf("the bad db was not moved aside: %v", aside)
	}
	log, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(log), "moved to") {
		t.Errorf("no log line about the bad db:\n%s", log)
	}
	if len(e.daemons()) != 1 {
		t.Errorf("daemon did not survive")
	}
}

func TestMetrics(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	e.run(bins.hook, event)
	// Distinct paths must not grow the labels (issue 17 #18: 82 MB after
	// 20,000 paths).
	for i := 0; i < 200; i++ {
		var sink bytes.Buffer
		e.client().Do(context.Background(), http.MethodGet, fmt.Sprintf("/v1/nope-%d", i), nil, &sink)
		e.client().Do(context.Background(), http.MethodGet, fmt.Sprintf("/v1/search/x%d", i), nil, &sink)
	}
	var b bytes.Buffer
	if err := e.client().Do(context.Background(), http.MethodGet, "/metrics", nil, &b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Contains(text, "nope-") || strings.Contains(text, "/v1/search/x") {
		t.Errorf("a path sent by a client became a metrics label")
	}
	for _, want := range []string{
		`ccd_requests_total{code="200",endpoint="/v1/hook"} 1`,
		`ccd_workspace_nodes{root="` + e.workspace(t).Root + `"}`,
		"ccd_request_seconds_bucket", "process_resident_memory_bytes", "go_goroutines", "ccd_uptime_seconds",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestShimsStayPure keeps the shims small and static: nothing that links
// cgo (tree-sitter), the engine or the daemon's heavy dependencies.
func TestShimsStayPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../hookshim/ccd-hook", "../mcpshim/ccd-mcp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"go-tree-sitter", "/core/", "bbolt", "prometheus", "fsnotify", "ccd/daemon/cli"} {
			if strings.Contains(dep, bad) {
				t.Errorf("a shim depends on %s", dep)
			}
		}
	}
	// The hook shim runs on every tool call: not even net/http, whose
	// initialisation alone costs milliseconds.
	out, err = exec.Command("go", "list", "-deps", "../hookshim/ccd-hook").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net/http" {
			t.Errorf("ccd-hook depends on net/http")
		}
	}
}

// benchWorkspace builds the binaries, copies CCD_BENCH_ROOT (default
// GOROOT/src/net/http) to a temporary workspace and makes a private state
// dir; vars is the environment for ccd processes, with extra appended.
// Everything is removed when the benchmark ends.
func benchWorkspace(b *testing.B, extra ...string) (root, home string, vars []string) {
	b.Helper()
	build(b)
	src := os.Getenv("CCD_BENCH_ROOT")
	if src == "" {
		src = filepath.Join(runtime.GOROOT(), "src", "net", "http")
	}
	work, _ := os.MkdirTemp("/tmp", "ccdw")
	b.Cleanup(func() { os.RemoveAll(work) })
	root = filepath.Join(work, "ws")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		b.Fatalf("copy: %v %s", err, out)
	}
	home, _ = os.MkdirTemp("/tmp", "ccdb")
	b.Cleanup(func() { os.RemoveAll(home) })
	vars = append(os.Environ(), "CCD_HOME="+home, "CCD_EXE="+bins.ccd, "CCD_SOCKET=", "XDG_RUNTIME_DIR=", "CCD_LSP=off")
	return root, home, append(vars, extra...)
}

// BenchmarkEditToFresh edits a file of a watched workspace over and over
// (debounce 0, as the target excludes it) and reports how long until the
// new generation is visible: as seen by a polling client, and as measured
// by the daemon (first event to new graph). CCD_BENCH_ROOT picks the
// workspace (default: a copy of GOROOT/src/net/http), CCD_BENCH_FILE the
// Go file to edit (default: the largest file indexed).
func BenchmarkEditToFresh(b *testing.B) {
	root, home, vars := benchWorkspace(b, "CCD_DEBOUNCE_MS=0")
	run := func(args ...string) {
		cmd := exec.Command(bins.ccd, args...)
		cmd.Env = vars
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v %s", args, err, out)
		}
	}
	run("init", root)
	defer run("stop")
	c := newTestClient(filepath.Join(home, "ccd.sock"))
	ws := func() wire.WorkspaceInfo {
		var list []wire.WorkspaceInfo
		if err := c.Do(context.Background(), http.MethodGet, "/v1/workspaces", nil, &list); err != nil || len(list) != 1 {
			b.Fatalf("%v %v", list, err)
		}
		return list[0]
	}
	// The file to edit: CCD_BENCH_FILE (relative to the root), else the
	// largest file the workspace indexed.
	target := filepath.Join(root, os.Getenv("CCD_BENCH_FILE"))
	if os.Getenv("CCD_BENCH_FILE") == "" {
		var exp struct {
			Nodes []struct {
				Kind, Path string
			} `json:"nodes"`
		}
		var buf bytes.Buffer
		if err := c.Do(context.Background(), http.MethodGet, "/v1/export?root="+root, nil, &buf); err != nil {
			b.Fatal(err)
		}
		json.Unmarshal(buf.Bytes(), &exp)
		var size int64
		for _, n := range exp.Nodes {
			if fi, err := os.Stat(filepath.Join(root, n.Path)); n.Kind == "module" && err == nil && fi.Size() > size {
				target, size = filepath.Join(root, n.Path), fi.Size()
			}
		}
	}
	b.Logf("editing %s", target)
	// Untimed edits first (CCD_BENCH_WARMUP, default 5): right after it
	// starts, the daemon finishes its start-up work in the background
	// (watches, resolver tables, the architecture picture).
	warm := 5
	if v, err := strconv.Atoi(os.Getenv("CCD_BENCH_WARMUP")); err == nil && v >= 0 {
		warm = v
	}
	edit := func(kind string, i int) (clientT, daemonT time.Duration) {
		gen := ws().Generation
		f, _ := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		t0 := time.Now()
		if kind == "function" {
			fmt.Fprintf(f, "\nfunc BenchAdded%d() int { return %d }\n", i, i)
		} else {
			fmt.Fprintf(f, "\n// edit %d\n", i)
		}
		f.Close()
		deadline := time.Now().Add(time.Minute)
		for {
			if time.Now().After(deadline) {
				b.Fatalf("no new generation within a minute of editing %s", target)
			}
			w := ws()
			if w.Generation > gen && w.Fresh {
				return time.Since(t0), time.Duration(w.UpdateMS * float64(time.Millisecond))
			}
			time.Sleep(5 * time.Millisecond) // polling harder would steal the CPU being measured
		}
	}
	n := 0
	for range warm {
		edit("comment", n)
		n++
	}
	// "comment" appends a comment (the file's facts keep their shape);
	// "function" appends a new function (the file's surface changes, so
	// node indexes move and dependents are re-resolved).
	for _, kind := range []string{"comment", "function"} {
		b.Run(kind, func(b *testing.B) {
			var client, daemon []time.Duration
			for i := 0; i < b.N; i++ {
				c, d := edit(kind, n)
				n++
				client, daemon = append(client, c), append(daemon, d)
				// Agents edit seconds apart (a model call between two
				// edits): let the background work of this edit (saving,
				// search, the idle collection 100 ms after the last
				// request) finish.
				b.StopTimer()
				time.Sleep(400 * time.Millisecond)
				b.StartTimer()
			}
			b.StopTimer()
			pct := func(ts []time.Duration, p int) float64 {
				sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
				return float64(ts[min(len(ts)-1, len(ts)*p/100)].Microseconds()) / 1000
			}
			b.ReportMetric(pct(client, 50), "client-p50-ms")
			b.ReportMetric(pct(client, 99), "client-p99-ms")
			b.ReportMetric(pct(daemon, 50), "daemon-p50-ms")
			b.ReportMetric(pct(daemon, 99), "daemon-p99-ms")
		})
	}
}

// TestEditBeforeWatchesIsSeen edits a file after indexing finished but
// before the watches are in place: no event is ever delivered for it, and
// the rescan that ends the watcher's setup must still pick it up.
func TestEditBeforeWatchesIsSeen(t *testing.T) {
	e := newEnv(t, "CCD_TEST_WATCH_DELAY_MS=1500", "CCD_DEBOUNCE_MS=10")
	dir := fixture(t, "python")
	// init waits until the workspace is fresh; --no-wait returns at once, so
	// the test can act inside the window.
	if r := e.run(bins.ccd, nil, "init", "--no-wait", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	waitFor(t, "indexed", 30*time.Second, func() bool { return e.workspace(t).State == "ready" })
	if w := e.workspace(t); w.Fresh {
		t.Fatalf("fresh before the watches are in place: %+v", w)
	}
	p := filepath.Join(dir, "shop", "pricing.py")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, append(b, []byte("\ndef early_bird(cart):\n    return 0\n")...), 0o644)
	waitFor(t, "the early edit in the graph", 10*time.Second, func() bool {
		return contains(e.symbolsOf(t, dir, "early_bird"), "shop/pricing.py::early_bird")
	})
	waitFor(t, "fresh", 30*time.Second, func() bool { return e.workspace(t).Fresh })
}

// TestCLIImpactOnTheBoard: an impact asked for on the command line is
// evidence and the board's focus, as an agent's through the MCP tool is,
// so `ccd render board` right after it is not empty; and .codecanvas/
// keeps only the newest impact pictures (and the ones the board shows).
func TestCLIImpactOnTheBoard(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if r := e.run(bins.ccd, nil, "impact", "--root", dir, "Cart.add"); r.code != 0 {
		t.Fatalf("impact: %+v", r)
	}
	var state struct {
		Focus    struct{ Label, Node string } `json:"focus"`
		Evidence []struct {
			ID, Symbol, Image string
		} `json:"evidence"`
	}
	statePath := filepath.Join(dir, ".codecanvas", "state.json")
	waitFor(t, "the impact on the board", 30*time.Second, func() bool {
		b, err := os.ReadFile(statePath)
		return err == nil && json.Unmarshal(b, &state) == nil && len(state.Evidence) == 1 && state.Evidence[0].Image != ""
	})
	if state.Focus.Label != "Cart.add" || state.Focus.Node != "shop/models.py::Cart.add" || state.Evidence[0].Symbol != "Cart.add" {
		t.Errorf("board after a CLI impact: %+v", state)
	}
	syms := []string{"Base.describe", "Base.label", "Item.label", "Cart.amounts", "discount", "total", "render", "rebuild", "money", "retry", "main", "test_total"}
	for _, s := range syms {
		if r := e.run(bins.ccd, nil, "impact", "--root", dir, s); r.code != 0 {
			t.Fatalf("impact %s: %+v", s, r)
		}
	}
	waitFor(t, "every impact on the board", 30*time.Second, func() bool {
		b, err := os.ReadFile(statePath)
		return err == nil && json.Unmarshal(b, &state) == nil && len(state.Evidence) == 1+len(syms) &&
			state.Evidence[len(state.Evidence)-1].Image != ""
	})
	if state.Focus.Label != "test_total" {
		t.Errorf("focus after the last impact: %+v", state.Focus)
	}
	pics, _ := filepath.Glob(filepath.Join(dir, ".codecanvas", "impact_*.png"))
	if len(pics) > 8+6 || len(pics) < 6 {
		t.Errorf("%d impact pictures kept after %d impacts, want the newest 8 and the 6 the board shows", len(pics), 1+len(syms))
	}
	for _, ev := range state.Evidence[len(state.Evidence)-6:] {
		if _, err := os.Stat(filepath.Join(dir, ".codecanvas", ev.Image)); err != nil {
			t.Errorf("the board shows %s, which is gone: %v", ev.Image, err)
		}
	}
	if r := e.run(bins.ccd, nil, "render", "board", "--root", dir); r.code != 0 {
		t.Errorf("render board: %+v", r)
	}
}

// TestDaemonHasNoDirectoryOfItsOwn: the daemon does not work relative to
// the directory it was started from: a relative root is refused,
// /proc/self/cwd is the file system root (refused), and a relative
// CLAUDE_CONFIG_DIR from a hook writes nothing there.
func TestDaemonHasNoDirectoryOfItsOwn(t *testing.T) {
	e := newEnv(t)
	start := tempDir(t)
	cmd := exec.Command(bins.ccd, "daemon", "--detach")
	cmd.Dir = start
	cmd.Env = append(os.Environ(), e.vars...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("daemon --detach: %v\n%s", err, out)
	}
	os.MkdirAll(filepath.Join(start, "proj", ".git"), 0o755)
	os.WriteFile(filepath.Join(start, "proj", "a.py"), []byte("def f():\n    pass\n"), 0o644)
	for _, root := range []string{"proj", "/proc/self/cwd"} {
		var in wire.WorkspaceInfo
		err := e.client().Do(context.Background(), http.MethodPost, "/v1/workspaces", wire.AddWorkspace{Root: root}, &in)
		var we *wire.Error
		if !errors.As(err, &we) || we.Code != "bad_root" {
			t.Errorf("root %q: %v (%+v), want bad_root", root, err, in)
		}
	}
	ev := `{"hook_event_name":"SessionStart","session_id":"r","cwd":"` + filepath.Join(start, "proj") + `","source":"startup"}`
	resp, err := e.client().Raw(context.Background(), http.MethodPost, "/v1/hook?config_dir=rel-config", strings.NewReader(ev))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(start, "rel-config")); err == nil {
		t.Error("a relative CLAUDE_CONFIG_DIR was written into the daemon's start directory")
	}
	if _, err := os.Stat("/rel-config"); err == nil {
		t.Error("a relative CLAUDE_CONFIG_DIR was written under /")
	}
}

// TestHooksSurviveADaemonRestart: a session's hooks go on after the daemon
// restarts (idle exit, upgrade): the session's memory says the root was
// announced, and the next hook registers it again rather than go silent.
func TestHooksSurviveADaemonRestart(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	read := func(file string) string {
		ev := `{"hook_event_name":"PostToolUse","session_id":"rs","cwd":"` + dir + `","tool_name":"Read","tool_input":{"file_path":"` + filepath.Join(dir, file) + `"}}`
		return e.run(bins.hook, []byte(ev)).stdout
	}
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	if out := read("shop/pricing.py"); !strings.Contains(out, "[ccd") {
		t.Fatalf("first read: no card: %q", out)
	}
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "daemon exit", 30*time.Second, func() bool { return len(e.daemons()) == 0 })
	read("shop/cli.py") // autostarts the daemon and registers the root again
	waitFor(t, "the root registered again", 30*time.Second, func() bool {
		var list []wire.WorkspaceInfo
		err := e.client().Do(context.Background(), http.MethodGet, "/v1/workspaces", nil, &list)
		return err == nil && len(list) == 1 && list[0].State == "ready"
	})
	if out := read("shop/models.py"); !strings.Contains(out, "[ccd impact]") {
		t.Errorf("no card after the restart: %q", out)
	}
}

// TestDaemonReadsTestRecording: a recording made by `ccd tests record`
// while the daemon runs is what the daemon's impact reads next (no
// restart, no re-index), and its tests are marked as seen running.
func TestDaemonReadsTestRecording(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	for rel, src := range map[string]string{
		"calc/ops.py":       "def parse(text):\n    if not text.strip():\n        return empty()\n    return [int(x) for x in text.split()]\n\n\ndef empty():\n    return []\n",
		"tests/test_ops.py": "from calc.ops import parse\n\n\ndef test_numbers():\n    assert parse('1 2') == [1, 2]\n\n\ndef test_blank():\n    assert parse(' ') == []\n",
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
		os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644)
	}
	if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 || !strings.Contains(r.stdout, "tip: `ccd tests record") {
		t.Fatalf("init (no recording yet: a tip): %+v", r)
	}
	tests := func() map[string]string {
		var ans struct {
			Impact struct {
				Tests []struct{ ID, Via string } `json:"tests"`
			} `json:"impact"`
		}
		if err := e.client().Do(context.Background(), http.MethodGet, "/v1/impact?symbol=calc/ops.py::empty&root="+dir, nil, &ans); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, x := range ans.Impact.Tests {
			out[x.ID] = x.Via
		}
		return out
	}
	if got := tests(); len(got) != 2 {
		t.Fatalf("before recording: %v, want both tests (the graph)", got)
	}
	if r := e.run(bins.ccd, nil, "tests", "record", dir); r.code != 0 {
		t.Fatalf("tests record: %+v", r)
	}
	if got := tests(); len(got) != 1 || got["tests/test_ops.py::test_blank"] != "ran" {
		t.Errorf("after recording: %v, want test_blank via ran", got)
	}
	if r := e.run(bins.ccd, nil, "status"); !strings.Contains(r.stdout, "tests: recorded ") || !strings.Contains(r.stdout, " ago: 2 tests ran 2 of 2 functions") {
		t.Errorf("status does not show the recording:\n%s", r.stdout)
	}
}
