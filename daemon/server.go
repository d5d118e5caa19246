package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/daemon/hooks"
	"github.com/ccd-dev/ccd/daemon/mcp"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

func (d *Daemon) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/ping", d.handlePing)
	mux.HandleFunc("GET /v1/status", d.handleStatus)
	mux.HandleFunc("GET /v1/workspaces", d.handleList)
	mux.HandleFunc("POST /v1/workspaces", d.handleAdd)
	mux.HandleFunc("DELETE /v1/workspaces", d.handleRemove)
	mux.HandleFunc("POST /v1/workspaces/reindex", d.handleReindex)
	mux.HandleFunc("GET /v1/impact", d.handleImpact)
	mux.HandleFunc("GET /v1/symbols", d.handleSymbols)
	mux.HandleFunc("GET /v1/export", d.handleExport)
	mux.HandleFunc("GET /v1/render", d.handleRender)
	mux.HandleFunc("GET /v1/doctor", d.handleDoctor)
	mux.HandleFunc("POST /v1/search/{op}", d.handleSearch)
	mux.HandleFunc("GET /v1/search/{op}", d.handleSearch)
	mux.HandleFunc("POST /v1/hook", d.handleHook)
	mux.HandleFunc("GET /v1/mcp", d.handleMCP)
	mux.HandleFunc("POST /v1/stop", d.handleStop)
	mux.Handle("GET /metrics", d.metrics.handler())
	// Profiles of the running daemon (the socket admits only its user):
	// curl --unix-socket ... http://ccd/debug/pprof/profile?seconds=20
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeErr(w, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint %s %s", r.Method, r.URL.Path),
			"see the API section of the README")
	})
	return d.middleware(mux)
}

// middleware counts activity for the idle timer and hands over to a newer
// client's daemon: the answer is given, then this daemon stops, and the
// client's next connection starts its own (newer) daemon.
func (d *Daemon) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.last.Store(time.Now().UnixNano())
		d.requests.Add(1)
		if v := r.Header.Get(wire.VersionHeader); d.handsOverTo(v) {
			w.Header().Set("X-Ccd-Handover", "1")
			defer func() {
				select {
				case d.stop <- "hand-over to client version " + v:
				default:
				}
			}()
		}
		t0 := time.Now()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		next.ServeHTTP(rec, r)
		// The route's pattern, never the path as sent: one label per
		// route however many distinct paths clients send.
		endpoint := r.Pattern
		if _, p, ok := strings.Cut(endpoint, " "); ok {
			endpoint = p
		}
		if endpoint == "" || endpoint == "/" {
			endpoint = "other"
		}
		d.metrics.requests.WithLabelValues(endpoint, strconv.Itoa(rec.code)).Inc()
		d.metrics.latency.WithLabelValues(endpoint).Observe(time.Since(t0).Seconds())
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeErr(w http.ResponseWriter, status int, code, msg, hint string) {
	writeJSON(w, status, wire.Error{Code: code, Message: msg, Hint: hint})
}

// fail maps an error to the envelope with the right status.
func fail(w http.ResponseWriter, err error) {
	var re *errRoot
	var nf *report.NotFoundError
	switch {
	case errors.As(err, &re):
		writeErr(w, http.StatusUnprocessableEntity, "bad_root", re.msg, re.hint)
	case errors.As(err, &nf):
		writeErr(w, http.StatusNotFound, "symbol_not_found", nf.Message(), nf.Hint())
	case errors.Is(err, mcp.ErrIndexing):
		writeErr(w, http.StatusServiceUnavailable, "indexing", err.Error(), "retry in a moment; the workspace is being indexed")
	case errors.Is(err, mcp.ErrNotInitialized):
		writeErr(w, http.StatusNotFound, "not_initialized", err.Error(), "run `ccd init DIR` (POST /v1/workspaces) first")
	case errors.Is(err, errNoWorkspace):
		writeErr(w, http.StatusNotFound, "not_initialized", err.Error(),
			"run `ccd init DIR` (POST /v1/workspaces) first, or pass auto=1 to index it now")
	default:
		writeErr(w, http.StatusInternalServerError, "internal", err.Error(), "see daemon.log in the state directory")
	}
}

func (d *Daemon) handlePing(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"version": wire.Version, "pid": os.Getpid()})
}

