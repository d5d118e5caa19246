package hookshim

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/daemon/wire"
)

func TestHookPath(t *testing.T) {
	cases := []struct{ project, config string }{
		{"", ""},
		{"/home/u/my project", ""},
		{"", "/home/u/.claude"},
		{"/p/ä ö&x=1?#%", "/c/+plus;semi"},
	}
	for _, c := range cases {
		t.Setenv("CLAUDE_PROJECT_DIR", c.project)
		t.Setenv("CLAUDE_CONFIG_DIR", c.config)
		q := url.Values{}
		if c.project != "" {
			q.Set("project_dir", c.project)
		}
		if c.config != "" {
			q.Set("config_dir", c.config)
		}
		want := "/v1/hook"
		if len(q) > 0 {
			want += "?" + q.Encode()
		}
		if got := hookPath(); got != want {
			t.Errorf("%+v: got %q, want %q", c, got, want)
		}
	}
}

func TestHookPathOtherAgents(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("GEMINI_PROJECT_DIR", "/g/proj")
	t.Setenv("FACTORY_PROJECT_DIR", "/f/proj")
	if got, want := hookPath(), "/v1/hook?project_dir=%2Fg%2Fproj"; got != want {
		t.Errorf("Gemini's project dir: got %q, want %q", got, want)
	}
	t.Setenv("GEMINI_PROJECT_DIR", "")
	if got, want := hookPath(), "/v1/hook?project_dir=%2Ff%2Fproj"; got != want {
		t.Errorf("Droid's project dir: got %q, want %q", got, want)
	}
	t.Setenv("CLAUDE_PROJECT_DIR", "/c/proj")
	if got, want := hookPath(), "/v1/hook?project_dir=%2Fc%2Fproj"; got != want {
		t.Errorf("CLAUDE_PROJECT_DIR comes first: got %q, want %q", got, want)
	}
}

func TestAgentArg(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--agent", "codex"}, "codex"},
		{[]string{"--agent=gemini"}, "gemini"},
		{[]string{"-agent", "droid"}, "droid"},
		{[]string{"--agent"}, ""},
		{[]string{"x", "--agent", "copilot", "y"}, "copilot"},
	} {
		if got := agentArg(c.args); got != c.want {
			t.Errorf("agentArg(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	// The test binary's own arguments come back from /proc/self/cmdline.
	if got := wire.Args(); len(got) != len(os.Args)-1 || (len(got) > 0 && got[0] != os.Args[1]) {
		t.Errorf("wire.Args() = %q, os.Args = %q", got, os.Args)
	}
}

func TestQueryEscape(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	for _, s := range []string{"", "plain", "a b+c&d=e", "日本/語", string(all)} {
		if got, want := queryEscape(s), url.QueryEscape(s); got != want {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
	}
}

func TestBudget(t *testing.T) {
	for _, c := range []struct {
		env  string
		want int64
	}{{"", defaultBudget}, {"250", 250 * wire.Millisecond}, {"+7", 7 * wire.Millisecond}, {"0", defaultBudget}, {"-5", defaultBudget}, {"1s", defaultBudget}} {
		t.Setenv("CCD_HOOK_BUDGET_MS", c.env)
		if got := budget(); got != c.want {
			t.Errorf("%q: %d, want %d", c.env, got, c.want)
		}
	}
}

// fakeDaemon serves the hook endpoint on a fresh socket (CCD_SOCKET) and
// a fresh state dir (CCD_HOME), and returns what it saw.
func fakeDaemon(t *testing.T) (home string, seen chan *http.Request) {
	t.Helper()
	home, err := os.MkdirTemp("/tmp", "hookt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	sock := filepath.Join(home, "ccd.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	seen = make(chan *http.Request, 8)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		seen <- r
		switch {
		case r.Method != "POST" || r.URL.Path != "/v1/hook":
			w.WriteHeader(404)
		case strings.Contains(string(body), "Card"):
			io.WriteString(w, `{"hookSpecificOutput":{"additionalContext":"[ccd impact] x"}}`)
		case strings.Contains(string(body), "Junk"):
			io.WriteString(w, "<html>a proxy's page, not ccd</html>")
		case strings.Contains(string(body), "Boom"):
			w.WriteHeader(500)
			io.WriteString(w, `{"code":"internal","message":"the graph exploded","hint":"restart the daemon"}`)
		}
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	t.Setenv("CCD_HOME", home)
	t.Setenv("CCD_SOCKET", "")
	t.Setenv("CCD_NO_AUTOSTART", "1")
	t.Setenv("CLAUDE_PROJECT_DIR", "/work/p q")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	return home, seen
}

func TestForward(t *testing.T) {
	_, seen := fakeDaemon(t)
	cases := []struct {
		event, answer, err string
	}{
		{`{"hook_event_name":"Card"}`, `{"hookSpecificOutput":{"additionalContext":"[ccd impact] x"}}`, ""},
		{`{"hook_event_name":"Nothing"}`, "", ""},
		{`{"hook_event_name":"Boom"}`, "", "the graph exploded\nHint: restart the daemon"},
	}
	for _, c := range cases {
		got, err := Forward([]byte(c.event))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: want error %q, got %q %v", c.event, c.err, got, err)
			}
		} else if err != nil || string(got) != c.answer {
			t.Errorf("%s: got %q %v, want %q", c.event, got, err, c.answer)
		}
		r := <-seen
		body, _ := io.ReadAll(r.Body)
		if string(body) != c.event || r.URL.Query().Get("project_dir") != "/work/p q" || r.Header.Get(wire.VersionHeader) != wire.Version {
			t.Errorf("the daemon saw %s %s %v", r.URL, body, r.Header)
		}
	}
}

func TestForwardNoDaemon(t *testing.T) {
	home, _ := fakeDaemon(t)
	t.Setenv("CCD_SOCKET", filepath.Join(home, "other.sock"))
	if _, err := Forward([]byte(`{}`)); !errors.Is(err, wire.ErrNoDaemon) {
		t.Errorf("autostart off: %v", err)
	}
	t.Setenv("CCD_NO_AUTOSTART", "")
	t.Setenv("CCD_EXE", "/nonexistent/ccd")
	if _, err := Forward([]byte(`{}`)); err == nil || !strings.Contains(err.Error(), "connect: start daemon /nonexistent/ccd") {
		t.Errorf("no daemon binary: %v", err)
	}
	t.Setenv("CCD_SOCKET", "/tmp/"+strings.Repeat("s", 120))
	if _, err := Forward([]byte(`{}`)); err == nil || !strings.Contains(err.Error(), "over the unix socket limit") {
		t.Errorf("long socket path: %v", err)
	}
}

// TestMainFailsOpen runs the whole shim on pipes: the answer goes to stdout; a
// failure leaves stdout empty, exits 0 and is logged to hook.log.
func TestMainFailsOpen(t *testing.T) {
	home, seen := fakeDaemon(t)
	go func() {
		for range seen {
		}
	}()
	cases := []struct {
		name, stdin, stdout, logged string
	}{
		{"card", `{"hook_event_name":"Card"}`, `{"hookSpecificOutput":{"additionalContext":"[ccd impact] x"}}`, ""},
		{"no card", `{"hook_event_name":"Nothing"}`, "", ""},
		{"daemon error", `{"hook_event_name":"Boom"}`, "", "ccd-hook: the graph exploded"},
		{"empty stdin", " \n\t", "", "ccd-hook: empty event on stdin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(filepath.Join(home, "hook.log"))
			stdout, code := runMain(t, c.stdin)
			if code != 0 || stdout != c.stdout {
				t.Errorf("exit %d, stdout %q; want 0, %q", code, stdout, c.stdout)
			}
			after, _ := os.ReadFile(filepath.Join(home, "hook.log"))
			added := string(after[len(before):])
			if (c.logged == "") != (added == "") || !strings.Contains(added, c.logged) {
				t.Errorf("hook.log gained %q, want a line with %q", added, c.logged)
			}
		})
	}
}

func runMain(t *testing.T, stdin string) (string, int) {
	t.Helper()
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	defer inR.Close()
	defer outR.Close()
	go func() {
		io.WriteString(inW, stdin)
		inW.Close()
	}()
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(outR)
		got <- string(b)
	}()
	code := Main(wire.FD(inR.Fd()), wire.FD(outW.Fd()))
	outW.Close()
	return <-got, code
}

