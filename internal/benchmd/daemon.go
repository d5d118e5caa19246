package benchmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// daemonEnv is the environment every ccd process of a run gets: the
// caller's, less any CCD_* setting, plus a private state directory and the
// settings that make measurements repeatable (no idle exit, hook
// throttling off so that every event does its full work, no language
// servers: whether gopls or pyright happen to be installed must not decide
// how busy the machine is; their refinement has its own benchmarks in
// core/lsp). noDebounce sets
// CCD_DEBOUNCE_MS=0; otherwise the default quiet period applies.
func daemonEnv(home, ccdBin string, noDebounce bool) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CCD_") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") {
			env = append(env, kv)
		}
	}
	if noDebounce {
		env = append(env, "CCD_DEBOUNCE_MS=0")
	}
	return append(env,
		"CCD_HOME="+home,
		"CCD_EXE="+ccdBin,
		"CCD_IDLE_TIMEOUT=0",
		"CCD_LSP=off",
		"CCD_HOOK_NOVELTY_S=0",
		"CCD_HOOK_COOLDOWN_S=0",
		"CCD_HOOK_BUDGET=100000000",
		"CCD_SKIP_DIRS=+site-packages",
		"CCD_NO_AUTOSTART=1", // a shim must never start a second daemon behind the harness's back
	)
}

// daemonProc is a `ccd daemon` the harness started as its own child, so
// that its lifetime and its rusage are the harness's to see.
type daemonProc struct {
	env  []string
	home string
	cmd  *exec.Cmd
	log  *os.File
	sock string // asked through package wire, as the CLI and the shims ask
	done chan error
}

