package wire

import (
	"errors"
	"path"
	"strconv"
	"syscall"
)

// MaxSocketPath is the usable length of a unix socket path on Linux
// (sun_path is 108 bytes including the terminating NUL).
const MaxSocketPath = 107

// StateDir is where the daemon keeps its socket, lock and log: $CCD_HOME
// (made absolute), else $XDG_RUNTIME_DIR/ccd, else ~/.cache/ccd.
func StateDir() (string, error) {
	if d := Getenv("CCD_HOME"); d != "" {
		return abs(d)
	}
	if d := Getenv("XDG_RUNTIME_DIR"); d != "" {
		return path.Join(d, "ccd"), nil
	}
	home := Getenv("HOME")
	if home == "" {
		return "", errors.New("state dir: no $CCD_HOME, $XDG_RUNTIME_DIR or home directory: $HOME is not defined")
	}
	return path.Join(home, ".cache", "ccd"), nil
}

// SocketPath is $CCD_SOCKET, else ccd.sock in the state directory. It
// fails with advice when the path is too long for a unix socket.
func SocketPath() (string, error) {
	p := Getenv("CCD_SOCKET")
	if p == "" {
		dir, err := StateDir()
		if err != nil {
			return "", err
		}
		if err := checkOwner(dir); err != nil {
			return "", err
		}
		p = path.Join(dir, "ccd.sock")
	}
	if len(p) > MaxSocketPath {
		return "", errors.New("socket path " + p + " is " + strconv.Itoa(len(p)) + " bytes, over the unix socket limit of " +
			strconv.Itoa(MaxSocketPath) + ": set CCD_SOCKET (or CCD_HOME) to a shorter path")
	}
	return p, nil
}

// abs makes p absolute against the working directory, the way
// path/filepath.Abs does on Unix (it trusts $PWD when $PWD is ".").
func abs(p string) (string, error) {
	if path.IsAbs(p) {
		return path.Clean(p), nil
	}
	wd, err := getwd()
	if err != nil {
		return "", wrap("working directory", err)
	}
	return path.Join(wd, p), nil
}

func getwd() (string, error) {
	if pwd := Getenv("PWD"); len(pwd) > 0 && pwd[0] == '/' {
		var dot, st syscall.Stat_t
		if syscall.Stat(".", &dot) == nil && syscall.Stat(pwd, &st) == nil && dot.Dev == st.Dev && dot.Ino == st.Ino {
			return pwd, nil
		}
	}
	var wd string
	err := ignoringEINTR(func() (err error) { wd, err = syscall.Getwd(); return })
	return wd, err
}

// mkdirAll creates dir and its missing parents with perm, like
// os.MkdirAll.
func mkdirAll(dir string, perm uint32) error {
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err == nil {
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			return nil
		}
		return wrap("mkdir "+dir, syscall.ENOTDIR)
	}
	if parent := path.Dir(dir); parent != dir {
		if err := mkdirAll(parent, perm); err != nil {
			return err
		}
	}
	err := ignoringEINTR(func() error { return syscall.Mkdir(dir, perm) })
	if err == syscall.EEXIST {
		if syscall.Stat(dir, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			return nil
		}
	}
	if err != nil {
		return wrap("mkdir "+dir, err)
	}
	return nil
}

// checkOwner refuses a state directory that exists and belongs to another
// user: its socket, log and spawn lock are not ours to use (a directory
// planted where ours would be made).
func checkOwner(dir string) error {
	var st syscall.Stat_t
	if syscall.Stat(dir, &st) != nil {
		return nil // not made yet: the daemon makes it, ours, 0700
	}
	if st.Uid != ownUID {
		return errors.New("state dir " + dir + " belongs to user id " + strconv.Itoa(int(st.Uid)) + ", not to you (" +
			strconv.Itoa(int(ownUID)) + "): refusing to use it; set CCD_HOME to a directory of yours")
	}
	return nil
}
