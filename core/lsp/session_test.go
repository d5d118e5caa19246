package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// tsFixture extracts the TypeScript fixture and returns its root and the
// position of the `sum` call in src/main.ts.
func tsFixture(t *testing.T) (string, protocol.Position) {
	t.Helper()
	dir, _ := extract(t, "../../testdata/lsp/typescript.txtar")
	return dir, pos(3, 12) // `  const n = sum(1, 2);`
}

// checkSum asks for the definition of `sum` and checks it is add in
// src/impl/math.ts.
func checkSum(t *testing.T, s *Session, p protocol.Position) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	locs, err := s.Definition(ctx, "src/main.ts", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || filepath.Base(locs[0].Path) != "math.ts" || locs[0].Line() != 1 {
		t.Fatalf("definition of sum = %v, want src/impl/math.ts:1", locs)
	}
}

// TestRestartAfterCrash kills a real server and checks that the session
// reports the crash and restarts on the next request after the backoff.
func TestRestartAfterCrash(t *testing.T) {
	dir, p := tsFixture(t)
	m := NewManager(Options{RestartBackoff: 50 * time.Millisecond})
	defer m.Close()
	s, err := m.Session("typescript", dir)
	needServer(t, err)
	checkSum(t, s, p)
	st := s.Status()
	if st.State != Ready || st.Pid == 0 || st.RSS == 0 {
		t.Fatalf("status of a running server: %+v", st)
	}
	if err := syscall.Kill(st.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the session notices the crash", func() bool { return s.Status().State == Crashed })
	if le := s.Status().LastError; !strings.Contains(le, "killed") {
		t.Errorf("last error %q does not say the server was killed", le)
	}
	waitFor(t, "the backoff passes", func() bool { return time.Now().After(s.Status().RetryAt) })
	checkSum(t, s, p)
	st = s.Status()
	if st.State != Ready || st.Restarts != 1 {
		t.Errorf("after the restart: state %s, restarts %d; want ready, 1", st.State, st.Restarts)
	}
}

// TestIdleStop checks that an unused session is stopped and starts again
// on the next request.
func TestIdleStop(t *testing.T) {
	dir, p := tsFixture(t)
	m := NewManager(Options{IdleTimeout: 200 * time.Millisecond})
	defer m.Close()
	s, err := m.Session("typescript", dir)
	needServer(t, err)
	checkSum(t, s, p)
	waitFor(t, "the idle session stops", func() bool { return s.Status().State == Stopped })
	waitFor(t, "the idle server exits", func() bool { return len(children(t)) == 0 })
	checkSum(t, s, p)
	if st := s.Status(); st.State != Ready {
		t.Errorf("state after a request = %s, want ready", st.State)
	}
}

// mute is a "server" that answers initialize and then never answers
// anything, like a server stuck in a long computation.
const mute = `
len=0
while IFS= read -r line; do
  line=${line%$'\r'}
  [ -z "$line" ] && break
  case $line in Content-Length:*) len=${line#Content-Length: } ;; esac
done
head -c "$len" >/dev/null
body='{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"definitionProvider":true}}}'
printf 'Content-Length: %d\r\n\r\n%s' "${#body}" "$body"
exec sleep 1000
`

// TestCancelRequest checks that a request given up on is cancelled
// ($/cancelRequest) and returns at the caller's deadline.
func TestCancelRequest(t *testing.T) {
	dir := t.TempDir()
	spec := ServerSpec{Language: "mute", Command: []string{"bash", "-c", mute}, Extensions: []string{".txt"}}
	m := NewManager(Options{Servers: []ServerSpec{spec}})
	defer m.Close()
	s, err := m.Session("mute", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := writeFile(filepath.Join(dir, "a.txt"), "hello\n"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Definition(ctx, "a.txt", pos(0, 0))
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Fatalf("err = %v, want the deadline", err)
	}
	st := s.Status()
	if st.Cancelled != 1 || st.Failures != 1 || st.State != Ready {
		t.Errorf("status = %+v; want 1 cancelled, 1 failure, still ready", st)
	}
	// The server announced no implementation provider.
	if _, err := s.Implementation(context.Background(), "a.txt", pos(0, 0)); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("implementation on a server without it: err = %v", err)
	}
}

// TestDocumentSymbols asks real servers for outlines (gopls answers
// DocumentSymbol[] trees).
func TestDocumentSymbols(t *testing.T) {
	cases := []struct {
		fixture, lang, file string
		want                []string // Container.Name
	}{
		{"go", "go", "notify/email.go", []string{"Email", "Email.To", "(*Email).Notify", "send"}},
		{"python", "python", "page.py", []string{"Page", "Page.splitlines"}},
		{"typescript", "typescript", "src/impl/math.ts", []string{"add"}},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			dir, _ := extract(t, "../../testdata/lsp/"+tc.fixture+".txtar")
			m := NewManager(Options{})
			defer m.Close()
			s, err := m.Session(tc.lang, dir)
			needServer(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			syms, err := s.DocumentSymbols(ctx, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			var names []string
			for _, sy := range syms {
				n := sy.Name
				if sy.Container != "" {
					n = sy.Container + "." + n
				}
				got[n] = true
				names = append(names, n)
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("no symbol %s in %v", w, names)
				}
			}
		})
	}
}

// TestDocumentSync checks that the server answers about the text ccd
// gives it (didOpen, didChange), not the file on disk, until the
// document is closed.
func TestDocumentSync(t *testing.T) {
	dir, p := tsFixture(t)
	m := NewManager(Options{})
	defer m.Close()
	s, err := m.Session("typescript", dir)
	needServer(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	orig, err := os.ReadFile(filepath.Join(dir, "src/main.ts"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), "const n = sum(1, 2);", "const n = neg(1, 2);", 1)
	edited = strings.Replace(edited, "import {", "import { neg } from \"./impl/ops\";\nimport {", 1)
	// The call moved one line down; sum's column is neg's.
	at := pos(p.Line+1, p.Character)
	defFile := func() string {
		locs, err := s.Definition(ctx, "src/main.ts", at)
		if err != nil {
			t.Fatal(err)
		}
		if len(locs) != 1 {
			return fmt.Sprint(locs)
		}
		return filepath.Base(locs[0].Path)
	}
	if err := s.Open(ctx, "src/main.ts", edited); err != nil {
		t.Fatal(err)
	}
	if got := defFile(); got != "ops.ts" {
		t.Errorf("after didOpen of the edited text: definition in %s, want ops.ts", got)
	}
	if err := s.Change(ctx, "src/main.ts", strings.Replace(edited, "neg(1, 2)", "sum(1, 2)", 1)); err != nil {
		t.Fatal(err)
	}
	if got := defFile(); got != "math.ts" {
		t.Errorf("after didChange: definition in %s, want math.ts", got)
	}
	if err := s.CloseDocument(ctx, "src/main.ts"); err != nil {
		t.Fatal(err)
	}
	if n := s.Status().OpenDocs; n != 0 {
		t.Errorf("%d documents open after didClose", n)
	}
	if err := s.FilesChanged(ctx, []string{"src/main.ts", "src/gone.ts"}); err != nil {
		t.Errorf("FilesChanged: %v", err)
	}
}