// startDaemon runs `ccd daemon` in the foreground as a child and waits
// until it answers a ping; it returns the time from spawn to first answer.
func startDaemon(ccdBin, home string, env []string) (*daemonProc, time.Duration, error) {
	sock := filepath.Join(home, "ccd.sock")
	if len(sock) > 107 {
		return nil, 0, fmt.Errorf("state dir %s makes the socket path too long (%d bytes, limit 107): use a shorter temp dir (e.g. TMPDIR=/tmp)", home, len(sock))
	}
	log, err := os.OpenFile(filepath.Join(home, "daemon.stderr"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("start daemon: %w", err)
	}
	d := &daemonProc{env: env, home: home, log: log, sock: sock, done: make(chan error, 1)}
	d.cmd = exec.Command(ccdBin, "daemon")
	d.cmd.Env = env
	d.cmd.Stdout, d.cmd.Stderr = log, log
	t0 := time.Now()
	if err := d.cmd.Start(); err != nil {
		log.Close()
		return nil, 0, fmt.Errorf("start daemon: %w", err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := (wire.Client{Deadline: wire.After(int64(time.Second))}).Ping(sock)
		if err == nil {
			return d, time.Since(t0), nil
		}
		select {
		case werr := <-d.done:
			d.done <- werr
			log.Close()
			b, _ := os.ReadFile(log.Name())
			return nil, 0, fmt.Errorf("daemon exited before answering (%v): %s", werr, tail(string(b), 600))
		default:
		}
		if time.Now().After(deadline) {
			d.kill()
			return nil, 0, fmt.Errorf("daemon did not answer on %s within 60 s: %v", sock, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// call sends one request (one connection, as every client of the
// daemon does) and reads the whole answer.
func (d *daemonProc) call(method, path string, body []byte, timeout time.Duration) (*wire.Response, error) {
	c := wire.Client{Version: wire.Version, Deadline: wire.After(int64(timeout)), MaxBody: 1 << 30} // whole graph exports
	return c.Call(d.sock, method, path, body)
}

// do sends one JSON request with a generous deadline and decodes a 2xx
// answer into out, or copies it there when out is an io.Writer (a non-2xx
// answer is the daemon's error).
func (d *daemonProc) do(method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	r, err := d.call(method, path, body, 30*time.Minute)
	if err != nil {
		return err
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if out == nil {
		return nil
	}
	if w, ok := out.(io.Writer); ok { // the raw answer
		_, err := w.Write(r.Body)
		return err
	}
	if err := json.Unmarshal(r.Body, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// addWorkspace indexes root and waits until it is ready and fresh
// (watches in place); it returns the info and the time until ready.
func (d *daemonProc) addWorkspace(root string) (wire.WorkspaceInfo, time.Duration, error) {
	t0 := time.Now()
	var w wire.WorkspaceInfo
	for {
		if err := d.do(http.MethodPost, "/v1/workspaces", wire.AddWorkspace{Root: root, WaitS: 600}, &w); err != nil {
			return w, 0, fmt.Errorf("index %s: %w", root, err)
		}
		if w.State == "ready" {
			break
		}
		if w.State == "failed" {
			return w, 0, fmt.Errorf("index %s failed: %s", root, w.Error)
		}
		if time.Since(t0) > time.Hour {
			return w, 0, fmt.Errorf("index %s: not ready after an hour (phase %s, %d/%d)", root, w.Phase, w.Done, w.Total)
		}
	}
	took := time.Since(t0)
	w, err := d.waitFresh(root, 0)
	return w, took, err
}

// workspace returns the daemon's view of root.
func (d *daemonProc) workspace(root string) (wire.WorkspaceInfo, error) {
	var list []wire.WorkspaceInfo
	if err := d.do(http.MethodGet, "/v1/workspaces", nil, &list); err != nil {
		return wire.WorkspaceInfo{}, err
	}
	for _, w := range list {
		if w.Root == root {
			return w, nil
		}
	}
	return wire.WorkspaceInfo{}, fmt.Errorf("the daemon does not know %s (it has %d workspaces)", root, len(list))
}

// waitFresh polls until root is ready, fresh and past generation gen.
func (d *daemonProc) waitFresh(root string, gen uint64) (wire.WorkspaceInfo, error) {
	deadline := time.Now().Add(10 * time.Minute)
	for {
		w, err := d.workspace(root)
		if err != nil {
			return w, err
		}
		if w.State == "ready" && w.Fresh && w.Generation > gen {
			return w, nil
		}
		if time.Now().After(deadline) {
			return w, fmt.Errorf("%s not fresh past generation %d after 10 minutes: %+v", root, gen, w)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// status is GET /v1/status.
func (d *daemonProc) status() (wire.Status, error) {
	var st wire.Status
	err := d.do(http.MethodGet, "/v1/status", nil, &st)
	return st, err
}

// searchReady waits until the retrieval index of root has no pending file.
func (d *daemonProc) searchReady(root string) error {
	deadline := time.Now().Add(30 * time.Minute)
	for {
		var st struct {
			FilesIndexed int    `json:"files_indexed"`
			PendingFiles int    `json:"pending_files"`
			LastError    string `json:"last_error"`
		}
		err := d.do(http.MethodGet, "/v1/search/status?root="+url.QueryEscape(root), nil, &st)
		if err != nil {
			return fmt.Errorf("search status: %w", err)
		}
		if st.FilesIndexed > 0 && st.PendingFiles == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("search index of %s not filled after 30 minutes (%d indexed, %d pending, %s)", root, st.FilesIndexed, st.PendingFiles, st.LastError)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop asks the daemon to stop and waits for the process to exit; it
// returns the process's whole usage (CPU time over its life, peak RSS).
func (d *daemonProc) stop() (Usage, error) {
	t0 := time.Now()
	peak, _ := readHWM(d.cmd.Process.Pid) // its own address space (see Usage)
	err := d.do(http.MethodPost, "/v1/stop", nil, nil)
	if err != nil && !errors.Is(err, wire.ErrNoDaemon) {
		d.kill()
		return Usage{}, fmt.Errorf("stop: %w", err)
	}
	select {
	case <-d.done:
	case <-time.After(2 * time.Minute):
		d.kill()
		return Usage{}, fmt.Errorf("the daemon did not exit within 2 minutes of /v1/stop")
	}
	d.log.Close()
	u := usageOf(d.cmd, time.Since(t0))
	if peak > 0 {
		u.MaxRSSMB = peak
	}
	return u, nil
}

// kill ends the daemon at once (only on failure paths).
func (d *daemonProc) kill() {
	if d.cmd.Process != nil {
		d.cmd.Process.Kill()
		select {
		case <-d.done:
		case <-time.After(10 * time.Second):
		}
	}
	d.log.Close()
}
