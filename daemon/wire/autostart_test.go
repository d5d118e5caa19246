package wire

import (
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary play the daemon: started as
// `<test binary> daemon` with LEAN_FAKE_DAEMON=1, it records its start,
// waits a little (a slow start widens the race), then answers pings until
// asked to stop.
func TestMain(m *testing.M) {
	if os.Getenv("LEAN_FAKE_DAEMON") == "1" && len(os.Args) > 1 && os.Args[1] == "daemon" {
		fakeDaemon()
		return
	}
	code := m.Run()
	reapChildren()
	os.Exit(code)
}

// reapChildren waits for the processes the tests started (daemons are
// detached, not waited for), so none is left a zombie.
func reapChildren() {
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if err == syscall.ECHILD {
			return
		}
		if pid <= 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func fakeDaemon() {
	dir, _ := StateDir()
	f, err := os.OpenFile(filepath.Join(dir, "starts"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		os.Exit(3)
	}
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	f.Close()
	time.Sleep(200 * time.Millisecond)
	sock, _ := SocketPath()
	ln, err := net.Listen("unix", sock)
	if err != nil {
		os.Exit(4) // another fake daemon listens already: the test counts starts
	}
	done := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/ping", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/v1/stop", func(w http.ResponseWriter, r *http.Request) { close(done) })
	go http.Serve(ln, mux)
	select {
	case <-done:
	case <-time.After(time.Minute):
	}
	ln.Close()
}

// fakeEnv points the state dir at a fresh directory and CCD_EXE at the
// test binary playing the daemon; the daemon is stopped at the end.
func fakeEnv(t *testing.T) string {
	t.Helper()
	home, err := os.MkdirTemp("/tmp", "leant") // short: the socket path limit
	if err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	t.Setenv("CCD_HOME", home)
	t.Setenv("CCD_SOCKET", "")
	t.Setenv("CCD_EXE", self)
	t.Setenv("LEAN_FAKE_DAEMON", "1")
	t.Cleanup(func() {
		sock := filepath.Join(home, "ccd.sock")
		Client{Deadline: After(2000 * Millisecond)}.Call(sock, "GET", "/v1/stop", nil)
		for _, pid := range starts(home) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		os.RemoveAll(home)
	})
	return home
}

func starts(home string) []int {
	b, _ := os.ReadFile(filepath.Join(home, "starts"))
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	return pids
}

// TestEnsureStartsOneDaemon: many callers finding no daemon at once
// start exactly one and all get its socket.
func TestEnsureStartsOneDaemon(t *testing.T) {
	home := fakeEnv(t)
	const n = 12
	var wg sync.WaitGroup
	errs := make([]error, n)
	socks := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			socks[i], errs[i] = Client{Deadline: After(20_000 * Millisecond)}.Ensure(true)
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || socks[i] != filepath.Join(home, "ccd.sock") {
			t.Errorf("caller %d: %q %v", i, socks[i], errs[i])
		}
	}
	if pids := starts(home); len(pids) != 1 {
		t.Errorf("%d daemons started, want 1: %v", len(pids), pids)
	}
	// A running daemon is found without starting another.
	if _, err := (Client{Deadline: After(5000 * Millisecond)}).Ensure(true); err != nil {
		t.Fatal(err)
	}
	if pids := starts(home); len(pids) != 1 {
		t.Errorf("started again: %v", pids)
	}
}

func TestEnsureFailures(t *testing.T) {
	fakeEnv(t)
	t.Run("no autostart", func(t *testing.T) {
		if _, err := (Client{Deadline: After(5000 * Millisecond)}).Ensure(false); !errors.Is(err, ErrNoDaemon) {
			t.Errorf("want ErrNoDaemon, got %v", err)
		}
	})
	t.Run("missing binary", func(t *testing.T) {
		t.Setenv("CCD_EXE", "/nonexistent/ccd")
		_, err := Client{Deadline: After(5000 * Millisecond)}.Ensure(true)
		if err == nil || !strings.Contains(err.Error(), "start daemon /nonexistent/ccd: no such file") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("daemon that never answers", func(t *testing.T) {
		t.Setenv("CCD_EXE", "/bin/true")
		_, err := Client{Deadline: After(300 * Millisecond)}.Ensure(true)
		if err == nil || !strings.Contains(err.Error(), "daemon did not start in time") || !errors.Is(err, ErrNoDaemon) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("deadline passed during the last ping", func(t *testing.T) {
		// A loaded machine oversleeps: the last ping starts after the
		// deadline and meets it, which is still "no daemon".
		t.Setenv("CCD_EXE", "/bin/true")
		pause = func(ns int64) { sleep(ns + 30*Millisecond) }
		defer func() { pause = sleep }()
		_, err := Client{Deadline: After(100 * Millisecond)}.Ensure(true)
		if err == nil || !strings.Contains(err.Error(), "daemon did not start in time") || !errors.Is(err, ErrNoDaemon) {
			t.Errorf("got %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Setenv("CCD_EXE", "/bin/true")
		done := make(chan struct{})
		close(done)
		_, err := Client{Deadline: After(60_000 * Millisecond), Done: done}.Ensure(true)
		if err == nil || !strings.Contains(err.Error(), "did not start") {
			t.Errorf("got %v", err)
		}
	})
}

func TestDaemonExe(t *testing.T) {
	bin := t.TempDir()
	ccd := filepath.Join(bin, "ccd")
	os.WriteFile(ccd, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "notexec"), []byte("#!/bin/sh\n"), 0o644)
	cases := []struct{ exe, path, want, err string }{
		{exe: "/x/ccd", want: "/x/ccd"},
		{path: "/nonexistent:" + bin, want: ccd},
		{path: "relative:" + bin + "/notexec", err: "set CCD_EXE"},
		{path: "", err: "no ccd binary beside"},
	}
	for _, c := range cases {
		t.Setenv("CCD_EXE", c.exe)
		t.Setenv("PATH", c.path)
		got, err := daemonExe()
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: want an error with %q, got %q %v", c, c.err, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: got %q %v", c, got, err)
		}
	}
}

// TestStartDetached: the daemon runs `ccd daemon` in a session of its
// own, stdin on /dev/null, stdout and stderr appended to daemon.log in the
// state dir (a crash leaves a trace), with the caller's environment; a
// bare CCD_EXE is looked up on PATH.
func TestStartDetached(t *testing.T) {
	bin, out, home := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("CCD_HOME", home)
	script := "#!/bin/sh\n" +
		`set -- "$1" $$ "$(cut -d' ' -f6 /proc/$$/stat)" "$(readlink /proc/$$/fd/0)" "$(readlink /proc/$$/fd/1)" "$LEAN_MARK"` + "\n" +
		`echo "$@" > "$LEAN_OUT.tmp" && mv "$LEAN_OUT.tmp" "$LEAN_OUT"` + "\n"
	os.WriteFile(filepath.Join(bin, "fakeccd"), []byte(script), 0o755)
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("CCD_EXE", "fakeccd")
	t.Setenv("LEAN_MARK", "inherited")
	t.Setenv("LEAN_OUT", filepath.Join(out, "ran"))
	if err := StartDetached(); err != nil {
		t.Fatal(err)
	}
	var b []byte
	for i := 0; i < 500 && len(b) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		b, _ = os.ReadFile(filepath.Join(out, "ran"))
	}
	f := strings.Fields(string(b))
	if log := filepath.Join(home, "daemon.log"); len(f) != 6 || f[0] != "daemon" || f[1] != f[2] || f[3] != "/dev/null" || f[4] != log || f[5] != "inherited" {
		t.Errorf("want `daemon PID PID(session) /dev/null %s inherited`, got %q", log, b)
	}
	t.Setenv("CCD_EXE", "nosuchccd")
	if err := StartDetached(); err == nil || !strings.Contains(err.Error(), "not found in $PATH") {
		t.Errorf("bare name not on PATH: %v", err)
	}
}

// TestEnsureStartsAgainWhenTheStartedOneQuits: a started daemon may quit
// at once (a killed predecessor still held the daemon lock while it
// exited); the caller holding the spawn lock then starts another.
func TestEnsureStartsAgainWhenTheStartedOneQuits(t *testing.T) {
	home := fakeEnv(t)
	self, _ := os.Executable()
	script := filepath.Join(home, "ccd")
	marker := filepath.Join(home, "quit-once")
	body := "#!/bin/sh\nif [ ! -e " + marker + " ]; then touch " + marker + "; exit 0; fi\nexec " + self + " \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CCD_EXE", script)
	if _, err := (Client{Deadline: After(10_000 * Millisecond)}).Ensure(true); err != nil {
		t.Fatalf("Ensure: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the first start did not run: %v", err)
	}
	if pids := starts(home); len(pids) != 1 {
		t.Errorf("daemons started %v, want one after the one that quit", pids)
	}
}
