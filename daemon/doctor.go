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
// schema and the language server (found, version, sessions). m may be nil
// (no daemon, or CCD_LSP=off): servers are then only detected.
func Doctor(ctx context.Context, m *lsp.Manager) []wire.DoctorLanguage {
	reg, _ := parse.Default()
	var dets []lsp.Detection
	if m != nil {
		dets = m.Detect(ctx)
	} else {
		specs, _ := ServerTable()
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
		row := wire.DoctorLanguage{Language: l.Name, Extensions: l.Extensions, Schema: "none", Sessions: sessions[l.Name]}
		if reg != nil {
			row.Grammar = reg.Supports(l.Name)
			switch reg.Tier(l.Name) {
			case 1:
				row.Schema = "full"
			case 2:
				row.Schema = "generic"
			}
		}
		if d, ok := byLang[l.Name]; ok {
			row.Server, row.Found, row.Path, row.Version, row.Problem = d.Name, d.Found, d.Path, d.Version, d.Problem
		}
		out = append(out, row)
	}
	return out
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
	writeJSON(w, http.StatusOK, map[string]any{"lsp": lspMode(), "languages": Doctor(ctx, d.reg.lspm)})
}
