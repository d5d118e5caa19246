package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/daemon"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/gofrs/flock"
)

// running returns a client for a daemon that is already running, or nil
// (no daemon, or CCD_NO_DAEMON=1 asks for in-process work).
func running() *daemonClient {
	if k, _ := config.LoadDaemon(); k.NoDaemon {
		return nil
	}
	c, err := connect(2*time.Second, false)
	if err != nil {
		return nil
	}
	return c
}

func runDaemon(c *ctx, args []string) error {
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	detach := fs.Bool("detach", false, "start in the background and return once it answers")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"no arguments expected"}
	}
	opts, err := daemon.OptionsFromEnv()
	if err != nil {
		return err
	}
	useStoreChecker()
	if *detach {
		if cl := running(); cl != nil {
			return printPing(c, cl, "already running")
		}
		if err := wire.StartDetached(); err != nil {
			return err
		}
		deadline := time.Now().Add(15 * time.Second)
		cl, err := connect(time.Until(deadline), false)
		for err != nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			cl, err = connect(time.Until(deadline), false)
		}
		if err != nil {
			dir, _ := wire.StateDir()
			return fmt.Errorf("daemon did not answer: %w (see %s)", err, filepath.Join(dir, "daemon.log"))
		}
		return printPing(c, cl, "started")
	}
	reexecLazyFree()
	opts.Foreground = true
	err = daemon.Run(context.Background(), opts)
	if errors.Is(err, daemon.ErrRunning) {
		// Several starters race; all but one end here, quietly and fine.
		fmt.Fprintln(c.stderr, "ccd daemon: already running")
		return nil
	}
	return err
}

func printPing(c *ctx, cl *daemonClient, what string) error {
	var p struct {
		PID     int    `json:"pid"`
		Version string `json:"version"`
	}
	if err := cl.do(http.MethodGet, "/v1/ping", nil, &p); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "ccd daemon %s (pid %d, version %s, socket %s)\n", what, p.PID, p.Version, cl.Socket)
	return nil
}

func runStatus(c *ctx, args []string) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	cl := running()
	if cl == nil {
		sock, err := wire.SocketPath()
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(c.stdout).Encode(map[string]any{"running": false, "socket": sock})
		}
		fmt.Fprintf(c.stdout, "no ccd daemon running (socket %s); `ccd init DIR` or any shim starts one\n", sock)
		return nil
	}
	var st wire.Status
	if err := cl.do(http.MethodGet, "/v1/status", nil, &st); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	lazy := ""
	if st.LazyFreeBytes >= 1<<20 {
		lazy = fmt.Sprintf(" (+%.0f MB freed lazily)", float64(st.LazyFreeBytes)/(1<<20))
	}
	fmt.Fprintf(c.stdout, "ccd daemon pid %d, version %s, up %s, RSS %.0f MB%s, %d requests\n",
		st.PID, st.Version, (time.Duration(st.UptimeS * float64(time.Second))).Round(time.Second), float64(st.RSSBytes)/(1<<20), lazy, st.Requests)
	fmt.Fprintf(c.stdout, "socket %s\n", st.Socket)
	fmt.Fprintf(c.stdout, "workspaces (%d):\n", len(st.Workspaces))
	for _, w := range st.Workspaces {
		writeWorkspace(c.stdout, w)
	}
	for _, s := range st.LSP {
		fmt.Fprintf(c.stdout, "lsp: %s (%s) for %s: %s, pid %d, %.0f MB, %d requests, %d failures, %d restarts\n",
			s.Server, s.Language, s.Root, s.State, s.PID, float64(s.RSSBytes)/(1<<20), s.Requests, s.Failures, s.Restarts)
	}
	if len(st.Hooks) > 0 {
		evs := make([]string, 0, len(st.Hooks))
		for ev := range st.Hooks {
			evs = append(evs, ev)
		}
		sort.Strings(evs)
		fmt.Fprintf(c.stdout, "hooks:\n")
		for _, ev := range evs {
			h := st.Hooks[ev]
			fmt.Fprintf(c.stdout, "  %-20s %6d events %5d cards  p50 %.2f ms  p99 %.2f ms\n", ev, h.Count, h.Cards, h.P50MS, h.P99MS)
		}
	}
	return nil
}

