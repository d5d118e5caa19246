// Command ccd-oracle scores ccd's call edges against independent call
// graphs (see package oracle) and writes ORACLE.md. `just oracle` runs it
// after scripts/install-oracle.sh; `just oracle-quick` with --quick.
//
//	ccd-oracle [--quick] [--ccd bin/ccd] [--tools .tools/oracle] [--work bin/oracle] [--out ORACLE.md] [--only NAME,...]
//	ccd-oracle score [--lang go|python|javascript] [--root DIR] CCD.json ORACLE.json
//	ccd-oracle micro [--ccd bin/ccd] [--dir testdata/micro] [--out MICRO.md] [--only LANG|LANG/CATEGORY,...]
//
// The second form scores one pair of files already made and prints the
// result as JSON (for working on one package by hand). The third runs the
// micro-benchmark (`just micro`): small programs whose truth is recorded
// by running them; it writes MICRO.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/internal/oracle"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "micro" {
		if err := micro(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ccd-oracle micro:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "score" {
		if err := score(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "ccd-oracle score:", err)
			os.Exit(1)
		}
		return
	}
	fs := flag.NewFlagSet("ccd-oracle", flag.ContinueOnError)
	quick := fs.Bool("quick", false, "one small package per language")
	ccd := fs.String("ccd", "bin/ccd", "the ccd binary")
	tools := fs.String("tools", ".tools/oracle", "where scripts/install-oracle.sh installed the oracles")
	work := fs.String("work", "bin/oracle", "corpora, ccd's state and per-package JSON")
	out := fs.String("out", "", "the Markdown report (default ORACLE.md, with --quick bin/oracle/ORACLE-quick.md; - for stdout)")
	only := fs.String("only", "", "comma-separated package names or languages to measure")
	command := fs.String("command", "", "the command named in the report (default: just oracle / just oracle-quick)")
	precise := fs.String("scip", "", "instead, measure ccd without and with each package's precise SCIP index, made by the indexers in this directory (.tools/scip/bin, from scripts/install-scip.sh), against the oracles' output of the last run (made first where missing); writes SCIP.md")
	commit := fs.String("commit", "", "ccd's commit for the report (default: git rev-parse HEAD, with -dirty when core, daemon, schemas or config have uncommitted changes)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	repo, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	abs := func(p string) string { return inRepo(repo, p) }
	cfg := oracle.Config{
		Repo:  repo,
		CCD:   abs(*ccd),
		Tools: abs(*tools),
		Out:   abs(*work),
		Quick: *quick,
		Log:   func(f string, a ...any) { fmt.Fprintf(os.Stderr, "oracle: "+f+"\n", a...) },
	}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	if *precise != "" {
		rs, err := oracle.RunPrecise(cfg, abs(*precise))
		if err != nil {
			fatal(err)
		}
		label := *commit
		if label == "" {
			if c, err := exec.Command("git", "-C", repo, "rev-parse", "--short=12", "HEAD").Output(); err == nil {
				label = strings.TrimSpace(string(c))
			}
		}
		md := oracle.PreciseMarkdown(rs, label, "just oracle-scip")
		if err := os.WriteFile(abs("SCIP.md"), []byte(md), 0o644); err != nil {
			fatal(err)
		}
		fmt.Fprintf(os.Stderr, "oracle: wrote SCIP.md\n")
		return
	}
	rep, err := oracle.Run(cfg)
	if err != nil {
		fatal(err)
	}
	rep.Command = *command
	if rep.Command == "" {
		rep.Command = "just oracle"
		if *quick {
			rep.Command = "just oracle-quick"
		}
	}
	rep.Commit = *commit
	if rep.Commit == "" {
		rep.Commit = commitLabel(repo)
	}
	md := rep.Markdown()
	dest := *out
	if dest == "" {
		dest = "ORACLE.md"
		if *quick {
			dest = filepath.Join(*work, "ORACLE-quick.md")
		}
	}
	if dest == "-" {
		fmt.Print(md)
		return
	}
	if err := os.WriteFile(abs(dest), []byte(md), 0o644); err != nil {
		fatal(err)
	}
	fmt.Fprint(os.Stderr, "\n"+rep.SummaryTable())
	fmt.Fprintf(os.Stderr, "\noracle: wrote %s (%s)\n", dest, rep.Elapsed.Round(1e9))
}

func score(args []string) error {
	fs := flag.NewFlagSet("ccd-oracle score", flag.ContinueOnError)
	lang := fs.String("lang", "", "the package's language (go, python, javascript): the options the harness uses for it")
	root := fs.String("root", "", "the package's directory, to quote source lines")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("want CCD.json ORACLE.json")
	}
	g, err := oracle.ReadGraph(fs.Arg(0))
	if err != nil {
		return err
	}
	o, err := oracle.ReadOracle(fs.Arg(1))
	if err != nil {
		return err
	}
	opt := oracle.OptionsFor(*lang)
	if *root != "" {
		opt.Source = oracle.SourceReader(*root)
	}
	r := oracle.Score(g, o, opt)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(r)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "ccd-oracle:", err)
	os.Exit(1)
}

func micro(args []string) error {
	fs := flag.NewFlagSet("ccd-oracle micro", flag.ContinueOnError)
	ccd := fs.String("ccd", "bin/ccd", "the ccd binary")
	tools := fs.String("tools", ".tools/oracle", "where scripts/install-oracle.sh installed TypeScript")
	dir := fs.String("dir", "testdata/micro", "the programs")
	work := fs.String("work", "bin/micro", "scratch: ccd's state and per-program JSON")
	out := fs.String("out", "MICRO.md", "the Markdown report (- for stdout)")
	only := fs.String("only", "", "comma-separated languages or LANG/CATEGORY prefixes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	abs := func(p string) string { return inRepo(repo, p) }
	cfg := oracle.MicroConfig{Repo: repo, CCD: abs(*ccd), Tools: abs(*tools), Dir: abs(*dir), Work: abs(*work),
		Jobs: runtime.NumCPU()}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	t0 := time.Now()
	rs, err := oracle.RunMicro(cfg)
	if err != nil {
		return err
	}
	md := oracle.MicroMarkdown(rs, commitLabel(repo), "just micro", time.Since(t0))
	for _, l := range []string{"python", "javascript"} {
		c := oracle.MicroTotals(rs, l)
		if c.Oracle > 0 {
			fmt.Fprintf(os.Stderr, "micro: %-22s P %.3f  R %.3f  F1 %.3f  (%d ccd sites, %d runtime sites)\n",
				oracle.LangName(l), c.Precision(), c.Recall(), c.F1(), c.CCD, c.Oracle)
		}
	}
	if *out == "-" {
		fmt.Print(md)
		return nil
	}
	return os.WriteFile(abs(*out), []byte(md), 0o644)
}

// inRepo makes a path given relative to the repository absolute.
func inRepo(repo, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(repo, p)
}

// commitLabel is ccd's commit for a report: git rev-parse HEAD, with
// -dirty when core, daemon, schemas, config or go.mod have uncommitted
// changes ("" outside a repository).
func commitLabel(repo string) string {
	c, err := exec.Command("git", "-C", repo, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	label := strings.TrimSpace(string(c))
	st, err := exec.Command("git", "-C", repo, "status", "--porcelain", "--", "core", "daemon", "schemas", "config", "go.mod").Output()
	if err == nil && len(strings.TrimSpace(string(st))) > 0 {
		label += "-dirty"
	}
	return label
}
