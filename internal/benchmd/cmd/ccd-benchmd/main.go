// Command ccd-benchmd measures ccd against its floors and writes
// BENCHMARKS.md (see package benchmd). `just bench` runs it in full mode,
// `just bench-quick` in quick mode for CI.
//
//	ccd-benchmd [--quick] [--bin DIR] [--out FILE] [--runs N] [--hooks N] [--queries N] [--edits N] [--corpus NAME=DIR]...
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/internal/benchmd"
)

type corpusFlags []benchmd.Corpus

func (c *corpusFlags) String() string { return fmt.Sprint(*c) }

func (c *corpusFlags) Set(v string) error {
	name, dir, ok := strings.Cut(v, "=")
	if !ok || name == "" || dir == "" {
		return fmt.Errorf("want NAME=DIR, got %q", v)
	}
	*c = append(*c, benchmd.Corpus{Name: name, Dir: dir})
	return nil
}

func main() {
	var cfg benchmd.Config
	var corpora corpusFlags
	fs := flag.NewFlagSet("ccd-benchmd", flag.ContinueOnError)
	fs.BoolVar(&cfg.Quick, "quick", false, "CI mode: GOROOT/src/net/http and the stdlib's email package, fewer repetitions")
	fs.StringVar(&cfg.Bin, "bin", "", "directory with ccd and ccd-hook (default: build them into a temp dir)")
	out := fs.String("out", "BENCHMARKS.md", "where to write the report (- for stdout)")
	fs.IntVar(&cfg.Runs, "runs", 0, "cold-index runs per phase and warm starts (default 3)")
	fs.IntVar(&cfg.HookIters, "hooks", 0, "calls per hook case (default 100, quick 20)")
	fs.IntVar(&cfg.QueryIters, "queries", 0, "calls per query (default 30, quick 10)")
	fs.IntVar(&cfg.EditIters, "edits", 0, "one-file edits (default 20, quick 5)")
	fs.IntVar(&cfg.SettleS, "settle", 0, "seconds of quiet before reading RSS at rest (default 5, quick 2)")
	gobench := fs.String("gobench", "auto", "run the core/parse and core/lsp Go benchmarks too: yes, no, or auto (yes unless --quick)")
	fs.StringVar(&cfg.Commit, "commit", os.Getenv("CCD_BENCH_COMMIT"), "the source's commit for the report (default: $CCD_BENCH_COMMIT, else git rev-parse in the module)")
	fs.Var(&corpora, "corpus", "NAME=DIR to measure instead of the defaults (repeatable)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "ccd-benchmd: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		os.Exit(2)
	}
	if err := run(&cfg, corpora, *out, *gobench); err != nil {
		fmt.Fprintf(os.Stderr, "ccd-benchmd: %v\n", err)
		os.Exit(1)
	}
}

func run(cfg *benchmd.Config, corpora []benchmd.Corpus, out, gobench string) error {
	src, err := moduleRoot()
	if err != nil {
		return err
	}
	cfg.Src = src
	switch gobench {
	case "yes":
		cfg.GoBench = true
	case "no":
	case "auto":
		cfg.GoBench = !cfg.Quick
	default:
		return fmt.Errorf("--gobench must be yes, no or auto, not %q", gobench)
	}
	if cfg.Bin != "" {
		if cfg.Bin, err = filepath.Abs(cfg.Bin); err != nil {
			return err
		}
	}
	if len(corpora) == 0 {
		if corpora, err = benchmd.DefaultCorpora(cfg.Quick); err != nil {
			return err
		}
	}
	cfg.Corpora = corpora
	cfg.Command = commandLine()
	cfg.Log = os.Stderr
	rep, err := benchmd.Run(*cfg)
	if err != nil {
		return err
	}
	md := rep.Markdown()
	if out == "-" {
		_, err = os.Stdout.WriteString(md)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", out)
	return nil
}

// commandLine is how this run was started: the recipe when run by just
// (CCD_BENCH_COMMAND), and the harness command line either way.
func commandLine() string {
	args := []string{"go run ./internal/benchmd/cmd/ccd-benchmd"}
	for _, a := range os.Args[1:] {
		if strings.ContainsAny(a, " \t'\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		args = append(args, a)
	}
	line := strings.Join(args, " ")
	if rec := os.Getenv("CCD_BENCH_COMMAND"); rec != "" {
		return rec + "    # runs: " + line
	}
	return line
}

// moduleRoot finds the directory holding go.mod from the working dir up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s: run ccd-benchmd from the ccd repository", dir)
		}
	}
}
