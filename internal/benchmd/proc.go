package benchmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Usage is what one child process cost: wall time as seen by the parent,
// CPU time (user + system) from its rusage, and its peak RSS.
//
// Peak RSS is not taken from ru_maxrss: Go starts children with
// clone(CLONE_VM|CLONE_VFORK), and on exec Linux folds the high-water mark
// of the shared (parent's) address space into the child's maxrss, so every
// child of a harness that once held a big graph would report the harness's
// peak. Instead the child's own VmHWM is polled from /proc while it runs
// (its new address space only); ru_maxrss is the fallback when no sample
// was taken.
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
// usage; with pollRSS its peak RSS is sampled from /proc every few
// milliseconds (see Usage), otherwise it is left from rusage. A failure
// carries the command line and the end of its stderr.
func runMeasured(cmd *exec.Cmd, stdin []byte, pollRSS bool) ([]byte, Usage, error) {
	var out, errb bytes.Buffer
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Start()
	var peak float64
	if err == nil {
		var stop chan struct{}
		var res chan float64
		if pollRSS {
			stop, res = make(chan struct{}), make(chan float64, 1)
			go pollHWM(cmd.Process.Pid, stop, res)
		}
		err = cmd.Wait()
		if pollRSS {
			close(stop)
			peak = <-res
		}
	}
	u := usageOf(cmd, time.Since(t0))
	if peak > 0 {
		u.MaxRSSMB = peak
	}
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

// pollHWM samples the VmHWM of pid until stop is closed, then sends the
// largest value seen (MB; 0 when no sample could be read).
func pollHWM(pid int, stop <-chan struct{}, res chan<- float64) {
	var peak float64
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if v, ok := readHWM(pid); ok && v > peak {
			peak = v
		}
		select {
		case <-stop:
			res <- peak
			return
		case <-t.C:
		}
	}
}

// readHWM reads the peak RSS (VmHWM) of a live process, in MB.
func readHWM(pid int) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	return ParseVmHWM(string(b))
}

// ParseVmHWM reads VmHWM from /proc/PID/status text, in MB; false when the
// line is absent (a zombie, a kernel thread) or malformed.
func ParseVmHWM(status string) (float64, bool) {
	for _, line := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) < 1 {
				return 0, false
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0, false
			}
			return kb / 1024, true
		}
	}
	return 0, false
}
