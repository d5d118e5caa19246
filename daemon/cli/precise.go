package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ccd-dev/ccd/daemon/workspace"
)

// Precise index modes of `ccd export --scip`: the configuration's index
// (DIR/index.scip by default) when there is one, none, or else a file.
const (
	preciseAuto = "auto"
	preciseOff  = "off"
)

// checkPrecise says on w what a one-shot workspace's import of its precise
// SCIP index did (Workspace.Refine, which imports it): an index found but
// not used, with why (ccd's own export only when verbose), and, when
// verbose, everything a used one did. An index named explicitly (mode a
// file) that is missing or not used is an error.
func checkPrecise(w io.Writer, ws *workspace.Workspace, mode string, verbose bool) error {
	explicit := mode != preciseAuto && mode != preciseOff
	if explicit {
		if _, err := os.Stat(ws.PreciseFile()); err != nil {
			return fmt.Errorf("scip index: %w", err)
		}
	}
	info := ws.Snapshot().Precise
	file, why, own := info.Unused()
	switch {
	case why != "" && explicit:
		return errors.New(why) // the import's own error names the file
	case why != "" && (verbose || !own):
		fmt.Fprintf(w, "scip: %s not used: %s (make it again with the indexer, or pass --scip=off)\n", file, why)
	case why == "" && verbose:
		if d := info.Detail(); d != "" {
			fmt.Fprintln(w, "scip: "+d)
		}
	}
	return nil
}
