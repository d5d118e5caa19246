// Package hookshim is the Claude Code hook shim: it forwards the hook event
// on stdin to the daemon (starting it when needed) and prints the daemon's
// answer. It fails open: whatever goes wrong, the agent is never blocked —
// the shim exits 0, prints nothing, and logs the cause to hook.log in the
// state directory.
package hookshim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// maxEvent bounds what is read from stdin (a Write of a large file carries
// its content twice); the daemon reads as much.
const maxEvent = 64 << 20

// budget reads a millisecond budget from the environment.
func budget(name string, def time.Duration) time.Duration {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			return time.Duration(n) * time.Millisecond
		}
	}
	return def
}

// Main runs the shim and returns its exit code, which is always 0.
func Main(stdin io.Reader, stdout io.Writer) int {
	if err := run(stdin, stdout); err != nil {
		logf("%v", err)
	}
	return 0
}

func run(stdin io.Reader, stdout io.Writer) error {
	ev, err := io.ReadAll(io.LimitReader(stdin, maxEvent))
	if err != nil {
		return fmt.Errorf("read event: %w", err)
	}
	if len(bytes.TrimSpace(ev)) == 0 {
		return fmt.Errorf("empty event on stdin")
	}
	// One budget for everything, well inside Claude Code's hook timeout:
	// connecting (and starting the daemon) plus the answer.
	ctx, cancel := context.WithTimeout(context.Background(), budget("CCD_HOOK_BUDGET_MS", 5*time.Second))
	defer cancel()
	sock, err := wire.SocketPath()
	if err != nil {
		return err
	}
	// The common case is a running daemon: post at once (one round trip),
	// and only start a daemon when nothing answers.
	target := hookPath()
	resp, err := wire.Call(ctx, sock, "POST", target, ev)
	if errors.Is(err, wire.ErrNoDaemon) && os.Getenv("CCD_NO_AUTOSTART") != "1" {
		if sock, err = wire.Ensure(ctx, true); err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		resp, err = wire.Call(ctx, sock, "POST", target, ev)
	}
	if err != nil {
		return err
	}
	if err := resp.Err(); err != nil {
		return err
	}
	_, err = stdout.Write(resp.Body)
	return err
}

// hookPath is the endpoint with what the daemon cannot see itself: the
// hook process's CLAUDE_PROJECT_DIR and CLAUDE_CONFIG_DIR.
func hookPath() string {
	q := url.Values{}
	if v := os.Getenv("CLAUDE_PROJECT_DIR"); v != "" {
		q.Set("project_dir", v)
	}
	if v := os.Getenv("CLAUDE_CONFIG_DIR"); v != "" {
		q.Set("config_dir", v)
	}
	if len(q) == 0 {
		return "/v1/hook"
	}
	return "/v1/hook?" + q.Encode()
}

// logf records why the hook did nothing, in hook.log.
func logf(format string, args ...any) { wire.AppendLog("hook.log", "ccd-hook", format, args...) }
