package wire

import (
	"path"
	"syscall"
)

// AppendLog appends one timestamped line, "<RFC 3339 UTC time> <prefix>:
// <msg>", to the named log file in the state directory, in a single
// write. It never fails the caller: a shim must fail open even when it
// cannot write its log.
func AppendLog(name, prefix, msg string) {
	dir, err := StateDir()
	if err != nil || mkdirAll(dir, 0o700) != nil {
		return
	}
	fd, err := openFile(path.Join(dir, name), syscall.O_CREAT|syscall.O_APPEND|syscall.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	line := make([]byte, 0, 48+len(prefix)+len(msg))
	line = append(line, timestamp()...)
	line = append(line, ' ')
	line = append(line, prefix...)
	line = append(line, ": "...)
	line = append(line, msg...)
	line = append(line, '\n')
	FD(fd).Write(line)
}