func (d *Daemon) handleStatus(w http.ResponseWriter, r *http.Request) {
	st := wire.Status{PID: os.Getpid(), Version: wire.Version, UptimeS: time.Since(d.started).Seconds(),
		Socket: d.sock, StateDir: d.dir, Requests: d.requests.Load(), Workspaces: []wire.WorkspaceInfo{},
		Hooks: map[string]wire.HookStats{}}
	st.RSSBytes, st.LazyFreeBytes = memory()
	// Someone asking may just have installed a server.
	d.reg.checkServers(true)
	st.LSP = lspSessions(d.reg.lspm)
	for ev, s := range d.hooks.Stats() {
		st.Hooks[ev] = wire.HookStats{Count: s.Count, Cards: s.Cards, P50MS: s.P50MS, P99MS: s.P99MS}
	}
	for _, ws := range d.reg.list() {
		st.Workspaces = append(st.Workspaces, info(ws.Snapshot()))
	}
	writeJSON(w, http.StatusOK, st)
}

func (d *Daemon) handleList(w http.ResponseWriter, r *http.Request) {
	out := []wire.WorkspaceInfo{}
	for _, ws := range d.reg.list() {
		out = append(out, info(ws.Snapshot()))
	}
	writeJSON(w, http.StatusOK, out)
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(v); err != nil {
		writeErr(w, http.StatusBadRequest, "bad_request", "request body: "+err.Error(), `send JSON like {"root": "/path/to/project"}`)
		return false
	}
	return true
}

func (d *Daemon) handleAdd(w http.ResponseWriter, r *http.Request) {
	var req wire.AddWorkspace
	if !decode(w, r, &req) {
		return
	}
	if req.Root == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "missing root", `send {"root": "/path/to/project"}`)
		return
	}
	ws, err := d.reg.add(req.Root, req.Force)
	if err != nil {
		fail(w, err)
		return
	}
	d.answerWorkspace(w, r, ws, req.WaitS)
}

func (d *Daemon) handleReindex(w http.ResponseWriter, r *http.Request) {
	var req wire.AddWorkspace
	if !decode(w, r, &req) {
		return
	}
	ws, err := d.reg.reindex(req.Root)
	if err != nil {
		fail(w, err)
		return
	}
	d.answerWorkspace(w, r, ws, req.WaitS)
}

// answerWorkspace waits (up to waitS seconds) for indexing, then reports
// the workspace: 200 when ready, 202 while indexing, 422 when it failed.
func (d *Daemon) answerWorkspace(w http.ResponseWriter, r *http.Request, ws *workspace.Workspace, waitS float64) {
	waitReady(r.Context(), ws, waitS)
	in := info(ws.Snapshot())
	switch in.State {
	case workspace.StateReady:
		writeJSON(w, http.StatusOK, in)
	case workspace.StateIndexing:
		writeJSON(w, http.StatusAccepted, in)
	default:
		writeErr(w, http.StatusUnprocessableEntity, "index_failed", in.Error, "check the path; ccd indexes project directories with source files")
	}
}

func waitReady(ctx context.Context, ws *workspace.Workspace, waitS float64) {
	if waitS <= 0 {
		return
	}
	ready := ws.Ready()
	if ready == nil {
		return
	}
	t := time.NewTimer(time.Duration(waitS * float64(time.Second)))
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
}

func (d *Daemon) handleRemove(w http.ResponseWriter, r *http.Request) {
	root := r.URL.Query().Get("root")
	if err := d.reg.remove(root); err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"removed": root})
}

// workspaceFor finds the workspace of the root query parameter; with
// auto=1 an unknown root is added. It waits up to wait_s for a ready
// graph, and writes an error (returning nil) when there is none.
func (d *Daemon) workspaceFor(w http.ResponseWriter, r *http.Request) (*workspace.Workspace, *graph.Graph, wire.WorkspaceInfo) {
	q := r.URL.Query()
	root := q.Get("root")
	if root == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "missing root parameter", "pass root=/path/inside/the/workspace")
		return nil, nil, wire.WorkspaceInfo{}
	}
	ws := d.reg.find(root)
	if ws == nil && q.Get("auto") == "1" {
		var err error
		if ws, err = d.reg.admit(root, false, q.Get("force") == "1"); err != nil {
			fail(w, err)
			return nil, nil, wire.WorkspaceInfo{}
		}
	}
	if ws == nil {
		fail(w, errNotInitialised(root))
		return nil, nil, wire.WorkspaceInfo{}
	}
	waitS, _ := strconv.ParseFloat(q.Get("wait_s"), 64)
	snap := ws.Snapshot()
	if snap.Result == nil {
		waitReady(r.Context(), ws, waitS)
		snap = ws.Snapshot()
	}
	in := info(snap)
	if snap.Result == nil {
		if in.State == workspace.StateFailed {
			writeErr(w, http.StatusUnprocessableEntity, "index_failed", in.Error, "check the path; ccd indexes project directories with source files")
		} else {
			writeErr(w, http.StatusServiceUnavailable, "indexing",
				fmt.Sprintf("%s is being indexed (%s %d/%d files)", snap.Root, in.Phase, in.Done, in.Total),
				"retry in a moment, or pass wait_s to wait")
		}
		return nil, nil, in
	}
	setMeta(w, in)
	return ws, snap.Graph, in
}

