// Command ccd-mutation measures ccd's affected tests against a mutation
// oracle (see package mutation): it scores ccd against the cached truth in
// testdata/mutation/ and writes MUTATION.md; with --refresh it first
// recomputes the truth (slow: every mutant runs the corpus's test suite).
//
//	ccd-mutation [--refresh] [--corpus NAME,...] [--out FILE] [--limit N] [--work DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/internal/mutation"
)

func main() {
	fs := flag.NewFlagSet("ccd-mutation", flag.ContinueOnError)
	refresh := fs.Bool("refresh", false, "recompute the truth files (runs every mutant; tens of minutes)")
	only := fs.String("corpus", "", "comma-separated corpora (default: all: "+names()+")")
	out := fs.String("out", "MUTATION.md", "where to write the report, relative to the repository (- for stdout)")
	limit := fs.Int("limit", 0, "with --refresh: mutate at most N functions per corpus (to try the harness; truth files written to --truth)")
	work := fs.String("work", "", "with --refresh: scratch directory to keep (default: a temporary one)")
	truthDir := fs.String("truth", "", "directory of the truth files and recordings (default: testdata/mutation in the repository)")
	record := fs.Bool("record", false, "record the corpora's tests again (which tests run which functions, as `ccd tests record` does; minutes) before scoring")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "ccd-mutation: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		os.Exit(2)
	}
	if err := run(*refresh, *record, *only, *out, *limit, *work, *truthDir); err != nil {
		fmt.Fprintf(os.Stderr, "ccd-mutation: %v\n", err)
		os.Exit(1)
	}
}

func names() string {
	var n []string
	for _, c := range mutation.Corpora {
		n = append(n, c.Name)
	}
	return strings.Join(n, ",")
}

func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run from inside the ccd module")
	}
	return filepath.Dir(mod), nil
}

func run(refresh, record bool, only, out string, limit int, work, truthDir string) error {
	ctx := context.Background()
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	if truthDir == "" {
		truthDir = filepath.Join(repo, "testdata", "mutation")
	}
	corpora := mutation.Corpora
	if only != "" {
		corpora = nil
		for _, n := range strings.Split(only, ",") {
			c, ok := mutation.Lookup(strings.TrimSpace(n))
			if !ok {
				return fmt.Errorf("unknown corpus %q (have %s)", n, names())
			}
			corpora = append(corpora, c)
		}
	}
	if refresh {
		for _, c := range corpora {
			opt := mutation.Options{Log: os.Stderr, Limit: limit}
			if work != "" {
				opt.Work = filepath.Join(work, c.Name)
				if err := os.RemoveAll(opt.Work); err != nil {
					return err
				}
			}
			t0 := time.Now()
			tr, err := mutation.Refresh(ctx, c, opt)
			if err != nil {
				return err
			}
			path := filepath.Join(truthDir, c.Name+".json")
			if err := tr.Save(path); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s: %d mutants in %s -> %s\n", c.Name, len(tr.Mutants), time.Since(t0).Round(time.Second), path)
		}
	}
	t0 := time.Now()
	var results []*mutation.Result
	for _, c := range corpora {
		tr, err := mutation.LoadTruth(filepath.Join(truthDir, c.Name+".json"))
		if err != nil {
			return fmt.Errorf("%v (run with --refresh to compute it)", err)
		}
		r, err := mutation.Score(ctx, c, tr, mutation.ScoreOptions{Recordings: truthDir, Record: record})
		if err != nil {
			return err
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%s: scored %d mutants in %s\n", c.Name, len(tr.Mutants), r.Elapsed.Round(time.Millisecond))
	}
	md := mutation.Markdown(results, mutation.ReportInfo{
		Command: "just mutation", Scoring: time.Since(t0),
	})
	if out == "-" {
		_, err := os.Stdout.WriteString(md)
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(repo, out)
	}
	return os.WriteFile(out, []byte(md), 0o644)
}
