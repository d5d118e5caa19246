package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/daemon"
	"github.com/ccd-dev/ccd/daemon/wire"
)

func runDoctor(c *ctx, args []string) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	var ans struct {
		LSP       string                `json:"lsp"`
		Languages []wire.DoctorLanguage `json:"languages"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	where := "in-process (no daemon running)"
	if cl := running(); cl != nil {
		if err := cl.Do(ctx, http.MethodGet, "/v1/doctor", nil, &ans); err != nil {
			return err
		}
		where = "daemon"
	} else {
		ans.LSP, ans.Languages = "auto", daemon.Doctor(ctx, nil)
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ans)
	}
	fmt.Fprintf(c.stdout, "ccd %s doctor (%s; language servers: %s)\n", wire.Version, where, ans.LSP)
	fmt.Fprintf(c.stdout, "%-12s %-8s %-8s %-28s %s\n", "LANGUAGE", "GRAMMAR", "SCHEMA", "SERVER", "STATE")
	for _, l := range ans.Languages {
		gram := "no"
		if l.Grammar {
			gram = "yes"
		}
		srv := "-"
		state := ""
		switch {
		case l.Server == "":
		case l.Found:
			srv = l.Server
			if l.Version != "" {
				srv += " " + l.Version
			}
			state = "found " + l.Path
		default:
			srv = l.Server
			state = "not found"
			if l.Problem != "" {
				state += ": " + l.Problem
			}
		}
		for _, s := range l.Sessions {
			state += fmt.Sprintf("; session %s for %s (pid %d, %.0f MB, %d requests, %d failures", s.State, s.Root, s.PID, float64(s.RSSBytes)/(1<<20), s.Requests, s.Failures)
			if s.LastError != "" {
				state += ", last error: " + s.LastError
			}
			state += ")"
		}
		fmt.Fprintf(c.stdout, "%-12s %-8s %-8s %-28s %s\n", l.Language, gram, l.Schema, clipStr(srv, 28), strings.TrimPrefix(state, "; "))
	}
	return nil
}

func clipStr(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// refineExport applies language-server refinement to an in-process index
// (ccd export --lsp=auto) and reports what it did on stderr.
func refineExport(c *ctx, res *index.Result, quiet bool) (*graph.Graph, error) {
	specs, err := daemon.ServerTable()
	if err != nil {
		return nil, err
	}
	m := lsp.NewManager(lsp.Options{Servers: specs})
	defer m.Close()
	ref, err := lsp.Refine(context.Background(), m, res.Root, res.Graph, res.Files, lsp.RefineOptions{})
	if err != nil {
		return nil, err
	}
	if !quiet {
		st := ref.Stats
		var srv []string
		for l, s := range st.Servers {
			srv = append(srv, l+": "+s)
		}
		fmt.Fprintf(c.stderr, "lsp: asked %d call sites, %d answered, %d edges added, %d confirmed, %d removed as wrong, in %s (%s)\n",
			st.Asked, st.Answered, st.Added, st.Upgraded, st.Stale, st.Duration.Round(time.Millisecond), strings.Join(srv, "; "))
	}
	return lsp.Apply(res.Graph, ref), nil
}
