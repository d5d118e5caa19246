package wire

import (
	"errors"
	"path"
	"strconv"
	"syscall"
)

// Ensure returns the socket of a running daemon. With autostart, a missing
// daemon is started (`ccd daemon`, see daemonExe) and awaited until the
// deadline passes or Done is closed. Callers racing to start one take
// turns on spawn.lock in the state directory: the holder checks again
// that no daemon answers, starts one and keeps the lock until it answers,
// so however many shims find no daemon at once, one daemon is started
// (the daemon's own lock would stop a second one anyway).
func (c Client) Ensure(autostart bool) (string, error) {
	sock, err := SocketPath()
	if err != nil {
		return "", err
	}
	if err = c.Ping(sock); err == nil || !autostart {
		return sock, err
	}
	if !errors.Is(err, ErrNoDaemon) {
		return "", err
	}
	if c.Patient {
		if msg := recentFailure(); msg != "" {
			return "", &wrapped{msg: msg, err: ErrNoDaemon}
		}
	}
	err = c.start(sock)
	noteFailure(err)
	return sock, err
}

// failedFor is how long a failed autostart is remembered: in that time
// shims do not try again (each try costs the whole hook budget), they say
// why at once.
const failedFor = 60 * 1000 * Millisecond

// failureMark is the file in the state dir that remembers a failed
// autostart; its modification time is when it failed.
const failureMark = "autostart.failed"

// noteFailure remembers (or, on success, forgets) an autostart's outcome.
func noteFailure(err error) {
	dir, derr := StateDir()
	if derr != nil {
		return
	}
	p := path.Join(dir, failureMark)
	if err == nil {
		syscall.Unlink(p)
		return
	}
	if !errors.Is(err, ErrNoDaemon) {
		return
	}
	fd, oerr := openFile(p, syscall.O_CREAT|syscall.O_TRUNC|syscall.O_WRONLY, 0o600)
	if oerr != nil {
		return
	}
	FD(fd).Write([]byte(err.Error() + "\n"))
	syscall.Close(fd)
}

// recentFailure returns why the last autostart failed when that was less
// than failedFor ago, else "".
func recentFailure() string {
	dir, err := StateDir()
	if err != nil {
		return ""
	}
	p := path.Join(dir, failureMark)
	var st syscall.Stat_t
	if syscall.Stat(p, &st) != nil {
		return ""
	}
	age := clock(clockRealtime) - st.Mtim.Nano()
	if age < 0 || age >= failedFor {
		return ""
	}
	why := ""
	if fd, err := openFile(p, syscall.O_RDONLY, 0); err == nil {
		buf := make([]byte, 512)
		n, _ := syscall.Read(fd, buf)
		syscall.Close(fd)
		if n > 0 {
			why = string(buf[:n])
			for len(why) > 0 && (why[len(why)-1] == '\n' || why[len(why)-1] == ' ') {
				why = why[:len(why)-1]
			}
		}
	}
	return "the daemon failed to start " + strconv.FormatInt(age/(1000*Millisecond), 10) + " s ago (" + why + "; see daemon.log in " + dir +
		"); not trying again before a minute has passed (remove " + p + " to try now)"
}

// pause sleeps between pings; tests make it oversleep.
var pause = sleep

// respawnAfter is how long the holder of the spawn lock waits for the
// daemon it started before it starts another.
const respawnAfter = 1000 * Millisecond

// start starts a daemon, or waits for the one another caller starts.
func (c Client) start(sock string) error {
	dir, err := StateDir()
	if err != nil {
		return err
	}
	if err := mkdirAll(dir, 0o700); err != nil {
		return wrap("state dir", err)
	}
	lock, err := openFile(path.Join(dir, "spawn.lock"), syscall.O_RDWR|syscall.O_CREAT, 0o600)
	if err != nil {
		return wrap("spawn lock", err)
	}
	defer syscall.Close(lock) // releases the lock
	holding := false
	var spawned int64 // monotonic time of the last start
	wait := 2 * Millisecond
	for {
		if !holding {
			if holding, err = tryLock(lock); err != nil {
				return wrap("spawn lock", err)
			}
			if holding {
				// Whoever held the lock before may have just started one.
				if c.Ping(sock) == nil {
					return nil
				}
				if err := StartDetached(); err != nil {
					return err
				}
				spawned = monotonic()
			}
		}
		if err = c.Ping(sock); err == nil {
			return nil
		}
		if holding && errors.Is(err, ErrNoDaemon) && monotonic()-spawned >= respawnAfter {
			// The daemon started may have found the old one still holding
			// the daemon lock (a killed daemon exiting) and stopped: start
			// another; the daemon lock still lets only one run.
			if err := StartDetached(); err != nil {
				return err
			}
			spawned = monotonic()
		}
		// Stop a little before the deadline rather than ping past it, so
		// the error says why the last ping failed.
		left := c.Deadline.Left() - Millisecond
		if left <= 0 || c.cancelled() {
			// Whatever the last ping met (a refused connect, or the
			// deadline itself when a sleep overshot it), there is no
			// daemon: the error says so to callers that check.
			return &wrapped{msg: "daemon did not start in time (see the log in the state dir): " + err.Error(), err: ErrNoDaemon}
		}
		pause(min(wait, left))
		if wait < 50*Millisecond {
			wait *= 2
		}
	}
}

