// Package wire is the client side of the daemon's socket: where the state
// directory and socket live, how to call the daemon, the request/response
// envelope, and starting the daemon when it is not running. It is pure Go
// (no cgo), so the shims stay small and static. The mechanics live in
// package lean (no net, fmt, time or os, for ccd-hook's start-up); wire
// adds the context-based API and the JSON types of the HTTP API.
package wire

import (
	"fmt"
	"net"

	"github.com/ccd-dev/ccd/daemon/wire/lean"
)

// Version is ccd's version: what `ccd version` prints and what every
// request carries (a daemon older than its client hands over to a new one).
// Release builds set it with -ldflags "-X github.com/ccd-dev/ccd/daemon/wire.Version=…"
// (and lean.Version, which ccd-hook sends, the same way).
var Version = lean.BaseVersion

// VersionHeader carries the client's version on every request.
const VersionHeader = lean.VersionHeader

// StateDir is where the daemon keeps its socket, lock and log: $CCD_HOME,
// else $XDG_RUNTIME_DIR/ccd, else ~/.cache/ccd.
func StateDir() (string, error) { return lean.StateDir() }

// SocketPath is $CCD_SOCKET, else ccd.sock in the state directory. It
// fails with advice when the path is too long for a unix socket.
func SocketPath() (string, error) { return lean.SocketPath() }

// Error is the daemon's error envelope.
type Error = lean.Error

// ErrNoDaemon means nothing listens on the socket.
var ErrNoDaemon = lean.ErrNoDaemon

// AppendLog appends one timestamped line to the named log file in the state
// directory. It never fails the caller: a shim must fail open even when it
// cannot write its log.
func AppendLog(name, prefix, format string, args ...any) {
	lean.AppendLog(name, prefix, fmt.Sprintf(format, args...))
}

// CheckConn checks that the daemon end of a unix socket connection runs as
// this user (lean.CheckPeer); other connections pass.
func CheckConn(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil
	}
	var perr error
	if err := raw.Control(func(fd uintptr) { perr = lean.CheckPeer(int(fd)) }); err != nil {
		return nil
	}
	return perr
}
