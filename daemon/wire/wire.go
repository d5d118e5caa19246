// Package wire is the protocol's client side, the one package every
// client of the daemon uses (the shims, the CLI, the benchmark) and whose
// API types the daemon answers with: where the state directory and socket
// live, one HTTP/1.1 request over the unix socket with a deadline
// (Client.Call), the daemon's error envelope, the version every request
// carries, starting the daemon when none answers (Client.Ensure), the MCP
// upgrade (Client.Upgrade), the shims' log files, and the JSON types of
// the HTTP API (api.go).
//
// It is this lean for ccd-hook, which Claude Code starts for every hook
// event: a Go binary pays at start-up for the initialisation of every
// package it links (os, time, net, fmt and encoding/json together cost
// well over a millisecond on a small machine: internal/godebug,
// net/netip, unicode tables, page faults), so this package imports only
// errors, path, strconv, unicode/utf8 and syscall: plain system calls on
// file descriptors, socket timeouts instead of a poller, flock(2) and
// fork/exec(2) instead of os/exec. Callers that want JSON or contexts
// add them on their side.
//
// It is Linux-only, like the daemon (SO_PEERCRED, /proc).
package wire

import (
	"errors"
	"syscall"
)

// BaseVersion is ccd's version when the build does not set one.
const BaseVersion = "0.1.0"

// Version is ccd's version: what `ccd version` prints and what every
// request carries as X-Ccd-Version (a daemon older than its client hands
// over to a new one). Release builds set it with
// -ldflags "-X github.com/ccd-dev/ccd/daemon/wire.Version=…".
var Version = BaseVersion

// VersionHeader carries the client's version on every request.
const VersionHeader = "X-Ccd-Version"

// ErrNoDaemon means nothing listens on the socket.
var ErrNoDaemon = errors.New("no daemon is running")

// ErrTimeout means the deadline passed before the daemon answered.
var ErrTimeout = errors.New("timed out")

// wrapped is an error with context that still matches its cause.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// wrap returns "ctx: err", unwrapping to err.
func wrap(ctx string, err error) error {
	return &wrapped{msg: ctx + ": " + err.Error(), err: err}
}

// ignoringEINTR retries a system call interrupted by a signal (the Go
// runtime preempts threads with signals).
func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// Getenv is the value of an environment variable, "" when unset.
func Getenv(name string) string {
	v, _ := syscall.Getenv(name)
	return v
}

// Args are the process's command-line arguments after the program name,
// read from /proc/self/cmdline (package os, which holds os.Args, is not
// linked). It returns nil when the file cannot be read.
func Args() []string {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	b, _ := FD(fd).ReadAll(1 << 20)
	syscall.Close(fd)
	var args []string
	start := 0
	for i, c := range b {
		if c == 0 {
			args = append(args, string(b[start:i]))
			start = i + 1
		}
	}
	if start < len(b) {
		args = append(args, string(b[start:]))
	}
	if len(args) == 0 {
		return nil
	}
	return args[1:]
}
