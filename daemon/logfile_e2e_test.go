package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDaemonLogRotates: the detached daemon's log is bounded (issue 17 #5:
// it logs to daemon.log with rotation), and after a rotation what the Go
// runtime writes to stderr (a panic's or a SIGQUIT's trace) lands in the
// new daemon.log, not in the rotated one.
func TestDaemonLogRotates(t *testing.T) {
	e := newEnv(t, "CCD_LOG_MAX=700")
	for i := 0; i < 6; i++ {
		dir := fixture(t, "python")
		if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
			t.Fatalf("init: %+v", r)
		}
	}
	log := filepath.Join(e.home, "daemon.log")
	old, err := os.Stat(log + ".1")
	if err != nil {
		cur, _ := os.ReadFile(log)
		t.Fatalf("no rotation after six workspaces with CCD_LOG_MAX=700: %v\n%s", err, cur)
	}
	cur, _ := os.Stat(log)
	if cur.Size() > 700 || old.Size() > 700 {
		t.Errorf("log sizes %d and %d, want at most 700 each", cur.Size(), old.Size())
	}
	pids := e.daemons()
	if len(pids) != 1 {
		t.Fatalf("daemons: %v", pids)
	}
	syscall.Kill(pids[0], syscall.SIGQUIT) // the runtime dumps goroutines to stderr and exits
	waitFor(t, "the daemon to exit", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "goroutine ") {
		rotated, _ := os.ReadFile(log + ".1")
		t.Errorf("the runtime's trace is not in daemon.log (in daemon.log.1: %v)", strings.Contains(string(rotated), "goroutine "))
	}
}
