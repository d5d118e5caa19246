package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/report"
)

func runImpact(c *ctx, args []string) error {
	fs := flag.NewFlagSet("impact", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	depth := fs.Int("depth", 3, "hops of transitive callers to follow (0: unlimited)")
	minConf := fs.String("min-confidence", "name-match", "drop weaker edges: name-match, inferred, resolved, lsp")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one symbol"}
	}
	conf, err := graph.ParseConfidence(*minConf)
	if err != nil {
		return usageError{err.Error()}
	}
	if *depth < 0 {
		return usageError{"--depth must be 0 (unlimited) or more"}
	}
	r, err := sourceFor(c).impact(*root, pos[0], *depth, conf)
	if err != nil {
		return err
	}
	return printImpact(c.stdout, r, *asJSON)
}

func printImpact(w io.Writer, r *report.Impact, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(r)
	}
	r.WriteText(w)
	return nil
}

func runSymbols(c *ctx, args []string) error {
	fs := flag.NewFlagSet("symbols", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	limit := fs.Int("limit", 20, "most results to print")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one query"}
	}
	if *limit < 1 {
		return usageError{"--limit must be at least 1"}
	}
	syms, err := sourceFor(c).symbols(*root, pos[0], *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(syms)
	}
	if len(syms) == 0 {
		return fmt.Errorf("no symbol resembles %q", pos[0])
	}
	report.WriteSymbols(c.stdout, syms)
	return nil
}
