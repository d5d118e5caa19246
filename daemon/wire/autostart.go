package wire

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/gofrs/flock"
)

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