// setMeta puts the workspace's generation and freshness on an answer.
func setMeta(w http.ResponseWriter, in wire.WorkspaceInfo) {
	w.Header().Set("X-Ccd-Generation", strconv.FormatUint(in.Generation, 10))
	w.Header().Set("X-Ccd-Fresh", strconv.FormatBool(in.Fresh))
	w.Header().Set("X-Ccd-State", in.State)
	if in.Head != "" {
		w.Header().Set("X-Ccd-Head", in.Head)
	}
}

// intParam reads the integer query parameter name (def when absent). A
// value that is not an integer of at least min gets the error envelope
// and ok=false.
func intParam(w http.ResponseWriter, q url.Values, name string, def, min int) (n int, ok bool) {
	v := q.Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min {
		want := fmt.Sprintf("at least %d", min)
		if name == "depth" {
			want = "0 (unlimited) or more"
		}
		writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("%s=%q: want %s", name, v, want),
			fmt.Sprintf("pass %s=%d, or leave it out", name, def))
		return 0, false
	}
	return n, true
}

func (d *Daemon) handleImpact(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sym := q.Get("symbol")
	if sym == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "missing symbol parameter", "pass symbol=Name (a name, Cls.method, path::Qual or path:line)")
		return
	}
	depth, ok := intParam(w, q, "depth", 3, 0)
	if !ok {
		return
	}
	conf := graph.NameMatch
	if v := q.Get("min_confidence"); v != "" {
		c, err := graph.ParseConfidence(v)
		if err != nil {
			writeErr(w, http.StatusBadRequest, "bad_request", err.Error(), "pass min_confidence=inferred to drop name-only matches")
			return
		}
		conf = c
	}
	ws, g, in := d.workspaceFor(w, r)
	if ws == nil {
		return
	}
	runs, _ := ws.TestRuns()
	rep, im, err := report.ImpactOf(g, sym, depth, graph.Filter{MinConfidence: conf, Runs: runs}, in.Precise)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"workspace": in, "impact": rep})
	evidence := ""
	if q.Get("record") == "1" {
		// A person's impact (the CLI) is evidence and focus on the board,
		// as the MCP tool's is.
		if b, err := ws.Board(); err == nil {
			ev, _, _ := b.AddImpact(report.BoardImpact(g, im, rep, in.Generation))
			evidence = ev.ID
		}
	}
	// The impact view lands in .codecanvas/impact_<symbol>.png.
	go func() {
		_, file, _ := ws.SaveArtifact(g, workspace.ViewImpact, im.Target, depth, "")
		if evidence == "" {
			return
		}
		if b, err := ws.Board(); err == nil {
			if file != "" {
				b.SetImage(evidence, file)
			}
			if err := ws.SaveBoard(b); err != nil {
				d.log.Warn("board", "root", ws.Root(), "err", err)
			}
			ws.SaveArtifact(g, workspace.ViewBoard, -1, 0, "")
		}
	}()
}

func (d *Daemon) handleSymbols(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	query := q.Get("q")
	if query == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "missing q parameter", "pass q=name")
		return
	}
	limit, ok := intParam(w, q, "limit", 20, 1)
	if !ok {
		return
	}
	ws, g, in := d.workspaceFor(w, r)
	if ws == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"workspace": in, "symbols": report.Symbols(g, query, limit)})
}

