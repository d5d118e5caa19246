package wire

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gofrs/flock"
)

// Connect returns a client for the running daemon. With autostart, a
// missing daemon is started (`ccd daemon`, found beside the calling
// executable or on PATH) and awaited until ctx expires. Concurrent callers
// start at most one process between them; the daemon's own lock makes sure
// only one survives in any case.
func Connect(ctx context.Context, autostart bool) (*Client, error) {
	sock, err := SocketPath()
	if err != nil {
		return nil, err
	}
	c := NewClient(sock)
	if err = c.Ping(ctx); err == nil || !autostart {
		return c, err
	}
	if !errors.Is(err, ErrNoDaemon) {
		return nil, err
	}
	if err := spawn(); err != nil {
		return nil, err
	}
	wait := 5 * time.Millisecond
	for {
		if err = c.Ping(ctx); err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("daemon did not start in time (see the log in the state dir): %w", err)
		case <-time.After(wait):
		}
		if wait < 100*time.Millisecond {
			wait *= 2
		}
	}
}

// DaemonExe finds the ccd binary: $CCD_EXE, the calling executable when it
// is ccd itself, a ccd beside it, or ccd on PATH.
func DaemonExe() (string, error) {
	if p := os.Getenv("CCD_EXE"); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		if filepath.Base(self) == "ccd" {
			return self, nil
		}
		if p := filepath.Join(filepath.Dir(self), "ccd"); isExecutable(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("ccd")
	if err != nil {
		return "", fmt.Errorf("cannot start the daemon: no ccd binary beside %s or on PATH (set CCD_EXE)", os.Args[0])
	}
	return p, nil
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// spawn starts `ccd daemon` in its own session, unless another caller is
// starting one right now.
func spawn() error {
	dir, err := StateDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state dir %s: %w", dir, err)
	}
	lock := flock.New(filepath.Join(dir, "spawn.lock"))
	ok, err := lock.TryLock()
	if err != nil {
		return fmt.Errorf("spawn lock: %w", err)
	}
	if !ok {
		return nil // someone else is starting it; just wait for the socket
	}
	defer lock.Unlock()
	return StartDetached()
}

// StartDetached starts `ccd daemon` as a background process in its own
// session, with no terminal and its output discarded (it logs to a file).
func StartDetached() error {
	exe, err := DaemonExe()
	if err != nil {
		return err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	cmd := exec.Command(exe, "daemon")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start daemon %s: %w", exe, err)
	}
	return cmd.Process.Release()
}
