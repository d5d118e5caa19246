// Package hookshim is the Claude Code hook shim: it forwards the hook event
// on stdin to the daemon (starting it when needed) and prints the daemon's
// answer. It fails open: whatever goes wrong, the agent is never blocked —
// the shim exits 0, prints nothing, and logs the cause to hook.log in the
// state directory.
//
// It runs for every hook event, so it links only package wire (no net,
// fmt, time or os): a Go binary pays at start-up for every package it
// links.
package hookshim

import (
	"errors"
	"strconv"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// maxEvent bounds what is read from stdin (a Write of a large file carries
// its content twice); the daemon reads as much.
const maxEvent = 64 << 20

// defaultBudget is the whole time budget when CCD_HOOK_BUDGET_MS is unset,
// counted from the shim's start (reading stdin included): inside the
// shortest timeout `ccd setup` registers (5 s), with a second for the
// process to start and exit.
const defaultBudget = 4000 * wire.Millisecond

// Main runs the shim on stdin and stdout and returns its exit code, which
// is always 0; a failure is logged to hook.log.
func Main(stdin, stdout wire.FD) int {
	if err := run(stdin, stdout); err != nil {
		wire.AppendLog("hook.log", "ccd-hook", err.Error())
	}
	return 0
}

func run(stdin, stdout wire.FD) error {
	deadline := wire.After(budget()) // reading the event counts too
	ev, err := stdin.ReadAll(maxEvent)
	if err != nil {
		return errors.New("read event: " + err.Error())
	}
	if blank(ev) {
		return errors.New("empty event on stdin")
	}
	if deadline.Passed() {
		return errors.New("the hook budget was spent reading the event")
	}
	answer, err := forward(ev, deadline)
	if err != nil {
		return err
	}
	if len(answer) > 0 && !validJSON(answer) {
		// Whatever answered is not ccd (or is broken): print nothing
		// rather than text Claude Code would show the model.
		return errors.New("the daemon's answer is not JSON; nothing printed")
	}
	if len(answer) > 0 {
		if _, err := stdout.Write(answer); err != nil {
			return errors.New("write answer: " + err.Error())
		}
	}
	return nil
}

// Forward posts one hook event to the daemon and returns its answer. The
// common case is a running daemon: one round trip. Only when nothing
// answers (and CCD_NO_AUTOSTART is not 1) is a daemon started and the
// event posted again. Connecting, starting and answering share one budget,
// CCD_HOOK_BUDGET_MS. A non-2xx answer is the daemon's error envelope.
func Forward(ev []byte) ([]byte, error) { return forward(ev, wire.After(budget())) }

func forward(ev []byte, deadline wire.Deadline) ([]byte, error) {
	c := wire.Client{Version: wire.Version, Deadline: deadline, Patient: true}
	sock, err := wire.SocketPath()
	if err != nil {
		return nil, err
	}
	target := hookPath()
	resp, err := c.Call(sock, "POST", target, ev)
	if errors.Is(err, wire.ErrNoDaemon) && wire.Getenv("CCD_NO_AUTOSTART") != "1" {
		if sock, err = c.Ensure(true); err != nil {
			return nil, errors.New("connect: " + err.Error())
		}
		resp, err = c.Call(sock, "POST", target, ev)
	}
	if err != nil {
		return nil, err
	}
	if err := resp.Err(); err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// budget is CCD_HOOK_BUDGET_MS in nanoseconds, else the default.
func budget() int64 {
	if n, err := strconv.Atoi(wire.Getenv("CCD_HOOK_BUDGET_MS")); err == nil && n > 0 {
		return int64(n) * wire.Millisecond
	}
	return defaultBudget
}

// blank reports whether b is only white space.
func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// hookPath is the endpoint with what the daemon cannot see itself: the
// agent named by --agent (ccd setup writes it for agents other than
// Claude Code), and the hook process's project and config directories
// (CLAUDE_PROJECT_DIR and CLAUDE_CONFIG_DIR; the project directory other
// agents export when Claude Code's is unset), encoded as
// url.Values.Encode does (keys sorted).
func hookPath() string {
	q := ""
	add := func(k, v string) {
		if v == "" {
			return
		}
		if q != "" {
			q += "&"
		}
		q += k + "=" + queryEscape(v)
	}
	add("agent", agentArg(wire.Args()))
	add("config_dir", wire.Getenv("CLAUDE_CONFIG_DIR"))
	project := wire.Getenv("CLAUDE_PROJECT_DIR")
	for _, name := range [...]string{"GEMINI_PROJECT_DIR", "FACTORY_PROJECT_DIR", "CODEX_PROJECT_DIR"} {
		if project == "" {
			project = wire.Getenv(name)
		}
	}
	add("project_dir", project)
	if q == "" {
		return "/v1/hook"
	}
	return "/v1/hook?" + q
}

// agentArg is the value of --agent NAME (or --agent=NAME) in args, "" when
// absent.
func agentArg(args []string) string {
	for i, a := range args {
		switch {
		case a == "--agent" || a == "-agent":
			if i+1 < len(args) {
				return args[i+1]
			}
		case len(a) > 8 && a[:8] == "--agent=":
			return a[8:]
		case len(a) > 7 && a[:7] == "-agent=":
			return a[7:]
		}
	}
	return ""
}

// queryEscape escapes s for a URL query, as url.QueryEscape does.
func queryEscape(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

// validJSON reports whether b is one JSON value (RFC 8259), with white
// space around it. It allocates nothing: the shim links no encoding/json.
func validJSON(b []byte) bool {
	i, ok := jsonValue(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, i) == len(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonValue parses the value at b[i:] and returns the index after it.
func jsonValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > 512 {
		return i, false
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == end {
			return i + 1, true
		}
		for {
			if c == '{' {
				var ok bool
				if i, ok = jsonString(b, i); !ok {
					return i, false
				}
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return i, false
				}
				i = skipSpace(b, i+1)
			}
			var ok bool
			if i, ok = jsonValue(b, i, depth+1); !ok {
				return i, false
			}
			i = skipSpace(b, i)
			if i < len(b) && b[i] == ',' {
				i = skipSpace(b, i+1)
				continue
			}
			if i < len(b) && b[i] == end {
				return i + 1, true
			}
			return i, false
		}
	case c == '"':
		return jsonString(b, i)
	case c == '-' || c >= '0' && c <= '9':
		j := i
		for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] >= '0' && b[j] <= '9') {
			j++
		}
		return j, j > i
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return i, false
}

// jsonString parses the string at b[i:].
func jsonString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		default:
			if b[i] < 0x20 {
				return i, false
			}
		}
	}
	return i, false
}