func (d *Daemon) handleExport(w http.ResponseWriter, r *http.Request) {
	ws, g, _ := d.workspaceFor(w, r)
	if ws == nil {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if err := g.WriteJSON(w); err != nil {
		d.log.Warn("export write", "root", ws.Root(), "err", err)
	}
}

// maxHookEvent bounds a hook event (a Write of a large file carries its
// content twice).
const maxHookEvent = 64 << 20

// handleHook answers a hook event with the JSON the shim prints (an empty
// body: print nothing). CLAUDE_PROJECT_DIR and CLAUDE_CONFIG_DIR of the
// hook process arrive as the project_dir and config_dir query parameters.
func (d *Daemon) handleHook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHookEvent))
	if err != nil {
		writeErr(w, http.StatusRequestEntityTooLarge, "bad_request", "hook event: "+err.Error(),
			"hook events are read up to 64 MB; nothing was added to the context")
		return
	}
	q := r.URL.Query()
	env := hooks.Env{ProjectDir: absOnly(q.Get("project_dir")), ConfigDir: absOnly(q.Get("config_dir")), Agent: q.Get("agent")}
	out, err := d.hooks.Handle(r.Context(), body, env)
	if err != nil {
		writeErr(w, http.StatusBadRequest, "bad_event", err.Error(),
			"send the hook event JSON Claude Code writes on stdin; nothing was added to the context")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
}

// absOnly keeps an absolute path and drops a relative one, which would
// mean the daemon's own directory rather than the hook's (a relative
// CLAUDE_CONFIG_DIR wrote into the repository the daemon was started from).
func absOnly(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return ""
}

// handleMCP upgrades the connection (Connection: Upgrade, Upgrade: mcp)
// and runs one MCP server session on it: newline-delimited JSON-RPC both
// ways until the client closes. X-Ccd-Workspace is the session's default
// workspace (the shim's CLAUDE_PROJECT_DIR or cwd).
func (d *Daemon) handleMCP(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "mcp") {
		writeErr(w, http.StatusBadRequest, "bad_request", "GET /v1/mcp needs Connection: Upgrade and Upgrade: mcp",
			"connect with ccd-mcp, which performs the upgrade and pipes stdio")
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		writeErr(w, http.StatusInternalServerError, "internal", "upgrade: "+err.Error(), "retry; if it persists, restart the daemon with ccd stop")
		return
	}
	conn.SetDeadline(time.Time{})
	brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: mcp\r\n\r\n")
	if err := brw.Flush(); err != nil {
		conn.Close()
		return
	}
	root := r.Header.Get("X-Ccd-Workspace")
	d.mcpSessions.Add(1)
	defer d.mcpSessions.Add(-1)
	d.log.Info("mcp session", "workspace", root)
	rwc := &upgraded{Reader: brw.Reader, Conn: conn}
	err = mcp.Serve(context.Background(), mcpHost{d.reg}, rwc, root, mcp.WithVersion(wire.Version), mcp.WithLogger(d.log))
	d.log.Info("mcp session ended", "workspace", root, "err", err)
}

// upgraded reads through the buffered reader of a hijacked connection (it
// may hold bytes the client sent right after the upgrade request).
type upgraded struct {
	*bufio.Reader
	net.Conn
}

func (u *upgraded) Read(p []byte) (int, error) { return u.Reader.Read(p) }

func (d *Daemon) handleStop(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"stopping": true, "pid": os.Getpid()})
	select {
	case d.stop <- "stop requested":
	default:
	}
}