func writeWorkspace(w io.Writer, in wire.WorkspaceInfo) {
	fresh := "stale"
	if in.Fresh {
		fresh = "fresh"
	}
	fmt.Fprintf(w, "  %s  %s  generation %d  %s", in.Root, in.State, in.Generation, fresh)
	if in.Head != "" {
		fmt.Fprintf(w, "  HEAD %.12s", in.Head)
	}
	if in.Updates > 0 {
		fmt.Fprintf(w, "  %d updates, last %.1f ms", in.Updates, in.UpdateMS)
	}
	if in.Trees > 0 {
		fmt.Fprintf(w, "  %d trees kept, %d incremental reparses", in.Trees, in.Incremental)
	}
	fmt.Fprintln(w)
	switch in.State {
	case "indexing":
		fmt.Fprintf(w, "    indexing: %s %d/%d files\n", in.Phase, in.Done, in.Total)
	case "failed":
		fmt.Fprintf(w, "    error: %s\n", in.Error)
	}
	if in.Store != "" {
		fmt.Fprintf(w, "    store: %s\n", in.Store)
	}
	if in.Watch == "polling" {
		fmt.Fprintf(w, "    watching: polling every 2 s (inotify's limits are reached: raise fs.inotify.max_user_watches / max_user_instances)\n")
	}
	if in.Nodes > 0 {
		var langs []string
		for l, n := range in.Languages {
			langs = append(langs, fmt.Sprintf("%s %d", l, n))
		}
		sort.Strings(langs)
		fmt.Fprintf(w, "    %d files (%s), %d nodes, %d edges; indexed %s in %.0f ms\n",
			in.Files, strings.Join(langs, ", "), in.Nodes, in.Edges, in.IndexedAt, in.IndexMS)
	}
	if n := len(in.SyntaxErrors); n > 0 {
		var at []string
		for i, e := range in.SyntaxErrors {
			if i == 5 {
				at = append(at, fmt.Sprintf("+%d more (--json lists them)", n-5))
				break
			}
			at = append(at, fmt.Sprintf("%s:%d", e.Path, e.Line))
		}
		fmt.Fprintf(w, "    syntax errors in %s\n", strings.Join(at, ", "))
	}
	if line := lspStatusLine(in); line != "" {
		fmt.Fprintf(w, "    language servers: %s\n", line)
	}
	if in.Tests != "" {
		fmt.Fprintf(w, "    tests: %s\n", in.Tests)
	}
	if in.Precise != "" {
		fmt.Fprintf(w, "    scip: %s\n", in.Precise)
	}
}

// lspStatusLine says what the language servers did for a workspace.
func lspStatusLine(in wire.WorkspaceInfo) string {
	missing := ""
	if len(in.LSPMissing) > 0 {
		names := make([]string, 0, len(in.LSPMissing))
		for _, n := range in.LSPMissing {
			names = append(names, n)
		}
		sort.Strings(names)
		missing = strings.Join(names, ", ") + " not found (bash scripts/install-lsp.sh installs gopls, pyright and TypeScript; `ccd doctor` says where ccd looks; the daemon looks again every 30 s)"
	}
	switch in.LSP {
	case "refining":
		if in.LSPProgress == "" {
			return "starting"
		}
		return "refining call edges (" + in.LSPProgress + " call sites asked)"
	case "failed":
		return "refinement failed (ccd doctor says why)"
	case "done":
	default:
		return ""
	}
	if len(in.LSPServers) == 0 {
		if missing != "" {
			return missing + "; the call graph is tree-sitter's alone"
		}
		return "no call site needed asking"
	}
	used := make([]string, 0, len(in.LSPServers))
	for _, srv := range in.LSPServers {
		used = append(used, srv)
	}
	sort.Strings(used)
	line := fmt.Sprintf("%s: %d call edges added, %d confirmed", strings.Join(used, ", "), in.LSPAdded, in.LSPUpgraded)
	if in.LSPSpliced+in.LSPReapplied > 0 {
		line += fmt.Sprintf("; kept up with %d updates by splicing, %d by re-applying", in.LSPSpliced, in.LSPReapplied)
	}
	if missing != "" {
		line += "; " + missing
	}
	return line
}

func runInit(c *ctx, args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	force := fs.Bool("force", false, "index even the home directory or a system directory")
	noWait := fs.Bool("no-wait", false, "return at once; indexing goes on in the daemon")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	return indexInDaemon(c, pos, "/v1/workspaces", *force, *noWait)
}

// runReindex indexes a workspace again from scratch in the daemon, and
// asks the language servers again rather than reusing what they said.
func runReindex(c *ctx, args []string) error {
	fs := flag.NewFlagSet("reindex", flag.ContinueOnError)
	noWait := fs.Bool("no-wait", false, "return at once; indexing goes on in the daemon")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	return indexInDaemon(c, pos, "/v1/workspaces/reindex", false, *noWait)
}

