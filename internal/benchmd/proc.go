package benchmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
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
// peak. Nor can it be sampled from /proc while the child runs: a run
// shorter than the sampling interval is seen only right after its exec,
// before the loader has mapped anything (0.2 MB for a 5 ms index). Instead
// the child runs under ptrace with PTRACE_O_TRACEEXIT, which stops it once
// as it exits, address space still whole, and its own VmHWM is read then
// (see peak_linux.go). Where ptrace is refused the peak is sampled, and a
// run that ended before a second sample has no peak (0: not measured)
// rather than a wrong one.
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

// traceRefused is set once ptrace has been refused here (a seccomp filter,
// Yama), so later runs go straight to sampling. Tests set it to exercise
// the sampling path.
var traceRefused bool

// runMeasured runs cmd to completion with stdin, returning its stdout and
// usage; with peak, the child's own peak RSS is measured (see Usage),
// otherwise MaxRSSMB is left from rusage. A failure carries the command
// line and the end of its stderr.
func runMeasured(cmd *exec.Cmd, stdin []byte, peak bool) ([]byte, Usage, error) {
	var out, errb bytes.Buffer
	if peak && !traceRefused {
		spare := cloneCmd(cmd)
		o, u, err := runWith(cmd, stdin, &out, &errb, runTraced)
		if !errors.Is(err, errTraceRefused) {
			return o, u, err
		}
		traceRefused = true
		cmd = spare
		out.Reset()
		errb.Reset()
	}
	run := runPlain
	if peak {
		run = runSampled
	}
	return runWith(cmd, stdin, &out, &errb, run)
}

// A runner starts cmd, waits for it and returns its CPU time and peak RSS
// (MaxRSSMB 0 when not measured); the caller fills in the wall time.
type runner func(cmd *exec.Cmd) (Usage, error)

func runWith(cmd *exec.Cmd, stdin []byte, out, errb *bytes.Buffer, run runner) ([]byte, Usage, error) {
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Stdout, cmd.Stderr = out, errb
	t0 := time.Now()
	u, err := run(cmd)
	if errors.Is(err, errTraceRefused) {
		return nil, Usage{}, err
	}
	u.Wall = time.Since(t0)
	if err != nil {
		return out.Bytes(), u, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, tail(errb.String(), 600))
	}
	return out.Bytes(), u, nil
}

// cloneCmd is an unstarted copy of cmd (an exec.Cmd starts only once).
func cloneCmd(cmd *exec.Cmd) *exec.Cmd {
	c := exec.Command(cmd.Path, cmd.Args[1:]...)
	c.Args, c.Env, c.Dir = cmd.Args, cmd.Env, cmd.Dir
	if cmd.SysProcAttr != nil {
		a := *cmd.SysProcAttr
		c.SysProcAttr = &a
	}
	return c
}

// runPlain leaves the peak from rusage.
func runPlain(cmd *exec.Cmd) (Usage, error) {
	if err := cmd.Start(); err != nil {
		return Usage{}, err
	}
	err := cmd.Wait()
	return usageOf(cmd, 0), err
}

// sampleEvery is the sampling path's interval.
const sampleEvery = 5 * time.Millisecond

// runSampled polls the child's VmHWM while it runs. The first sample can
// land right after exec, before the program has mapped anything; only a
// run that lived past a second sample is given a peak.
func runSampled(cmd *exec.Cmd) (Usage, error) {
	if err := cmd.Start(); err != nil {
		return Usage{}, err
	}
	stop, res := make(chan struct{}), make(chan float64, 1)
	go pollHWM(cmd.Process.Pid, stop, res)
	err := cmd.Wait()
	close(stop)
	u := usageOf(cmd, 0)
	if v := <-res; v > 0 {
		u.MaxRSSMB = v // else rusage's: too short a run for two samples
	}
	return u, err
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
// largest value seen (MB), or 0 when fewer than two samples were read.
func pollHWM(pid int, stop <-chan struct{}, res chan<- float64) {
	var peak float64
	n := 0
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	for {
		if v, ok := readHWM(pid); ok {
			n++
			peak = max(peak, v)
		}
		select {
		case <-stop:
			if n < 2 {
				peak = 0
			}
			res <- peak
			return
		case <-t.C:
		}
	}
}

// readHWM reads the peak RSS (VmHWM) of a live process, in MB.
func readHWM(pid int) (float64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
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

// errTraceRefused says the kernel would not let the child be traced.
var errTraceRefused = errors.New("ptrace refused")

// Ptrace constants missing from package syscall.
const (
	ptraceOTraceExec = 0x10     // PTRACE_O_TRACEEXEC
	ptraceOTraceExit = 0x40     // PTRACE_O_TRACEEXIT
	ptraceOExitKill  = 0x100000 // PTRACE_O_EXITKILL
	ptraceEventExec  = 4        // PTRACE_EVENT_EXEC
	ptraceEventExit  = 6        // PTRACE_EVENT_EXIT
)

// runTraced starts cmd traced (PTRACE_TRACEME before its exec), lets it
// run, reads its VmHWM at the exit stop, detaches and waits for it. Signals
// the child receives are passed on; an exec of its own (ccd re-executing
// itself) is let through, and its earlier image's peak is lost (a
// start-up's worth). Every ptrace call comes from the thread that started
// the child, as the kernel requires.
func runTraced(cmd *exec.Cmd) (Usage, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.EPERM) {
			return Usage{}, errTraceRefused
		}
		return Usage{}, err
	}
	pid := cmd.Process.Pid
	fail := func(err error) (Usage, error) {
		cmd.Process.Kill()
		cmd.Wait()
		return Usage{}, err
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	first := true
	for {
		if _, err := syscall.Wait4(pid, &ws, syscall.WALL, &ru); err != nil {
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			return fail(fmt.Errorf("wait for traced child: %w", err))
		}
		if ws.Exited() || ws.Signaled() {
			break // ended without an exit stop (SIGKILL can skip it)
		}
		if !ws.Stopped() {
			continue
		}
		sig := ws.StopSignal()
		switch {
		case first: // the SIGTRAP that follows the first exec
			if err := syscall.PtraceSetOptions(pid, ptraceOTraceExit|ptraceOTraceExec|ptraceOExitKill); err != nil {
				return fail(fmt.Errorf("ptrace options: %w", err))
			}
			first, sig = false, 0
		case sig == syscall.SIGTRAP && ws.TrapCause() == ptraceEventExit:
			peak, _ := readHWM(pid)
			syscall.PtraceDetach(pid)
			err := cmd.Wait()
			u := usageOf(cmd, 0)
			if peak > 0 {
				u.MaxRSSMB = peak // else rusage's, which usageOf set
			}
			return u, err
		case sig == syscall.SIGTRAP && ws.TrapCause() == ptraceEventExec:
			sig = 0
		}
		syscall.PtraceCont(pid, int(sig))
	}
	// Reaped here, so cmd.Wait finds no child; it still collects the output
	// goroutines. The usage is this wait's, its peak rusage's (a loaded
	// machine can end a short run without an exit stop; the test found
	// one with no peak at all).
	cmd.Wait()
	u := Usage{CPU: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), MaxRSSMB: float64(ru.Maxrss) / 1024}
	if ws.Exited() && ws.ExitStatus() == 0 {
		return u, nil
	}
	return u, fmt.Errorf("traced child ended: %v", ws)
}
