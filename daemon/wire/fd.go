package wire

import (
	"errors"
	"syscall"
	"unsafe"
)

// FD is an open file descriptor used with plain system calls: no poller,
// no os.File. It copes with descriptors someone else made non-blocking
// (a shared pipe) by waiting for them with ppoll(2).
type FD int

// Standard descriptors.
const (
	Stdin  FD = 0
	Stdout FD = 1
)

// Read reads up to len(p) bytes; 0 bytes and a nil error mean end of file.
func (f FD) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), p)
		switch err {
		case nil:
			return n, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if err := wait(f, pollIn); err != nil {
				return 0, err
			}
			continue
		}
		return 0, err
	}
}

// Write writes all of p.
func (f FD) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Write(int(f), p[done:])
		if n > 0 {
			done += n
		}
		switch err {
		case nil:
			if n == 0 {
				return done, errors.New("write returned no progress")
			}
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := wait(f, pollOut); err != nil {
				return done, err
			}
		default:
			return done, err
		}
	}
	return done, nil
}

// ReadAll reads f to its end, keeping at most max bytes (the rest is left
// unread, as io.LimitReader would).
func (f FD) ReadAll(max int) ([]byte, error) {
	buf := make([]byte, 0, 4096)
	for len(buf) < max {
		if len(buf) == cap(buf) {
			buf = grow(buf, max)
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), max)])
		if err != nil {
			return buf, err
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

// grow doubles buf's capacity, up to limit (and by at least one byte).
func grow(buf []byte, limit int) []byte {
	c := 2 * cap(buf)
	if c > limit {
		c = limit
	}
	if c <= cap(buf) {
		c = cap(buf) + 1
	}
	nb := make([]byte, len(buf), c)
	copy(nb, buf)
	return nb
}

const (
	pollIn  = 0x1
	pollOut = 0x4
)

// pollFd is struct pollfd of poll(2).
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// wait blocks until f is ready for the events.
func wait(f FD, events int16) error {
	pfd := pollFd{fd: int32(f), events: events}
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, 0, 0, 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return e
	}
}