// indexInDaemon posts a root (pos: at most one directory, default ".")
// to the daemon's add or reindex endpoint, starting the daemon if needed,
// and follows the index until the workspace is ready and watched.
func indexInDaemon(c *ctx, pos []string, endpoint string, force, noWait bool) error {
	root, err := dirArg(pos)
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	cl, err := connect(15*time.Second, true)
	if err != nil {
		return err
	}
	var in wire.WorkspaceInfo
	if err := cl.do(http.MethodPost, endpoint, wire.AddWorkspace{Root: abs, Force: force}, &in); err != nil {
		return err
	}
	if noWait {
		writeWorkspace(c.stdout, in)
		return nil
	}
	tty := isTerminal(c.stderr)
	last := ""
	// Wait for the index, then (briefly) for the watches to be in place, so
	// that the workspace is fresh when init returns.
	settle := time.Now().Add(30 * time.Second)
	for in.State == "indexing" || (in.State == "ready" && !in.Fresh && time.Now().Before(settle)) {
		line := fmt.Sprintf("indexing %s: %s %d/%d files", in.Root, in.Phase, in.Done, in.Total)
		if in.State == "ready" {
			line, in.Phase = "setting up the watches on "+in.Root, "watch"
		}
		if tty {
			fmt.Fprintf(c.stderr, "\r%-100s", line)
		} else if in.Phase != last {
			fmt.Fprintln(c.stderr, line)
		}
		last = in.Phase
		time.Sleep(100 * time.Millisecond)
		var list []wire.WorkspaceInfo
		if err := cl.do(http.MethodGet, "/v1/workspaces", nil, &list); err != nil {
			return err
		}
		for _, w := range list {
			if w.Root == in.Root {
				in = w
			}
		}
	}
	if tty {
		fmt.Fprintf(c.stderr, "\r%-100s\r", "")
	}
	if in.State == "failed" {
		return fmt.Errorf("%s", in.Error)
	}
	fmt.Fprintln(c.stdout, in.Summary)
	writeWorkspace(c.stdout, in)
	if in.Tests == "" && (in.Languages["python"] > 0 || in.Languages["go"] > 0 && hasGoMod(in.Root)) {
		fmt.Fprintf(c.stdout, "tip: `ccd tests record %s` runs the test suite once under a tracer, so that affected tests name the tests that really run a function\n", in.Root)
	}
	return nil
}

// hasGoMod reports whether root is a Go module's directory (what `ccd
// tests record` needs to run Go tests; modules below it count too, but
// the tip stays quiet rather than guess).
func hasGoMod(root string) bool {
	_, err := os.Stat(filepath.Join(root, "go.mod"))
	return err == nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runStop(c *ctx, args []string) error {
	fs := flag.NewFlagSet("stop", flag.ContinueOnError)
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	cl := running()
	if cl == nil {
		fmt.Fprintln(c.stdout, "no ccd daemon running")
		return nil
	}
	if err := cl.do(http.MethodPost, "/v1/stop", nil, nil); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		err := cl.within(200 * time.Millisecond).ping()
		if errors.Is(err, wire.ErrNoDaemon) && daemonExited() {
			fmt.Fprintln(c.stdout, "ccd daemon stopped")
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the daemon did not stop within 10s")
}

// daemonQuery asks a running daemon about the workspace holding root,
// indexing it first if needed (waiting up to 10 minutes), and decodes the
// answer into out.
func daemonQuery(cl *daemonClient, path, root string, params url.Values, out any) error {
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	return cl.do(http.MethodGet, workspaceQuery(path, abs, params), nil, out)
}

// daemonAnswer is daemonQuery returning the answer itself (a picture and
// its headers).
func daemonAnswer(cl *daemonClient, path, root string, params url.Values) (*wire.Response, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	return cl.answer(http.MethodGet, workspaceQuery(path, abs, params), nil)
}

// workspaceQuery is path with params asking about the workspace holding
// the absolute root, added and indexed when new.
func workspaceQuery(path, root string, params url.Values) string {
	params.Set("root", root)
	params.Set("auto", "1")
	params.Set("wait_s", "600")
	return path + "?" + params.Encode()
}

// useStoreChecker makes the daemon check each workspace database in a
// child process (`ccd check-store`) before opening it.
func useStoreChecker() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	store.CheckCommand = func(path string) *exec.Cmd { return exec.Command(exe, "check-store", path) }
}

// daemonExited reports whether no process holds the daemon lock any more:
// the daemon stops answering before it has finished saving, and a caller
// of stop may delete its files next.
func daemonExited() bool {
	dir, err := wire.StateDir()
	if err != nil {
		return true
	}
	l := flock.New(filepath.Join(dir, "daemon.lock"))
	ok, err := l.TryLock()
	if err != nil {
		return true
	}
	if ok {
		l.Unlock()
	}
	return ok
}
