package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/ccd-dev/ccd/core/testmap"
)

// runTests is `ccd tests record|show`: record which tests run which
// functions (core/testmap), so that affected tests name the tests that
// really run a function.
func runTests(c *ctx, args []string) error {
	if len(args) == 0 || (args[0] != "record" && args[0] != "show") {
		return usageError{"want record or show"}
	}
	verb := args[0]
	fs := flag.NewFlagSet("tests "+verb, flag.ContinueOnError)
	budget := fs.Duration("budget", 10*time.Minute, "stop recording after this long (the tests not run keep the graph's word)")
	perTest := fs.Duration("per-test", 2*time.Minute, "time limit of one test")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return err
	}
	root, err := dirArg(pos)
	if err != nil {
		return err
	}
	if verb == "show" { // the file alone: nothing to index
		abs, err := filepath.Abs(root)
		if err != nil {
			return err
		}
		r, err := testmap.Load(abs)
		if err != nil {
			return err
		}
		if r == nil {
			return fmt.Errorf("no recording in %s: run `ccd tests record %s`", testmap.Path(abs), root)
		}
		printRecording(c, r)
		return nil
	}
	w, err := open(root)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g := w.Snapshot().Graph
	fmt.Fprintf(c.stderr, "recording the tests of %s (each test on its own, up to %s)...\n", w.Root(), *budget)
	r, err := testmap.Record(ctx, w.Root(), g, testmap.Options{Budget: *budget, PerTest: *perTest})
	if err != nil {
		return err
	}
	if err := testmap.Save(w.Root(), r); err != nil {
		return err
	}
	printRecording(c, r)
	fmt.Fprintf(c.stdout, "saved %s: affected tests (cards, ccd impact, the MCP tool) now name the tests seen running a function\n", testmap.Path(w.Root()))
	return nil
}

func printRecording(c *ctx, r *testmap.Recording) {
	fmt.Fprintf(c.stdout, "%s (took %.1fs)\n", r.Summary(time.Now()), r.Seconds)
	for _, s := range r.Suites {
		fmt.Fprintf(c.stdout, "  %s\n", s)
	}
	for i, p := range r.Problems {
		if i == 10 {
			fmt.Fprintf(c.stdout, "  ... and %d more problems\n", len(r.Problems)-10)
			break
		}
		fmt.Fprintf(c.stdout, "  problem: %s\n", p)
	}
}
