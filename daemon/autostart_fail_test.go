package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFailedAutostartRemembered: when the daemon cannot start (here a bad
// CCD_IDLE_TIMEOUT), the first hook spends its budget finding out, the
// next ones answer at once for a minute instead of 5 s each, and
// hook.log and daemon.log say why (issue 17 #11).
func TestFailedAutostartRemembered(t *testing.T) {
	e := newEnv(t, "CCD_IDLE_TIMEOUT=soon", "CCD_HOOK_BUDGET_MS=1500")
	ev := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Read","cwd":"/tmp","tool_input":{"file_path":"/tmp/x.go"}}`)
	first := e.run(bins.hook, ev)
	if first.code != 0 || first.stdout != "" {
		t.Fatalf("first hook: %+v", first)
	}
	second := e.run(bins.hook, ev)
	if second.code != 0 || second.stdout != "" {
		t.Fatalf("second hook: %+v", second)
	}
	if second.took > 700*time.Millisecond {
		t.Errorf("the second hook tried again: %v (the first took %v)", second.took, first.took)
	}
	hlog, _ := os.ReadFile(filepath.Join(e.home, "hook.log"))
	if !strings.Contains(string(hlog), "failed to start") {
		t.Errorf("hook.log does not say the daemon failed to start:\n%s", hlog)
	}
	dlog, _ := os.ReadFile(filepath.Join(e.home, "daemon.log"))
	if !strings.Contains(string(dlog), "CCD_IDLE_TIMEOUT") {
		t.Errorf("daemon.log does not name the cause:\n%s", dlog)
	}
}
