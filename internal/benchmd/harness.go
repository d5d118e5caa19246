package benchmd

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"time"
)

// Config says what to measure and how often.
type Config struct {
	Src        string   // the module root: where binaries are built and `go test` runs
	Bin        string   // a directory holding ccd and ccd-hook; empty: build them into the work dir
	Corpora    []Corpus // the trees to measure
	Quick      bool     // the CI mode (recorded in the report)
	Runs       int      // cold-index runs per phase and warm starts
	HookIters  int      // calls per hook case
	QueryIters int      // calls per query (after the first)
	EditIters  int      // one-file edits
	SettleS    int      // seconds of quiet before reading RSS at rest (negative: none)
	GoBench    bool     // also run the in-process Go benchmarks of core/parse and core/lsp
	Commit     string   // the source's commit; empty: ask git in Src
	Command    string   // the command that reproduces the report
	Log        io.Writer
}

// Defaults fills unset counts for the full or the quick mode.
func (c *Config) Defaults() {
	def := func(p *int, full, quick int) {
		if *p <= 0 {
			*p = full
			if c.Quick {
				*p = quick
			}
		}
	}
	def(&c.Runs, 3, 3)
	def(&c.HookIters, 100, 20)
	def(&c.QueryIters, 30, 10)
	def(&c.EditIters, 20, 5)
	if c.SettleS < 0 {
		c.SettleS = 0
	} else {
		def(&c.SettleS, 5, 2)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// DefaultCorpora are GOROOT/src and the Python standard library, or in
// quick mode GOROOT/src/net/http and the stdlib's email package. A missing
// Python is an error that says how to fix it, never a silent omission.
func DefaultCorpora(quick bool) ([]Corpus, error) {
	goroot := firstLine("", "go", "env", "GOROOT")
	if goroot == "" {
		return nil, fmt.Errorf("go env GOROOT failed: is Go on PATH?")
	}
	py := firstLine("", "python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])")
	if py == "" {
		matches, _ := filepath.Glob("/usr/lib/python3.*")
		for _, m := range matches {
			if _, err := os.Stat(filepath.Join(m, "json", "__init__.py")); err == nil {
				py = m
			}
		}
	}
	if py == "" {
		return nil, fmt.Errorf("no Python standard library found (python3 is not on PATH and no /usr/lib/python3.*): install python3, or name the corpora with --corpus")
	}
	ver := filepath.Base(py)
	cs := []Corpus{{Name: "GOROOT/src", Dir: filepath.Join(goroot, "src")}, {Name: "Python stdlib (" + ver + ")", Dir: py}}
	if quick {
		cs = []Corpus{{Name: "GOROOT/src/net/http", Dir: filepath.Join(goroot, "src", "net", "http")},
			{Name: "Python stdlib email (" + ver + ")", Dir: filepath.Join(py, "email")}}
	}
	for _, c := range cs {
		if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("corpus %s: %s is not a directory", c.Name, c.Dir)
		}
	}
	return cs, nil
}

// CorpusResult is everything measured on one corpus.
type CorpusResult struct {
	Corpus      Corpus
	CopyBytes   int64
	Files       int // files ccd parsed (modules in the graph)
	Nodes       int
	Edges       int
	Target      Target
	Cold        *Cold
	DaemonUp    time.Duration // spawn to first ping
	Init        time.Duration // POST /v1/workspaces to ready, cold
	InitMS      float64       // the daemon's own index time
	SearchReady time.Duration // ready to retrieval index filled
	IdleRSSMB   float64       // a daemon with no workspace
	RestRSSMB   float64       // after init and the search index, at rest
	AfterRSSMB  float64       // after every measurement below, at rest
	Daemon      Usage         // the first daemon's whole life (CPU, peak RSS)
	Warm        *WarmResult
	Edit        *EditResult
	Hooks       []*HookCase
	Queries     []*QueryCase
}

// Report is a whole run: machine, results, and how to reproduce it.
type Report struct {
	Machine Machine
	Config  Config
	Corpora []*CorpusResult
	GoBench []GoBench
	// LSPBench is core/lsp's BenchmarkApplyAfterEdit: keeping the refined
	// graph current after an edit, by re-applying or by splicing.
	LSPBench []GoBench
	Elapsed  time.Duration
}

// Run builds (or finds) the binaries and measures every corpus. All state
// lives in a temp dir under /tmp (short, for the socket path), removed at
// the end; the corpora themselves are only read.
func Run(cfg Config) (*Report, error) {
	cfg.Defaults()
	t0 := time.Now()
	logf := func(f string, a ...any) {
		fmt.Fprintf(cfg.Log, "[%5.1fs] "+f+"\n", append([]any{time.Since(t0).Seconds()}, a...)...)
	}
	if len(cfg.Corpora) == 0 {
		return nil, fmt.Errorf("no corpora to measure")
	}
	work, err := os.MkdirTemp("/tmp", "ccdb")
	if err != nil {
		return nil, fmt.Errorf("work dir: %w", err)
	}
	if os.Getenv("CCD_BENCH_KEEP") == "" {
		defer os.RemoveAll(work)
	}
	bins, err := binaries(cfg, work, logf)
	if err != nil {
		return nil, err
	}
	rep := &Report{Config: cfg, Machine: collectMachine(cfg.Src, bins.ccd, cfg.Commit)}
	for i, c := range cfg.Corpora {
		logf("corpus %s (%s)", c.Name, c.Dir)
		r, err := measureCorpus(bins, c, filepath.Join(work, fmt.Sprint(i)), cfg, logf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		rep.Corpora = append(rep.Corpora, r)
	}
	if cfg.GoBench {
		logf("go test -bench ./core/parse")
		gb, err := runGoBench(cfg.Src, "./core/parse", "^BenchmarkGo(ParseOnly|QueryOnly|Extract)$", "3x")
		if err != nil {
			return nil, err
		}
		rep.GoBench = gb
		logf("go test -bench ./core/lsp (the refined graph after an edit; indexes GOROOT/src)")
		lb, err := runGoBench(cfg.Src, "./core/lsp", "^BenchmarkApplyAfterEdit$", "20x")
		if err != nil {
			return nil, err
		}
		rep.LSPBench = lb
	}
	rep.Machine.LoadTo = loadNow()
	rep.Elapsed = time.Since(t0)
	return rep, nil
}

type binSet struct{ ccd, hook, noop string }

// binaries finds ccd and ccd-hook in cfg.Bin or builds them, and always
// builds the no-op static binary (the hooks' floor) the same way as the
// shim: CGO_ENABLED=0, stripped.
func binaries(cfg Config, work string, logf func(string, ...any)) (binSet, error) {
	b := binSet{noop: filepath.Join(work, "bin", "noop")}
	gobuild := func(out, pkg string, static bool) error {
		args := []string{"build", "-o", out}
		if static {
			args = append(args, "-ldflags=-s -w")
		}
		cmd := exec.Command("go", append(args, pkg)...)
		cmd.Dir = cfg.Src
		cmd.Env = os.Environ()
		if static {
			cmd.Env = append(cmd.Env, "CGO_ENABLED=0")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %w\n%s", pkg, err, tail(string(out), 1500))
		}
		return nil
	}
	if cfg.Bin != "" {
		b.ccd, b.hook = filepath.Join(cfg.Bin, "ccd"), filepath.Join(cfg.Bin, "ccd-hook")
		for _, p := range []string{b.ccd, b.hook} {
			if st, err := os.Stat(p); err != nil || st.Mode()&0o111 == 0 {
				return b, fmt.Errorf("%s: not an executable (run `just build` first, or leave out --bin to build)", p)
			}
		}
	} else {
		b.ccd, b.hook = filepath.Join(work, "bin", "ccd"), filepath.Join(work, "bin", "ccd-hook")
		logf("building ccd and ccd-hook")
		if err := gobuild(b.ccd, "./daemon/ccd", false); err != nil {
			return b, err
		}
		if err := gobuild(b.hook, "./hookshim/ccd-hook", true); err != nil {
			return b, err
		}
	}
	dir := filepath.Join(work, "noop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return b, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module noop\n\ngo 1.21\n"), 0o644); err != nil {
		return b, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return b, err
	}
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", b.noop, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return b, fmt.Errorf("build the no-op binary: %w\n%s", err, tail(string(out), 800))
	}
	return b, nil
}

