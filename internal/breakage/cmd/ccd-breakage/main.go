// Command ccd-breakage measures the edit card's "will break" verdicts
// against the compilers (see package breakage): it scores ccd against the
// cached truth in testdata/breakage/ and writes BREAKAGE.md; with
// --refresh it first recomputes the truth (every mutation is type-checked;
// tens of minutes).
//
//	ccd-breakage [--refresh] [--corpus NAME,...] [--out FILE] [--limit N] [--work DIR] [--truth DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/internal/breakage"
)

func main() {
	fs := flag.NewFlagSet("ccd-breakage", flag.ContinueOnError)
	refresh := fs.Bool("refresh", false, "recompute the truth files (type-checks every mutation; tens of minutes)")
	only := fs.String("corpus", "", "comma-separated corpora (default: all: "+names()+")")
	out := fs.String("out", "BREAKAGE.md", "where to write the report, relative to the repository (- for stdout)")
	limit := fs.Int("limit", 0, "with --refresh: mutate at most N functions per corpus")
	work := fs.String("work", "", "scratch directory to keep (default: a temporary one)")
	truthDir := fs.String("truth", "", "directory of the truth files (default: testdata/breakage in the repository)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "ccd-breakage: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		os.Exit(2)
	}
	if err := run(*refresh, *only, *out, *limit, *work, *truthDir); err != nil {
		fmt.Fprintf(os.Stderr, "ccd-breakage: %v\n", err)
		os.Exit(1)
	}
}

func names() string {
	var n []string
	for _, c := range breakage.Corpora {
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

func run(refresh bool, only, out string, limit int, work, truthDir string) error {
	ctx := context.Background()
	repo, err := repoRoot()
	if err != nil {
		return err
	}
	if truthDir == "" {
		truthDir = filepath.Join(repo, "testdata", "breakage")
	}
	corpora := breakage.Corpora
	if only != "" {
		corpora = nil
		for _, n := range strings.Split(only, ",") {
			c, ok := breakage.Lookup(strings.TrimSpace(n))
			if !ok {
				return fmt.Errorf("unknown corpus %q (have %s)", n, names())
			}
			corpora = append(corpora, c)
		}
	}
	if work == "" {
		tmp, err := os.MkdirTemp("", "ccd-breakage-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
	if refresh {
		for _, c := range corpora {
			logf("refreshing %s", c.Name)
			tr, err := breakage.Refresh(ctx, c, breakage.RefreshOptions{Work: filepath.Join(work, "refresh"), Repo: repo, Limit: limit, Log: logf})
			if err != nil {
				return fmt.Errorf("%s: %v", c.Name, err)
			}
			p := filepath.Join(truthDir, c.Name+".json")
			if err := tr.Save(p); err != nil {
				return err
			}
			logf("%s: %d mutations of %d functions written to %s (%.0fs)", c.Name, len(tr.Mutations), tr.Functions, p, tr.RefreshSeconds)
		}
	}
	start := time.Now()
	var results []*breakage.Result
	for _, c := range corpora {
		tr, err := breakage.LoadTruth(filepath.Join(truthDir, c.Name+".json"))
		if err != nil {
			return fmt.Errorf("%v (compute it with --refresh)", err)
		}
		r, err := breakage.Score(ctx, c, tr, breakage.ScoreOptions{Work: filepath.Join(work, "score")})
		if errors.Is(err, breakage.ErrSourceMismatch) {
			logf("skipping %s: %v", c.Name, err)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %v", c.Name, err)
		}
		s := breakage.Summarize([]*breakage.Result{r}).All
		logf("%s: %d mutations, precision %.3f recall %.3f, %d false alarms on %d compatible changes (%s)", c.Name, s.Mutations,
			s.Precision(), s.Recall(), s.FalseAlarms, s.Compatible, r.Elapsed.Round(time.Millisecond))
		results = append(results, r)
	}
	cmd := "just breakage"
	if only != "" {
		cmd = "go run ./internal/breakage/cmd/ccd-breakage --corpus " + only
	}
	commit := ""
	if out, err := exec.Command("git", "-C", repo, "rev-parse", "--short=12", "HEAD").Output(); err == nil {
		commit = strings.TrimSpace(string(out))
	}
	md := breakage.Markdown(results, breakage.ReportInfo{Command: cmd, Commit: commit, Scoring: time.Since(start)})
	if out == "-" {
		fmt.Print(md)
		return nil
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(repo, out)
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return err
	}
	logf("wrote %s", out)
	return nil
}
