// Package cli implements the ccd command line. Each command has one body:
// commands about a workspace ask a source (source.go), the running daemon
// or, without one, the workspace opened in this process, and both make
// their answers with the same code; index and export always work
// in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/scip"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// usageError is a mistake in the command line; it prints the command's usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type command struct {
	name, args, help string
	run              func(c *ctx, args []string) error
}

// ctx carries the command's streams.
type ctx struct {
	stdout, stderr io.Writer
}

var commands []command

func init() {
	commands = []command{
		{"export", "DIR [--format json|scip] [-o FILE] [-q] [--lsp=auto|off] [--scip=auto|off|FILE]", "write the graph of DIR as JSON (the documented export schema) or as a SCIP index (--format scip, for Sourcegraph); --lsp=auto adds language-server refinement; --scip reads a precise SCIP index (DIR/index.scip by default)", runExport},
		{"doctor", "[--json]", "per language: grammar, schema, language server (found, version, sessions, last error)", runDoctor},
		{"impact", "[--root DIR] SYMBOL [--depth N] [--min-confidence C] [--json]", "callers, callees, blast radius and affected tests of a symbol", runImpact},
		{"symbols", "[--root DIR] QUERY [--limit N] [--json]", "find symbols by name (fuzzy)", runSymbols},
		{"tests", "record|show [DIR] [--budget 10m] [--per-test 2m]", "record which tests run which functions (runs the Go and Python unittest suites, each test on its own, under a tracer) so affected tests name the tests that really run a function; show the recording", runTests},
		{"index", "[DIR]", "index DIR and print a summary", runIndex},
		{"check-store", "DB", "check a workspace database file page by page (the daemon runs it in a child process before opening one)", runCheckStore},
		{"daemon", "[--detach]", "run the resident daemon (foreground, or --detach to start it in the background)", runDaemon},
		{"status", "[--json]", "show the daemon and its workspaces", runStatus},
		{"init", "[DIR] [--force] [--no-wait]", "index DIR in the daemon (starting it if needed) and show progress", runInit},
		{"reindex", "[DIR] [--no-wait]", "index DIR again from scratch in the daemon and ask the language servers again", runReindex},
		{"stop", "", "stop the daemon", runStop},
		{"query", "[--root DIR] PATTERN... | --symbol S | --section S | --dsl EXPR [--kind reference] [--glob G] [--limit N] [--json]", "ranked handles (id, place, tokens, preview) from the retrieval index", runQuery},
		{"pack", "[--root DIR] PATTERN... [--max-handles N] [--max-per-file N] [--json]", "an evidence pack: ranked handles and guidance on what to expand", runPack},
		{"expand", "[--root DIR] ID...", "the content of handles, read fresh", runExpand},
		{"render", "architecture|impact SYMBOL|board [--root DIR] [-o FILE.png|.svg] [--scale 2] [--depth N]", "draw a view as PNG or SVG (default: the artifact under .codecanvas/)", runRender},
		{"setup", "claude|codex|gemini|copilot|droid [--project|--user] [--dir DIR] [--remove]", "add ccd's hooks and MCP server to an agent's settings (idempotent, keeps other hooks, backs up)", runSetup},
		{"bench", "[--runs N] DIR... | --mode floor|build DIR", "compare indexing with the raw tree-sitter parse floor (Markdown table), or measure one phase (JSON line)", runBench},
		{"version", "", "print the version", func(c *ctx, _ []string) error {
			fmt.Fprintln(c.stdout, "ccd", wire.Version)
			return nil
		}},
	}
}

// Main runs the command line and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	c := &ctx{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	for _, cmd := range commands {
		if cmd.name != args[0] {
			continue
		}
		err := cmd.run(c, args[1:])
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprintf(stderr, "usage: ccd %s %s\n  %s\n", cmd.name, cmd.args, cmd.help)
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "ccd %s: %s\nusage: ccd %s %s\n", cmd.name, ue.msg, cmd.name, cmd.args)
			return 2
		default:
			fmt.Fprintf(stderr, "ccd %s: %s\n", cmd.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "ccd: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ccd COMMAND [ARGS]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.help)
	}
}

// dirArg is a command's one optional directory argument, "." when none.
func dirArg(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return ".", nil
	case 1:
		return pos[0], nil
	}
	return "", usageError{"at most one directory"}
}

// parseInterleaved parses flags that may appear before or after positional
// arguments ("ccd impact Foo --depth 2").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// load indexes the workspace at root in this process (open) and returns
// the index.
func load(root string) (*index.Result, error) {
	w, err := open(root)
	if err != nil {
		return nil, err
	}
	res, _ := w.Result()
	return res, nil
}

// open indexes the workspace at root in this process with the code the
// daemon runs (daemon/workspace), one-shot: it neither reads nor writes the
// store (a running daemon may own it), keeps no artifact and starts no
// language server.
func open(root string) (*workspace.Workspace, error) {
	return openWith(root, preciseAuto, nil)
}

