package lsp

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/index"
)

// waitFor polls cond until it holds or a minute has passed (a generous
// bound so that a slow machine cannot fail it; it is not a speed check).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// children lists the live child processes of the test process.
func children(t *testing.T) []int {
	t.Helper()
	var out []int
	for _, c := range childPIDs(os.Getpid()) {
		// A zombie is not a live server.
		b, err := os.ReadFile("/proc/" + strconv.Itoa(c) + "/stat")
		if err == nil && !strings.Contains(string(b), ") Z ") {
			out = append(out, c)
		}
	}
	return out
}

// TestBrokenServers runs Refine with servers that crash, hang or are
// missing: each ends with a clear state or error, no edges, and no
// process left behind.
func TestBrokenServers(t *testing.T) {
	dir, _ := extract(t, "../../testdata/lsp/python.txtar")
	res, err := index.Build(dir, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	py := config.LanguageByName("python").Extensions
	cases := []struct {
		name      string
		command   []string
		state     State  // the session's state afterwards
		wantErr   string // in Stats.Servers and the session's last error
		notFound  bool
		startTime time.Duration
	}{
		{name: "crash", command: []string{"sh", "-c", "echo 'fatal: no config' >&2; exit 3"},
			state: Crashed, wantErr: "exit status 3"},
		{name: "hang", command: []string{"sleep", "1000"}, state: Crashed,
			wantErr: "deadline exceeded", startTime: 500 * time.Millisecond},
		{name: "garbage", command: []string{"sh", "-c", "echo 'this is not LSP'; sleep 1000"}, state: Crashed,
			wantErr: "initialize", startTime: 500 * time.Millisecond},
		{name: "missing", command: []string{"ccd-no-such-language-server"}, notFound: true,
			wantErr: "not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := ServerSpec{Language: "broken-" + tc.name, Command: tc.command, Extensions: py}
			m := NewManager(Options{Servers: []ServerSpec{spec}, StartTimeout: tc.startTime, RestartBackoff: time.Hour})
			defer m.Close()
			ref, err := Refine(context.Background(), m, dir, res.Graph, res.Files, RefineOptions{Budget: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if len(ref.Edges) != 0 || len(ref.Stale) != 0 {
				t.Errorf("a broken server produced edges: %+v %+v", ref.Edges, ref.Stale)
			}
			st := ref.Stats
			if st.Candidates == 0 || st.Skipped != st.Candidates || st.Asked != 0 {
				t.Errorf("want every candidate skipped and nothing asked: %+v", st)
			}
			msg := st.Servers[spec.Language]
			if !strings.Contains(msg, tc.wantErr) {
				t.Errorf("Stats.Servers[%s] = %q, want it to mention %q", spec.Language, msg, tc.wantErr)
			}
			s, err := m.Session(spec.Language, dir)
			if tc.notFound {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Session of a missing server: err = %v, want ErrNotFound", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			status := s.Status()
			if status.State != tc.state || !strings.Contains(status.LastError, tc.wantErr) {
				t.Errorf("status = %s %q, want %s mentioning %q", status.State, status.LastError, tc.state, tc.wantErr)
			}
			if status.RetryAt.IsZero() {
				t.Error("a crashed session has no restart time")
			}
			// Within the backoff, requests fail at once with the reason.
			_, err = s.Definition(context.Background(), "app.py", pos(0, 0))
			if err == nil || !strings.Contains(err.Error(), "crashed") {
				t.Errorf("request during backoff: err = %v, want a crashed error", err)
			}
			if kids := children(t); len(kids) != 0 {
				t.Errorf("server processes left behind: %v", kids)
			}
		})
	}
	if tc := cases[0]; strings.Contains(tc.command[2], "fatal") {
		// The crash case's stderr makes it into the error: checked here
		// once more so that a rewrite of the table keeps it.
		m := NewManager(Options{Servers: []ServerSpec{{Language: "c1", Command: tc.command, Extensions: py}}})
		defer m.Close()
		s, err := m.Session("c1", dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(context.Background()); err == nil || !strings.Contains(err.Error(), "fatal: no config") {
			t.Errorf("start error %v does not carry the server's stderr", err)
		}
	}
}

// TestCallerContext checks that a caller's context bounds every call, even
// while the server is still starting, and that the start goes on.
func TestCallerContext(t *testing.T) {
	dir := t.TempDir()
	spec := ServerSpec{Language: "slow", Command: []string{"sleep", "1000"}, Extensions: []string{".py"}}
	m := NewManager(Options{Servers: []ServerSpec{spec}, StartTimeout: time.Minute})
	s, err := m.Session("slow", dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = s.Definition(ctx, "x.py", pos(0, 0))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	if st := s.Status().State; st != Starting {
		t.Errorf("state after the caller gave up = %s, want starting (the start goes on)", st)
	}
	m.Close()
	if kids := children(t); len(kids) != 0 {
		t.Errorf("Close left the starting server running: %v", kids)
	}
	if _, err := m.Session("slow", dir); !errors.Is(err, ErrClosed) {
		t.Errorf("Session after Close: err = %v, want ErrClosed", err)
	}
}