func (c Client) cancelled() bool {
	select {
	case <-c.Done:
		return true
	default:
		return false
	}
}

// tryLock takes an exclusive flock on fd if nobody holds one.
func tryLock(fd int) (bool, error) {
	err := ignoringEINTR(func() error { return syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) })
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}

func openFile(name string, flags int, perm uint32) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(name, flags|syscall.O_CLOEXEC, perm)
		return
	})
	return fd, err
}

// daemonExe finds the ccd binary: $CCD_EXE, the calling executable when it
// is ccd itself, a ccd beside it, or ccd on PATH.
func daemonExe() (string, error) {
	if p := Getenv("CCD_EXE"); p != "" {
		return p, nil
	}
	self, err := executable()
	if err == nil {
		if path.Base(self) == "ccd" {
			return self, nil
		}
		if p := path.Join(path.Dir(self), "ccd"); isExecutable(p) {
			return p, nil
		}
	} else {
		self = "this program"
	}
	if p, ok := lookPath("ccd"); ok {
		return p, nil
	}
	return "", errors.New("cannot start the daemon: no ccd binary beside " + self + " or on PATH (set CCD_EXE)")
}

// executable is the running program's path, as os.Executable.
func executable() (string, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Readlink("/proc/self/exe", buf)
	if err != nil {
		return "", err
	}
	p := string(buf[:n])
	const deleted = " (deleted)"
	if len(p) > len(deleted) && p[len(p)-len(deleted):] == deleted {
		p = p[:len(p)-len(deleted)]
	}
	return p, nil
}

func isExecutable(p string) bool {
	var st syscall.Stat_t
	return syscall.Stat(p, &st) == nil && st.Mode&syscall.S_IFMT != syscall.S_IFDIR && st.Mode&0o111 != 0
}

// lookPath finds an executable named file in the absolute directories of
// $PATH (a relative entry would depend on the working directory).
func lookPath(file string) (string, bool) {
	list := Getenv("PATH")
	for len(list) > 0 {
		dir := list
		if i := indexByte([]byte(list), ':'); i >= 0 {
			dir, list = list[:i], list[i+1:]
		} else {
			list = ""
		}
		if !path.IsAbs(dir) {
			continue
		}
		if p := path.Join(dir, file); isExecutable(p) {
			return p, true
		}
	}
	return "", false
}

// StartDetached starts `ccd daemon` as a background process in its own
// session, with no terminal and its output discarded (it logs to a file),
// and does not wait for it.
func StartDetached() error {
	exe, err := daemonExe()
	if err != nil {
		return err
	}
	prog := exe
	if indexByte([]byte(exe), '/') < 0 {
		p, ok := lookPath(exe)
		if !ok {
			return errors.New("start daemon " + exe + ": executable file not found in $PATH")
		}
		prog = p
	}
	null, err := openFile("/dev/null", syscall.O_RDWR, 0)
	if err != nil {
		return wrap("start daemon: open /dev/null", err)
	}
	defer syscall.Close(null)
	fd := uintptr(null)
	// The daemon's own stdout and stderr (a panic, an error before its
	// logger runs) go to daemon.log in the state dir, never nowhere.
	out := fd
	if dir, err := StateDir(); err == nil && mkdirAll(dir, 0o700) == nil {
		if lf, err := openFile(path.Join(dir, "daemon.log"), syscall.O_CREAT|syscall.O_APPEND|syscall.O_WRONLY, 0o600); err == nil {
			defer syscall.Close(lf)
			out = uintptr(lf)
		}
	}
	_, err = syscall.ForkExec(prog, []string{exe, "daemon"}, &syscall.ProcAttr{
		Env:   syscall.Environ(),
		Files: []uintptr{fd, out, out},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return wrap("start daemon "+exe, err)
	}
	return nil
}
