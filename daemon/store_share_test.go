package daemon_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/core/store"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// claims is the claim count a canvas answer's board line states.
func claims(t *testing.T, text string) int {
	t.Helper()
	m := regexp.MustCompile(`Board: \d+ evidence, (\d+) claims`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no board line in:\n%s", text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// claimN makes n claims through a real MCP session.
func claimN(t *testing.T, cs *sdk.ClientSession, from string, n int) string {
	t.Helper()
	var text string
	for i := 0; i < n; i++ {
		var isErr bool
		text, _, isErr = call(t, cs, map[string]any{"action": "claim", "text": fmt.Sprintf("%s finding %d", from, i), "kind": "finding"})
		if isErr {
			t.Fatalf("claim: %s", text)
		}
	}
	return text
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// TestSecondDaemonLeavesTheStore: a second daemon (another state
// directory: XDG_RUNTIME_DIR set in one shell only) timed out on the
// database's lock, moved the live database aside as unusable, and board
// updates were lost (issue 17 #4). With the real binaries: the second
// daemon works from memory and says so, names the holder, saves nothing
// over the first one's files; the first daemon's board is whole.
func TestSecondDaemonLeavesTheStore(t *testing.T) {
	a, b := newEnv(t), newEnv(t)
	dir := fixture(t, "python")
	db := filepath.Join(dir, ".codecanvas", "ccd.db")
	csA := initSession(t, a, dir)
	claimN(t, csA, "first daemon", 3)
	ino := inode(t, db)
	holder := a.daemons()
	if len(holder) != 1 {
		t.Fatalf("first daemon: %v", holder)
	}

	r := b.run(bins.ccd, nil, "init", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("init in the second daemon: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if want := fmt.Sprintf("store: database %s is locked by process %d", db, holder[0]); !strings.Contains(r.stdout, want) {
		t.Errorf("the second daemon's init does not say whose the store is (want %q):\n%s", want, r.stdout)
	}
	if bad, _ := filepath.Glob(db + ".bad-*"); len(bad) > 0 {
		t.Fatalf("the live database was moved aside: %v", bad)
	}
	if inode(t, db) != ino {
		t.Fatalf("the live database was replaced")
	}
	// The second daemon still answers, and says its board is not saved.
	csB := mcpSession(t, b, dir)
	text, _, isErr := call(t, csB, map[string]any{"action": "claim", "text": "second daemon finding", "kind": "finding"})
	if isErr || !strings.Contains(text, "not saved") {
		t.Errorf("a claim in the second daemon does not say it is not saved (isError=%v):\n%s", isErr, text)
	}
	if text, _, isErr := call(t, csB, map[string]any{"action": "impact", "symbol": "Cart.add"}); isErr || !strings.Contains(text, "Cart.add") {
		t.Errorf("impact in the second daemon: isError=%v\n%s", isErr, text)
	}

	// The first daemon's board grows on and survives its restart.
	if n := claims(t, claimN(t, csA, "first daemon again", 1)); n != 4 {
		t.Errorf("first daemon's board: %d claims, want 4", n)
	}
	csA.Close()
	csB.Close()
	b.run(bins.ccd, nil, "stop")
	a.run(bins.ccd, nil, "stop")
	waitFor(t, "both daemons to stop", 10*time.Second, func() bool { return len(a.daemons())+len(b.daemons()) == 0 })
	cs := mcpSession(t, a, dir)
	text, _, _ = call(t, cs, map[string]any{"action": "init"})
	if n := claims(t, text); n != 4 {
		t.Errorf("after both daemons stopped and one restarted: %d claims, want 4\n%s", n, text)
	}
	if r := a.run(bins.ccd, nil, "status"); strings.Contains(r.stdout, "store:") {
		t.Errorf("the database is free again, yet status says:\n%s", r.stdout)
	}
}

// TestBoardFallsBackToItsBackup: a board blob that exists but does not
// decode gave an empty board, and the next claim overwrote the backup
// (103 claims became 1; issue 17 #2). With the real binaries: the daemon
// takes the backup, and the next claim adds to it.
func TestBoardFallsBackToItsBackup(t *testing.T) {
	e := newEnv(t)
	dir := fixture(t, "python")
	cs := initSession(t, e, dir)
	const n = 25
	claimN(t, cs, "before", n)
	cs.Close()
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "the daemon to stop", 10*time.Second, func() bool { return len(e.daemons()) == 0 })

	// Damage the stored board blob, as a torn write or a bad page would.
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutBlob("board", []byte("{\"claims\": [ torn")); err != nil {
		t.Fatal(err)
	}
	st.Close()

	cs = mcpSession(t, e, dir)
	text, _, _ := call(t, cs, map[string]any{"action": "init"})
	if got := claims(t, text); got != n {
		t.Fatalf("after the board blob was damaged: %d claims, want the backup's %d\n%s", got, n, text)
	}
	if got := claims(t, claimN(t, cs, "after", 1)); got != n+1 {
		t.Errorf("a claim after the fallback: %d claims, want %d", got, n+1)
	}
	if _, err := os.Stat(filepath.Join(dir, ".codecanvas", "board.unreadable.json")); err != nil {
		t.Errorf("the unreadable board was not kept for a person to look at: %v", err)
	}
	cs.Close()
	e.run(bins.ccd, nil, "stop")
	waitFor(t, "the daemon to stop", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
	cs = mcpSession(t, e, dir)
	text, _, _ = call(t, cs, map[string]any{"action": "init"})
	if got := claims(t, text); got != n+1 {
		t.Errorf("after a restart: %d claims, want %d", got, n+1)
	}
}

// TestStoreChangedUnderTheDaemon: truncating or replacing the database
// while the daemon had it mapped killed the daemon with SIGBUS on its next
// save (issue 17 #3). With the real binaries: the daemon lives on, keeps
// answering, fills the new file again (facts, graph and board), and a
// restart finds everything.
func TestStoreChangedUnderTheDaemon(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(p string) error
	}{
		{"truncated", func(p string) error { return os.Truncate(p, 2*4096) }},
		{"emptied", func(p string) error { return os.Truncate(p, 0) }},
		{"replaced", func(p string) error {
			tmp := p + ".new"
			if err := os.WriteFile(tmp, []byte(strings.Repeat("not a database\n", 600)), 0o600); err != nil {
				return err
			}
			return os.Rename(tmp, p)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			dir := fixture(t, "python")
			db := filepath.Join(dir, ".codecanvas", "ccd.db")
			cs := initSession(t, e, dir)
			claimN(t, cs, "before", 3)
			pid := e.daemons()
			if err := c.change(db); err != nil {
				t.Fatal(err)
			}
			// A claim saves the board; an edit saves facts.
			text := claimN(t, cs, "after", 1)
			if got := claims(t, text); got != 4 {
				t.Errorf("claims after the change: %d, want 4", got)
			}
			var file string
			filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
				if err == nil && file == "" && strings.HasSuffix(p, ".py") {
					file = p
				}
				return nil
			})
			src, _ := os.ReadFile(file)
			os.WriteFile(file, append(src, []byte("\n\ndef added_after_the_change():\n    return 1\n")...), 0o644)
			waitFor(t, "the edit in the graph", 30*time.Second, func() bool {
				return strings.Contains(strings.Join(e.symbolsOf(t, dir, "added_after_the_change"), " "), "added_after_the_change")
			})
			if now := e.daemons(); len(now) != 1 || now[0] != pid[0] {
				t.Fatalf("the daemon did not survive: before %v, now %v", pid, now)
			}
			cs.Close()
			if r := e.run(bins.ccd, nil, "stop"); r.code != 0 {
				t.Fatalf("stop: %+v", r)
			}
			waitFor(t, "the daemon to stop", 10*time.Second, func() bool { return len(e.daemons()) == 0 })
			// The new file holds it all: the next daemon starts warm,
			// with the edit, and the board is whole.
			if r := e.run(bins.ccd, nil, "init", dir); r.code != 0 {
				t.Fatalf("init after restart: %+v", r)
			}
			ws := e.workspace(t)
			if !ws.Warm || ws.Reparsed != 0 {
				t.Errorf("restart after the change: warm=%v reparsed=%d, want a warm start that parses nothing", ws.Warm, ws.Reparsed)
			}
			if !strings.Contains(strings.Join(e.symbolsOf(t, dir, "added_after_the_change"), " "), "added_after_the_change") {
				t.Errorf("the edit is missing after the restart")
			}
			cs = mcpSession(t, e, dir)
			text, _, _ = call(t, cs, map[string]any{"action": "status"})
			if got := claims(t, text); got != 4 {
				t.Errorf("board after the restart: %d claims, want 4\n%s", got, text)
			}
		})
	}
}