// info describes a workspace as the API does.
func info(s workspace.Snapshot) wire.WorkspaceInfo {
	in := wire.WorkspaceInfo{Root: s.Root, State: s.State, Error: s.Err, Generation: s.Generation,
		Fresh: s.Fresh, Head: s.Head, Updates: s.Updates,
		UpdateMS: float64(s.LastUpdate.Microseconds()) / 1000, Warm: s.Warm,
		Reparsed: s.Stats.Reparsed, Reused: s.Stats.Reused, Store: s.Store, Watch: s.Watch}
	if s.State == workspace.StateIndexing {
		in.Phase, in.Done, in.Total = s.Phase, s.Done, s.Total
	}
	if in.Error == "" && s.State == workspace.StateReady {
		switch s.RootStatus {
		case workspace.RootGone:
			in.Error = "the root directory is gone: this graph is of the vanished tree (not fresh)"
		case workspace.RootReplaced:
			in.Error = "the root directory was made again: indexing the new tree shortly (not fresh)"
		}
	}
	l := s.LSP
	in.LSP, in.LSPAdded, in.LSPUpgraded = l.State, l.Added, l.Upgraded
	in.LSPSpliced, in.LSPReapplied = l.Spliced, l.Reapplied
	in.LSPServers, in.LSPMissing = l.Servers, l.Missing
	in.Precise = s.Precise.Line()
	in.Tests = s.RunsLine
	if l.State == workspace.LSPRefining && l.Total > 0 {
		in.LSPProgress = fmt.Sprintf("%d/%d", l.Done, l.Total)
	}
	if res := s.Result; res != nil {
		g := res.Graph
		in.Files, in.Nodes, in.Edges = res.Summary.Parsed, len(g.Nodes), g.NumEdges()
		in.Languages = res.Summary.Languages
		in.Summary = res.Summary.String()
		for _, e := range res.SyntaxErrorFiles() {
			in.SyntaxErrors = append(in.SyntaxErrors, wire.FileError{Path: e.Path, Line: e.Line, Errors: e.Errors})
		}
		ts := res.TreeStats()
		in.Trees, in.Incremental = ts.Cached, ts.Incremental+ts.Unchanged
		in.IndexedAt = s.IndexedAt.UTC().Format(time.RFC3339)
	}
	if s.Took > 0 {
		in.IndexMS = float64(s.Took.Microseconds()) / 1000
	}
	return in
}

// memory returns the daemon's resident set size less the pages freed
// lazily (MADV_FREE: the kernel takes them back when it needs them), and
// those pages, from /proc/self/smaps_rollup, else /proc/self/statm.
func memory() (resident, lazy int64) {
	if b, err := os.ReadFile("/proc/self/smaps_rollup"); err == nil {
		if n, l, ok := smapsRSS(string(b)); ok {
			return n, l
		}
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize()), 0
}

// smapsRSS reads Rss less LazyFree, and LazyFree, in bytes, from
// smaps_rollup text.
func smapsRSS(text string) (int64, int64, bool) {
	var rss, lazy int64
	found := false
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		switch f[0] {
		case "Rss:":
			rss, found = kb<<10, true
		case "LazyFree:":
			lazy = kb << 10
		}
	}
	if !found || rss < lazy {
		return 0, 0, false
	}
	return rss - lazy, lazy, true
}

// handleRender draws a view: GET /v1/render?root=&view=architecture|impact|board
// [&symbol=][&depth=][&format=png|svg][&scale=1|2]. The PNG at scale 1 is
// also saved as the view's artifact under .codecanvas/.
func (d *Daemon) handleRender(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	view := q.Get("view")
	format := q.Get("format")
	if format == "" {
		format = "png"
	}
	if format != "png" && format != "svg" {
		writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("format=%q: want png or svg", format), "pass format=png or format=svg")
		return
	}
	scale := 1.0
	if v := q.Get("scale"); v != "" {
		s, err := strconv.ParseFloat(v, 64)
		if err != nil || s < 1 || s > 4 {
			writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("scale=%q: want 1 to 4", v), "pass scale=2 for a high-resolution PNG")
			return
		}
		scale = s
	}
	depth, ok := intParam(w, q, "depth", 3, 0)
	if !ok {
		return
	}
	switch view {
	case "architecture", "board", "impact":
	default:
		writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("view=%q: want architecture, impact or board", view),
			"pass view=architecture, view=board, or view=impact&symbol=Name")
		return
	}
	node := -1
	if view == "impact" && q.Get("symbol") == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "view=impact needs a symbol", "pass symbol=Name")
		return
	}
	ws, g, _ := d.workspaceFor(w, r)
	if ws == nil {
		return
	}
	if view == "impact" {
		var err error
		if node, _, err = report.Target(g, q.Get("symbol")); err != nil {
			fail(w, err)
			return
		}
	}
	pic, file, err := ws.Draw(g, view, node, depth, render.Options{Scale: scale})
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("X-Ccd-Artifact", filepath.Join(ws.Root(), store.Dir, file))
	if format == "svg" {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(pic.SVG())
		return
	}
	data, err := pic.PNG()
	if err != nil {
		fail(w, err)
		return
	}
	if scale == 1 {
		if err := ws.Keep(file, data, ""); err != nil {
			d.log.Warn("artifact", "root", ws.Root(), "file", file, "err", err)
		}
	}
	w.Header().Set("Content-Type", "image/png")
	w.Write(data)
}
