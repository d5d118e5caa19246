package daemon

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// logFile is daemon.log, appended to and rotated when it passes max
// bytes (config.Daemon.LogMax): daemon.log becomes daemon.log.1 (replacing the one before) and a
// new daemon.log is begun, so the log of a daemon that runs for weeks
// stays bounded at about twice max.
type logFile struct {
	mu   sync.Mutex
	path string
	f    *os.File
	size int64
	max  int64
	// stderr: the process's stderr is this file (a detached daemon):
	// after a rotation it is pointed at the new file too, so a panic's
	// trace lands where a person looks.
	stderr bool
}

// openLog opens the log at path for appending, rotating it first when
// it is already past max.
func openLog(path string, max int64) (*logFile, error) {
	l := &logFile{path: path, max: max}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log file: %w", err)
	}
	l.f = f
	if fi, err := f.Stat(); err == nil {
		l.size = fi.Size()
	}
	l.stderr = sameFile(os.Stderr, f)
	if l.size >= max {
		l.rotate()
	}
	return l, nil
}

func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.size > 0 && l.size+int64(len(p)) > l.max {
		l.rotate()
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

// rotate moves the log to path.1 and begins a new one; when that fails,
// writing goes on in the old file.
func (l *logFile) rotate() {
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	if l.stderr {
		syscall.Dup3(int(f.Fd()), 2, 0)
	}
	l.f.Close()
	l.f, l.size = f, 0
}

// Close closes the log.
func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