// openWith is open with a precise index mode (`export --scip`):
// preciseAuto (the configuration's), preciseOff, or the index file
// (relative to the root unless absolute); with servers, Refine asks the
// language servers too (`export --lsp=auto`).
func openWith(root, precise string, servers *lsp.Manager) (*workspace.Workspace, error) {
	cfg, err := config.Load()
	if err != nil {
		return nil, err
	}
	switch precise {
	case preciseAuto:
	case preciseOff:
		cfg.SCIPIndex = ""
	default:
		cfg.SCIPIndex = precise
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	env := &workspace.Env{Config: cfg, Log: slog.New(slog.DiscardHandler), Version: wire.Version, OneShot: true, LSP: servers}
	w := workspace.Open(abs, env, false)
	if err := w.Index(); err != nil {
		var none *index.NoSourceError
		if errors.As(err, &none) {
			return nil, fmt.Errorf("%s: no source files found (%s); point ccd at a project directory that holds source files", none.Root, none.Summary)
		}
		return nil, err
	}
	return w, nil
}

func runIndex(c *ctx, args []string) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	root, err := dirArg(pos)
	if err != nil {
		return err
	}
	res, err := load(root)
	if err != nil {
		return err
	}
	printSummary(c.stdout, res)
	return nil
}

func printSummary(w io.Writer, res *index.Result) {
	g := res.Graph
	fmt.Fprintf(w, "%s\n%s\n", res.Root, res.Summary)
	var langs []string
	for l, n := range res.Summary.Languages {
		langs = append(langs, fmt.Sprintf("%s %d", l, n))
	}
	sort.Strings(langs)
	fmt.Fprintf(w, "languages: %s\n", strings.Join(langs, ", "))
	fmt.Fprintf(w, "graph: %d modules, %d classes, %d functions; %d import, %d call, %d contains edges\n",
		g.Count(graph.Module), g.Count(graph.Class), g.Count(graph.Func),
		g.CountEdges(graph.Import), g.CountEdges(graph.Call), g.CountEdges(graph.Contains))
	fmt.Fprintf(w, "time: parse %s, resolve %s\n", res.Summary.ParseTime.Round(1e6), res.Summary.ResolveTime.Round(1e6))
	if errs := res.SyntaxErrorFiles(); len(errs) > 0 {
		fmt.Fprintf(w, "syntax errors (what the parser recovered from these files is in the graph, the rest is not):\n")
		for i, e := range errs {
			if i == 20 {
				fmt.Fprintf(w, "  … %d more (ccd status --json lists them all)\n", len(errs)-20)
				break
			}
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

func runExport(c *ctx, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	out := fs.String("o", "", "output file (default: stdout)")
	quiet := fs.Bool("q", false, "do not print the summary on stderr")
	lspMode := fs.String("lsp", "off", "auto: refine call edges with the language servers found; off: tree-sitter only")
	precise := fs.String("scip", preciseAuto, "auto: confirm and add call edges from DIR/index.scip when a precise indexer (scip-go, scip-typescript, scip-python) wrote it; off; or the index file to read")
	format := fs.String("format", "json", "json: ccd's export schema; scip: a SCIP index (protobuf) for Sourcegraph and scip tools")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one directory"}
	}
	if *lspMode != "off" && *lspMode != "auto" {
		return usageError{"--lsp must be auto or off"}
	}
	if *format != "json" && *format != "scip" {
		return usageError{"--format must be json or scip"}
	}
	if *format == "scip" && *out == "" {
		return usageError{"--format scip writes a binary index: name the file with -o (e.g. -o index.scip)"}
	}
	var servers *lsp.Manager
	if *lspMode == "auto" {
		if servers, err = exportServers(); err != nil {
			return err
		}
		defer servers.Close()
	}
	w, err := openWith(pos[0], *precise, servers)
	if err != nil {
		return err
	}
	w.Refine() // the precise index as the mode says, then the servers when asked
	if err := checkPrecise(c.stderr, w, *precise, !*quiet); err != nil {
		return err
	}
	s := w.Snapshot()
	if servers != nil {
		if err := reportLSP(c.stderr, s.LSP, *quiet); err != nil {
			return err
		}
	}
	res, g := s.Result, s.Graph
	if *format == "scip" {
		st, err := scip.WriteFile(*out, res.Root, g, scip.ExportOptions{ToolVersion: wire.Version})
		if err != nil {
			return err
		}
		if !*quiet {
			printSummary(c.stderr, res)
			fmt.Fprintf(c.stderr, "scip: %s: %d documents, %d occurrences (%d definitions, %d references), %d symbols, %d relationships; %d sites without the name on their line\n",
				*out, st.Documents, st.Occurrences, st.Definitions, st.References, st.Symbols, st.Relationships, st.Unplaced)
		}
		return nil
	}
	if *out == "" {
		if err := g.WriteJSON(c.stdout); err != nil {
			return fmt.Errorf("write %s: %w", pos[0], err)
		}
	} else {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		err = g.WriteJSON(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", *out, err)
		}
	}
	if !*quiet {
		printSummary(c.stderr, res)
	}
	return nil
}
