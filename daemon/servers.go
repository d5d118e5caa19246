package daemon

// Language servers: the daemon's one manager (shared by every
// workspace), the table of servers it may start, and the periodic look
// for servers installed since a workspace's refinement missed them.

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// lspMode is "auto" when language servers may run, else "off".
func lspMode(k config.Daemon) string {
	if !k.LSP {
		return workspace.LSPOff
	}
	return "auto"
}

// newLSPManager returns the daemon's language-server manager, nil when
// CCD_LSP=off.
func newLSPManager(k config.Daemon, logf func(string, ...any), warn func(error)) *lsp.Manager {
	if !k.LSP {
		return nil
	}
	specs, err := ServerTable(k.LSPServers)
	if err != nil {
		warn(err)
	}
	return lsp.NewManager(lsp.Options{Servers: specs, Logf: logf})
}

// serverFile is the format of the user's language-server table.
type serverFile struct {
	Servers []struct {
		Language     string                     `json:"language"`
		Name         string                     `json:"name"`
		Command      []string                   `json:"command"`
		Extensions   []string                   `json:"extensions"`
		InitOptions  json.RawMessage            `json:"init_options"`
		Settings     map[string]json.RawMessage `json:"settings"`
		LanguageIDs  map[string]string          `json:"language_ids"`
		VersionArgs  []string                   `json:"version_args"`
		VersionMatch string                     `json:"version_match"`
		Env          []string                   `json:"env"`
	} `json:"servers"`
}

// serverTablePath is the user's language-server table as the environment
// names it (config.Daemon.LSPServers).
func serverTablePath() string {
	k, _ := config.LoadDaemon()
	return k.LSPServers
}

// ServerTable returns the language servers ccd may start: the entries of
// the user's table at path (config.Daemon.LSPServers: $CCD_LSP_SERVERS,
// else ~/.config/ccd/servers.json when it exists; "" for none) ahead of
// the built-in table, so a user entry for a language wins and a new
// language needs no code:
//
//	{"servers": [{"language": "zig", "command": ["zls"], "extensions": [".zig"]}]}
func ServerTable(path string) ([]lsp.ServerSpec, error) {
	specs := lsp.DefaultServers()
	if path == "" {
		return specs, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return specs, fmt.Errorf("language-server table %s: %w", path, err)
	}
	var f serverFile
	if err := json.Unmarshal(data, &f); err != nil {
		return specs, fmt.Errorf("language-server table %s: %w (want {\"servers\": [{\"language\", \"command\", \"extensions\"}]})", path, err)
	}
	var user []lsp.ServerSpec
	for i, s := range f.Servers {
		spec := lsp.ServerSpec{Language: s.Language, Name: s.Name, Command: s.Command, Extensions: s.Extensions,
			InitOptions: s.InitOptions, Settings: s.Settings, LanguageIDs: s.LanguageIDs, VersionArgs: s.VersionArgs,
			VersionMatch: s.VersionMatch, Env: s.Env}
		if err := spec.Validate(); err != nil {
			return specs, fmt.Errorf("language-server table %s: entry %d: %w", path, i+1, err)
		}
		user = append(user, spec)
	}
	return append(user, specs...), nil
}

// lspRescanEvery is how often the daemon looks again for the servers a
// workspace's refinement missed.
var lspRescanEvery = 30 * time.Second

// watchServers looks for missing language servers every lspRescanEvery
// until stop is closed, and refines again the workspaces one appeared for.
func (r *registry) watchServers(stop <-chan struct{}) {
	every(lspRescanEvery, stop, func() { r.checkServers(false) })
}

// checkServers starts a full refinement of every workspace whose
// refinement is done but missed a server that is installed now. With
// rescan, "not found" answers cached by the manager are dropped first
// (doctor, status: a person who just installed one asks at once).
func (r *registry) checkServers(rescan bool) {
	if r.lspm == nil {
		return
	}
	if rescan {
		r.lspm.Rescan()
	}
	for _, w := range r.list() {
		w.CheckServers()
	}
}
