package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/scip"
)

// importPrecise applies the workspace's precise SCIP index to its graph:
// mode "off", "auto" (DIR/index.scip when there is one) or a file. It
// returns the graph and the line naming the index, its tool and age (""
// when none was applied).
func importPrecise(c *ctx, res *index.Result, mode string, quiet bool) (*graph.Graph, string, error) {
	if mode == "off" {
		return res.Graph, "", nil
	}
	file := mode
	if mode == "auto" {
		cfg, err := config.Load()
		if err != nil {
			return nil, "", err
		}
		if cfg.SCIPIndex == "" {
			return res.Graph, "", nil
		}
		file = cfg.SCIPIndex
		if !filepath.IsAbs(file) {
			file = filepath.Join(res.Root, filepath.FromSlash(file))
		}
		if _, err := os.Stat(file); err != nil {
			return res.Graph, "", nil
		}
	}
	p, err := scip.Load(res.Root, file)
	if err != nil && mode == "auto" {
		// An index found, not asked for: one that cannot be used (ccd's
		// own, damaged, half written) leaves the tree-sitter graph.
		if !quiet || !errors.Is(err, scip.ErrOwnIndex) {
			fmt.Fprintf(c.stderr, "scip: %s not used: %v (make it again with the indexer, or pass --scip=off)\n", file, err)
		}
		return res.Graph, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	ref, st := scip.Import(res.Root, res.Graph, res.Files, p.Index, scip.ImportOptions{Changed: scip.ChangedSince(res.Root, p.Made)})
	if !quiet {
		fmt.Fprintf(c.stderr, "scip: %s (%s, made %s ago): %d of %d documents used (%d changed since); %d of %d sites found: %d confirmed, %d redirected, %d added, %d external, %d local values; %d edges, %d dropped; %s\n",
			p.File, st.Tool, time.Since(p.Made).Round(time.Second), st.Used, st.Documents, st.Changed, st.Found, st.Sites,
			st.Confirmed, st.Redirected, st.Added, st.External, st.Local, len(ref.Edges), len(ref.Stale), st.Duration.Round(time.Millisecond))
	}
	return lsp.Apply(res.Graph, ref), scip.Summary(p.File, p.Made, st), nil
}