func TestValidJSON(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"hookSpecificOutput":{"additionalContext":"[ccd] x\n\"y\""}}`, true},
		{` {"a":[1,-2.5e3,true,false,null,"s",{}],"b":[]} `, true},
		{`[]`, true},
		{`"x"`, true},
		{`<html>`, false},
		{`{"a":1,}`, false},
		{`{"a" 1}`, false},
		{`{"a":1} trailing`, false},
		{`{"a":"unterminated}`, false},
		{"{\"a\":\"raw\ncontrol\"}", false},
		{``, false},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), false},
	} {
		if got := validJSON([]byte(c.in)); got != c.ok {
			t.Errorf("validJSON(%.40q) = %v, want %v", c.in, got, c.ok)
		}
	}
}

// TestRunPrintsOnlyJSON: a 200 answer that is not JSON (a stranger on the
// socket, a broken daemon) is not printed for Claude Code to show.
func TestRunPrintsOnlyJSON(t *testing.T) {
	home, seen := fakeDaemon(t)
	go func() {
		for range seen {
		}
	}()
	for _, c := range []struct{ event, want string }{
		{`{"hook_event_name":"Junk"}`, ""},
		{`{"hook_event_name":"Card"}`, `{"hookSpecificOutput":{"additionalContext":"[ccd impact] x"}}`},
	} {
		inR, inW, _ := os.Pipe()
		outR, outW, _ := os.Pipe()
		inW.WriteString(c.event)
		inW.Close()
		if code := Main(wire.FD(inR.Fd()), wire.FD(outW.Fd())); code != 0 {
			t.Fatalf("exit %d", code)
		}
		outW.Close()
		got, _ := io.ReadAll(outR)
		inR.Close()
		outR.Close()
		if string(got) != c.want {
			t.Errorf("%s: printed %q, want %q", c.event, got, c.want)
		}
	}
	log, _ := os.ReadFile(filepath.Join(home, "hook.log"))
	if !strings.Contains(string(log), "not JSON") {
		t.Errorf("hook.log does not say why nothing was printed:\n%s", log)
	}
}
