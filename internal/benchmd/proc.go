package benchmd

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Usage is what one child process cost: wall time as seen by the parent,
// CPU time (user + system) and peak RSS from its rusage.
type Usage struct {
	Wall     time.Duration
	CPU      time.Duration
	MaxRSSMB float64
}

// usageOf reads a finished command's rusage.
func usageOf(cmd *exec.Cmd, wall time.Duration) Usage {
	u := Usage{Wall: wall}
	if cmd.ProcessState == nil {
		return u
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		u.MaxRSSMB = float64(ru.Maxrss) / 1024 // Linux reports KiB
	}
	return u
}

// runMeasured runs cmd to completion with stdin, returning its stdout and
// usage. A failure carries the command line and the end of its stderr.
func runMeasured(cmd *exec.Cmd, stdin []byte) ([]byte, Usage, error) {
	var out, errb bytes.Buffer
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	u := usageOf(cmd, time.Since(t0))
	if err != nil {
		return out.Bytes(), u, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, tail(errb.String(), 600))
	}
	return out.Bytes(), u, nil
}

// tail keeps the last n bytes of s, trimmed.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return s
}
