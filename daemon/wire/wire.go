// Package wire is the client side of the daemon's socket: where the state
// directory and socket live, how to dial them, the request/response
// envelope, and starting the daemon when it is not running. It is pure Go
// (no cgo), so the shims stay small and static.
package wire

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Version is ccd's version: what `ccd version` prints and what every
// request carries (a daemon older than its client hands over to a new one).
// Release builds set it with -ldflags "-X github.com/ccd-dev/ccd/daemon/wire.Version=…".
var Version = "0.1.0"

// VersionHeader carries the client's version on every request.
const VersionHeader = "X-Ccd-Version"

// maxSocketPath is the usable length of a unix socket path on Linux
// (sun_path is 108 bytes including the terminating NUL).
const maxSocketPath = 107

// StateDir is where the daemon keeps its socket, lock and log: $CCD_HOME,
// else $XDG_RUNTIME_DIR/ccd, else ~/.cache/ccd.
func StateDir() (string, error) {
	if d := os.Getenv("CCD_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "ccd"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state dir: no $CCD_HOME, $XDG_RUNTIME_DIR or home directory: %w", err)
	}
	return filepath.Join(home, ".cache", "ccd"), nil
}

// SocketPath is $CCD_SOCKET, else ccd.sock in the state directory. It
// fails with advice when the path is too long for a unix socket.
func SocketPath() (string, error) {
	p := os.Getenv("CCD_SOCKET")
	if p == "" {
		dir, err := StateDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(dir, "ccd.sock")
	}
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("socket path %s is %d bytes, over the unix socket limit of %d: set CCD_SOCKET (or CCD_HOME) to a shorter path",
			p, len(p), maxSocketPath)
	}
	return p, nil
}

// Error is the daemon's error envelope.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + "\nHint: " + e.Hint
	}
	return e.Message
}

// ErrNoDaemon means nothing listens on the socket.
var ErrNoDaemon = errors.New("no daemon is running")

// AppendLog appends one timestamped line to the named log file in the state
// directory. It never fails the caller: a shim must fail open even when it
// cannot write its log.
func AppendLog(name, prefix, format string, args ...any) {
	dir, err := StateDir()
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s: %s\n", time.Now().UTC().Format(time.RFC3339Nano), prefix, fmt.Sprintf(format, args...))
}