// measureCorpus copies the corpus and measures it: daemon first (its
// edits are restored), then the cold-index phases with no daemon running.
func measureCorpus(bins binSet, c Corpus, work string, cfg Config, logf func(string, ...any)) (*CorpusResult, error) {
	r := &CorpusResult{Corpus: c}
	root := filepath.Join(work, "ws")
	home := filepath.Join(work, "h")
	for _, d := range []string{work, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	n, err := copyTree(c.Dir, root)
	if err != nil {
		return nil, err
	}
	r.CopyBytes = n
	// A project marker, so hooks find the workspace as they would in a repo.
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		return nil, err
	}
	// Queries and hooks run with the default debounce, as users get it;
	// warm starts and edit → fresh with none (the figure is the update's
	// own latency, as in BenchmarkEditToFresh).
	env := daemonEnv(home, bins.ccd, false)
	settle := time.Duration(cfg.SettleS) * time.Second

	d, up, err := startDaemon(bins.ccd, home, env)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			d.kill()
		}
	}()
	r.DaemonUp = up
	time.Sleep(settle)
	st, err := d.status()
	if err != nil {
		return nil, err
	}
	r.IdleRSSMB = float64(st.RSSBytes) / (1 << 20)

	w, took, err := d.addWorkspace(root)
	if err != nil {
		return nil, err
	}
	r.Init, r.InitMS, r.Files, r.Nodes, r.Edges = took, w.IndexMS, w.Files, w.Nodes, w.Edges
	logf("  daemon init: %s, %d files, %d nodes, %d edges", FormatMS(ms(took)), w.Files, w.Nodes, w.Edges)
	t1 := time.Now()
	if err := d.searchReady(root); err != nil {
		return nil, err
	}
	r.SearchReady = time.Since(t1)
	var buf bytes.Buffer
	if err := d.do(http.MethodGet, "/v1/export?root="+url.QueryEscape(root), nil, &buf); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	exp, err := ParseExport(&buf)
	if err != nil {
		return nil, err
	}
	files := exp.Files()
	if r.Target, err = PickTarget(exp); err != nil {
		return nil, err
	}
	exp, buf = nil, bytes.Buffer{}
	debug.FreeOSMemory() // the export of a big tree is large: give it back before measuring
	logf("  target %s (%d callers)", r.Target.ID, r.Target.Callers)
	time.Sleep(settle)
	if st, err = d.status(); err != nil {
		return nil, err
	}
	r.RestRSSMB = float64(st.RSSBytes) / (1 << 20)

	if r.Queries, err = queryBench(d, root, r.Target, cfg.QueryIters, logf); err != nil {
		return nil, err
	}
	if r.Hooks, err = hookBench(d, bins.hook, bins.noop, root, r.Target, cfg.HookIters, logf); err != nil {
		return nil, err
	}
	time.Sleep(settle)
	if st, err = d.status(); err != nil {
		return nil, err
	}
	r.AfterRSSMB = float64(st.RSSBytes) / (1 << 20)
	ok = true
	if r.Daemon, err = d.stop(); err != nil {
		return nil, err
	}
	r.Warm, d, err = warmBench(bins.ccd, home, root, daemonEnv(home, bins.ccd, true), cfg.Runs, logf)
	if err != nil {
		return nil, err
	}
	r.Edit, err = editBench(d, bins.ccd, root, work, r.Target, cfg.EditIters, logf)
	if _, serr := d.stop(); err == nil {
		err = serr
	}
	if err != nil {
		return nil, err
	}
	if r.Cold, err = coldIndex(bins.ccd, root, files, env, cfg.Runs, work, logf); err != nil {
		return nil, err
	}
	if r.Cold.Phases[1].Files != len(files) {
		logf("  note: ccd bench parsed %d files, the daemon's graph has %d modules", r.Cold.Phases[1].Files, len(files))
	}
	if err := os.RemoveAll(root); err != nil {
		return nil, fmt.Errorf("remove the copy: %w", err)
	}
	return r, nil
}
