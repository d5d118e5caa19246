package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/daemon"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

func runDoctor(c *ctx, args []string) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	root := fs.String("root", ".", "a directory of the workspace to check (its languages come first)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	ans, err := sourceFor(c).doctor(*root)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ans)
	}
	writeDoctor(c.stdout, ans.where, ans.LSP, ans.Workspace, ans.SearchPath, ans.Languages)
	return nil
}

// writeDoctor prints the doctor's table: the workspace's languages first
// (with their file counts), then the rest; the problems of the
// workspace's languages in full below it (of every language with a
// server when no workspace is known), and once how to install servers.
func writeDoctor(w io.Writer, where, mode, workspace string, searchPath []string, langs []wire.DoctorLanguage) {
	fmt.Fprintf(w, "ccd %s doctor (%s; language servers: %s)\n", wire.Version, where, mode)
	if workspace != "" {
		fmt.Fprintf(w, "workspace %s\n", workspace)
	}
	rows := append([]wire.DoctorLanguage(nil), langs...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Files > 0 && rows[j].Files <= 0 })
	table := [][]string{{"LANGUAGE", "FILES", "GRAMMAR", "SCHEMA", "SERVER", "STATE"}}
	var problems []string
	missing := false
	for _, l := range rows {
		files := "-"
		if l.Files > 0 {
			files = fmt.Sprint(l.Files)
		}
		gram := "no"
		if l.Grammar {
			gram = "yes"
		}
		srv, state := "-", ""
		switch {
		case l.Server == "":
		case l.Found:
			srv = l.Server
			if v := shortVersion(l.Version); v != "" {
				srv += " " + v
			}
			state = "found " + l.Path
		default:
			srv, state = l.Server, "not found"
			if workspace == "" || l.Files > 0 {
				problems = append(problems, fmt.Sprintf("  %s: %s", l.Language, l.Problem))
				missing = true
			}
		}
		for _, s := range l.Sessions {
			state += fmt.Sprintf("; session %s for %s (pid %d, %.0f MB, %d requests, %d failures", s.State, s.Root, s.PID, float64(s.RSSBytes)/(1<<20), s.Requests, s.Failures)
			if s.LastError != "" {
				state += ", last error: " + s.LastError
			}
			state += ")"
		}
		table = append(table, []string{l.Language, files, gram, l.Schema, srv, strings.TrimPrefix(state, "; ")})
	}
	writeColumns(w, table)
	if len(problems) > 0 {
		if workspace != "" {
			fmt.Fprintf(w, "\nServers this workspace's languages need:\n")
		} else {
			fmt.Fprintf(w, "\nServers not found:\n")
		}
		// A language whose server serves several (typescript, javascript)
		// says the same thing once.
		seen := map[string]bool{}
		for _, p := range problems {
			msg := p[strings.Index(p, ": ")+2:]
			if !seen[msg] {
				seen[msg] = true
				fmt.Fprintln(w, p)
			}
		}
	}
	if missing {
		fmt.Fprintf(w, "\nccd looks in %s, then PATH; the daemon looks again every 30 s.\n%s.\n", orNone(searchPath), lsp.InstallHint)
	}
}

// writeColumns prints rows as left-aligned columns two spaces apart; the
// last column is not padded.
func writeColumns(w io.Writer, rows [][]string) {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", width[i]-len([]rune(c))+2))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// shortVersion picks the version number out of a server's version line
// ("golang.org/x/tools/gopls v0.23.0" → "v0.23.0", "Version 7.0.2" →
// "7.0.2"), or returns the line.
func shortVersion(line string) string {
	for _, f := range strings.Fields(line) {
		v := strings.TrimPrefix(f, "v")
		if v != "" && v[0] >= '0' && v[0] <= '9' && strings.Contains(v, ".") {
			return f
		}
	}
	return line
}

func orNone(dirs []string) string {
	if len(dirs) == 0 {
		return "no extra directory ($CCD_LSP_PATH is empty)"
	}
	return strings.Join(dirs, ", ")
}

// exportServers is the language-server manager of `ccd export
// --lsp=auto`: the servers of the user's table, for one in-process
// workspace; the caller closes it.
func exportServers() (*lsp.Manager, error) {
	knobs, _ := config.LoadDaemon()
	specs, err := daemon.ServerTable(knobs.LSPServers)
	if err != nil {
		return nil, err
	}
	return lsp.NewManager(lsp.Options{Servers: specs}), nil
}

// reportLSP says on w what a workspace's refinement by the language
// servers did (ccd export --lsp=auto), or returns why it failed.
func reportLSP(w io.Writer, l workspace.LSPSummary, quiet bool) error {
	if l.State == workspace.LSPFailed {
		return fmt.Errorf("lsp refine: %s", l.Err)
	}
	if !quiet {
		st := l.Stats
		var srv []string
		for l, s := range st.Servers {
			srv = append(srv, l+": "+s)
		}
		fmt.Fprintf(w, "lsp: asked %d call sites, %d answered, %d edges added, %d confirmed, %d removed as wrong, in %s (%s)\n",
			st.Asked, st.Answered, st.Added, st.Upgraded, st.Stale, st.Duration.Round(time.Millisecond), strings.Join(srv, "; "))
	}
	return nil
}
