package lsp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// process is a running server: its stdio and exit status.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tail
	done   chan struct{} // closed when the process has exited
	err    error         // Wait's result, valid after done
}

// startProcess starts a server in its own process group, with dir as the
// working directory.
func startProcess(path string, args []string, dir string, env []string) (*process, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: &tail{max: 8 << 10}, done: make(chan struct{})}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// pid returns the process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// exited reports whether the process has exited.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill kills the server's whole process group (servers such as
// typescript-language-server start children of their own).
func (p *process) kill() {
	if p.exited() {
		return
	}
	_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
}

// exitReason describes how the process ended, with the tail of its stderr.
func (p *process) exitReason() string {
	msg := "exited"
	if p.err != nil {
		msg = p.err.Error()
	} else if p.cmd.ProcessState != nil {
		msg = p.cmd.ProcessState.String()
	}
	if t := p.stderr.lastLines(5); t != "" {
		msg += "; stderr: " + t
	}
	return msg
}

// rw joins the process's stdout and stdin into one stream.
type rw struct {
	io.Reader
	io.WriteCloser
	closeRead io.Closer
}

func (s rw) Close() error {
	err := s.WriteCloser.Close()
	if e := s.closeRead.Close(); err == nil {
		err = e
	}
	return err
}

func (p *process) stream() io.ReadWriteCloser {
	return rw{Reader: p.stdout, WriteCloser: p.stdin, closeRead: p.stdout}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// lastLines returns up to n last non-empty lines, joined by " | ".
func (t *tail) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// processTreeRSS returns the resident set size in bytes of pid and all its
// descendants, from /proc (0 when unavailable).
func processTreeRSS(pid int) int64 {
	var total int64
	seen := map[int]bool{}
	stack := []int{pid}
	for len(stack) > 0 && len(seen) < 256 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		total += vmRSS(p)
		stack = append(stack, childPIDs(p)...)
	}
	return total
}

// vmRSS reads VmRSS from /proc/PID/status, in bytes.
func vmRSS(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "VmRSS:") {
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(line, "VmRSS:"))
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// childPIDs lists the children of every thread of pid.
func childPIDs(pid int) []int {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}
