// Package daemon is ccd's resident process: one per user (per state
// directory), serving any number of workspaces over HTTP/1.1 on a unix
// socket. It keeps each workspace's graph in memory and answers the CLI,
// the hook shim and the MCP shim.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/daemon/hooks"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// ErrRunning means another daemon holds the state directory's lock.
var ErrRunning = errors.New("another ccd daemon is running for this state directory")

// Options configure a daemon.
type Options struct {
	// Knobs are the daemon's settings (idle timeout, debounce, ...);
	// OptionsFromEnv reads them from the environment.
	Knobs config.Daemon
	// Foreground also logs to stderr.
	Foreground bool
}

// OptionsFromEnv reads the daemon's knobs from the environment (see
// config.LoadDaemon).
func OptionsFromEnv() (Options, error) {
	k, err := config.LoadDaemon()
	return Options{Knobs: k}, err
}

// Daemon is a running daemon.
type Daemon struct {
	opts     Options
	dir      string
	sock     string
	log      *slog.Logger
	started  time.Time
	reg      *registry
	last     atomic.Int64 // unix nanos of the last request
	stop     chan string  // reasons to shut down
	requests atomic.Int64
	metrics  *metrics
	hooks    *hooks.Engine
	// mcpSessions counts live MCP sessions; the daemon does not idle out
	// while an agent is connected.
	mcpSessions atomic.Int64
	// noHandover: this daemon was started by a hand-over to that client
	// version and is not it; it hands over no more for it (handover.go).
	noHandover string
	// sessions are the retrieval sessions of HTTP clients (searchapi.go).
	sessions searchSessions
}

// Run starts a daemon and blocks until it stops (signal, idle timeout,
// a stop request, or hand-over to a newer version). It returns ErrRunning
// when another daemon owns the state directory.
func Run(ctx context.Context, opts Options) error {
	dir, err := wire.StateDir()
	if err != nil {
		return err
	}
	sock, err := wire.SocketPath()
	if err != nil {
		return err
	}
	if sock, err = filepath.Abs(sock); err != nil {
		return err
	}
	// The daemon outlives the directory it was started from and serves
	// many: nothing it does may depend on it (a relative path from a
	// client, /proc/self/cwd). Every path it takes is made absolute by the
	// client or refused.
	if err := os.Chdir("/"); err != nil {
		return fmt.Errorf("chdir /: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	lock := flock.New(filepath.Join(dir, "daemon.lock"))
	ok, err := lock.TryLock()
	if err != nil {
		return fmt.Errorf("lock %s: %w", lock.Path(), err)
	}
	if !ok {
		return ErrRunning
	}
	defer lock.Unlock()

	logf, err := openLog(filepath.Join(dir, "daemon.log"), opts.Knobs.LogMax)
	if err != nil {
		return err
	}
	defer logf.Close()
	var h slog.Handler = slog.NewTextHandler(logf, nil)
	if opts.Foreground && !logf.stderr {
		// Started detached, stderr already is daemon.log: once is enough.
		h = slog.NewMultiHandler(h, slog.NewTextHandler(os.Stderr, nil))
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	if p := opts.Knobs.CPUProfile; p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	d := &Daemon{opts: opts, dir: dir, sock: sock, log: slog.New(h), started: time.Now(), stop: make(chan string, 4)}
	d.readHandover()
	d.reg = newRegistry(cfg, opts.Knobs, d.log)
	d.reg.gc.lastRequest = func() time.Time { return time.Unix(0, d.last.Load()) }
	pol, err := config.LoadHooks()
	if err != nil {
		return err
	}
	d.hooks = hooks.New(hookHost{d.reg}, pol, dir)
	defer d.hooks.Close()
	// The hook engine remembers the graph before recent edits. Set before
	// any workspace exists (the socket is not open yet).
	d.reg.env.Changed = func(w *workspace.Workspace, c workspace.Change) {
		paths, full := c.Paths, c.Full
		if full && len(c.Edited) > 0 {
			// a rescan that took in a few edits is their update
			paths, full = c.Edited, false
		}
		d.hooks.Changed(w.Root(), paths, full, c.Before)
	}
	d.metrics = newMetrics(d)
	d.last.Store(time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dir, "daemon.pid"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		return fmt.Errorf("pid file: %w", err)
	}

	// We hold the lock, so a socket file left behind is stale.
	os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("listen %s: %w", sock, err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("socket %s: %w", sock, err)
	}
	defer os.Remove(sock)
	srv := &http.Server{Handler: d.routes(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(peerUIDListener{ln, os.Getuid(), d.log}) }()
	d.log.Info("daemon started", "pid", os.Getpid(), "version", wire.Version, "socket", sock, "idle_timeout", opts.Knobs.IdleTimeout)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	var tick <-chan time.Time
	if opts.Knobs.IdleTimeout > 0 {
		t := time.NewTicker(min(opts.Knobs.IdleTimeout/4+time.Millisecond, 30*time.Second))
		defer t.Stop()
		tick = t.C
	}
	reason := ""
	for reason == "" {
		select {
		case <-ctx.Done():
			reason = "context done"
		case s := <-sigs:
			reason = "signal " + s.String()
		case r := <-d.stop:
			reason = r
		case err := <-errc:
			return fmt.Errorf("serve: %w", err)
		case <-tick:
			idle := time.Since(time.Unix(0, d.last.Load()))
			if idle >= opts.Knobs.IdleTimeout && !d.reg.busy() && d.mcpSessions.Load() == 0 {
				reason = fmt.Sprintf("idle for %s", idle.Round(time.Second))
			}
		}
	}
	d.log.Info("daemon stopping", "reason", reason)
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	d.reg.close()
	os.Remove(filepath.Join(dir, "daemon.pid"))
	d.log.Info("daemon stopped")
	return nil
}

// newerThan reports whether version a is newer than b (dotted numbers; a
// pre-release suffix sorts before the release).
func newerThan(a, b string) bool {
	pa, pb := splitVersion(a), splitVersion(b)
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			return x > y
		}
	}
	return false
}

func splitVersion(v string) []int {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	var out []int
	for _, p := range strings.Split(v, ".") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}

// peerUIDListener accepts only connections from processes of the same user
// (SO_PEERCRED), so another user on the machine cannot talk to the daemon
// even if the socket's permissions were loosened.
type peerUIDListener struct {
	net.Listener
	uid int
	log *slog.Logger
}

func (l peerUIDListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		uc, ok := c.(*net.UnixConn)
		if !ok {
			return c, nil
		}
		uid, err := peerUID(uc)
		if err == nil && uid == l.uid {
			return c, nil
		}
		l.log.Warn("rejected connection from another user", "peer_uid", uid, "err", err)
		c.Close()
	}
}

func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, err
	}
	if serr != nil {
		return -1, serr
	}
	return int(cred.Uid), nil
}

// sameFile reports whether two open files are one file.
func sameFile(a, b *os.File) bool {
	sa, err1 := a.Stat()
	sb, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
