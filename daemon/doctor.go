package daemon

import (
	"context"
	"net/http"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/parse"
	"github.com/ccd-dev/ccd/daemon/wire"
)

// Doctor reports, per language of the config table, the grammar, the
// schema and the language server that serves its files (found, version,
// sessions). m may be nil (no daemon, or CCD_LSP=off): servers are then
// only detected. files counts a workspace's files per language; nil means
// no workspace is known (Files -1).
func Doctor(ctx context.Context, m *lsp.Manager, files map[string]int) []wire.DoctorLanguage {
	reg, _ := parse.Default()
	var dets []lsp.Detection
	var specs []lsp.ServerSpec
	if m != nil {
		dets, specs = m.Detect(ctx), m.Options().Servers
	} else {
		specs, _ = ServerTable(serverTablePath())
		dets = lsp.Detect(ctx, specs, lsp.DefaultSearchPath())
	}
	byLang := map[string]lsp.Detection{}
	for _, d := range dets {
		byLang[d.Language] = d
	}
	sessions := map[string][]wire.LSPSession{}
	for _, s := range lspSessions(m) {
		sessions[s.Language] = append(sessions[s.Language], s)
	}
	var out []wire.DoctorLanguage
	for _, l := range config.Languages {
		row := wire.DoctorLanguage{Language: l.Name, Extensions: l.Extensions, Schema: "none", Files: -1}
		if files != nil {
			row.Files = files[l.Name]
		}
		if reg != nil {
			row.Grammar = reg.Supports(l.Name)
			switch reg.Tier(l.Name) {
			case 1:
				row.Schema = "full"
			case 2:
				row.Schema = "generic"
			}
		}
		// The server is the one serving the language's files (TypeScript's
		// serves JavaScript too, clangd C and C++).
		if srv := serverLanguage(specs, l); srv != "" {
			if d, ok := byLang[srv]; ok {
				row.Server, row.Found, row.Path, row.Version, row.Problem = d.Name, d.Found, d.Path, d.Version, d.Problem
			}
			row.Sessions = sessions[srv]
		}
		out = append(out, row)
	}
	return out
}

// serverLanguage is the Language of the first server spec serving one of
// l's extensions, or "".
func serverLanguage(specs []lsp.ServerSpec, l config.Language) string {
	for _, s := range specs {
		for _, e := range l.Extensions {
			if s.Serves("x" + e) {
				return s.Language
			}
		}
	}
	return ""
}

// searchPath is where the daemon looks for language servers before PATH.
func (r *registry) searchPath() []string {
	if r.lspm == nil {
		return lsp.DefaultSearchPath()
	}
	return r.lspm.Options().SearchPath
}

// lspSessions lists the manager's sessions for status and doctor.
func lspSessions(m *lsp.Manager) []wire.LSPSession {
	if m == nil {
		return nil
	}
	var out []wire.LSPSession
	for _, s := range m.Status() {
		out = append(out, wire.LSPSession{Language: s.Language, Server: s.Server, Root: s.Root, State: s.State.String(),
			Version: s.Version, PID: s.Pid, RSSBytes: s.RSS, Requests: s.Requests, Failures: s.Failures,
			Restarts: s.Restarts, LastError: s.LastError})
	}
	return out
}

func (d *Daemon) handleDoctor(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	d.reg.checkServers(true)
	var files map[string]int
	if root := r.URL.Query().Get("root"); root != "" {
		if ws := d.reg.find(root); ws != nil {
			if res, _ := ws.Result(); res != nil {
				files = res.Summary.Languages
			}
			if files == nil {
				files = map[string]int{}
			}
			writeJSON(w, http.StatusOK, map[string]any{"lsp": lspMode(d.reg.knobs), "workspace": ws.Root(), "languages": Doctor(ctx, d.reg.lspm, files),
				"search_path": d.reg.searchPath()})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"lsp": lspMode(d.reg.knobs), "languages": Doctor(ctx, d.reg.lspm, nil), "search_path": d.reg.searchPath()})
}
