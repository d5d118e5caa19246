package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/words"
)

// PythonOracle is the interpreter the Python oracle runs with: Debian's,
// for which python3-jedi is installed.
var PythonOracle = "/usr/bin/python3"

// Config says what Run measures and where things are.
type Config struct {
	Repo  string // the ccd repository (the oracles' scripts are under it)
	CCD   string // the ccd binary
	Tools string // where scripts/install-oracle.sh put the tools (.tools/oracle)
	Out   string // per-package JSON, the corpora and ccd's state (bin/oracle)
	Quick bool   // one small package per language
	// Only, when set, keeps the packages whose name or language is in it.
	Only []string
	Log  func(format string, args ...any)
}

// Run fetches the corpus, runs ccd export and the oracles on every
// package and scores them; it writes OUT/<lang>-<name>.{ccd,oracle,score}.json.
func Run(cfg Config) (*Report, error) {
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	start := time.Now()
	rep := &Report{Quick: cfg.Quick}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	home := filepath.Join(cfg.Out, "ccd-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	if v, err := CtagsVersion(); err != nil {
		cfg.Log("definitions not measured: %v", err)
	} else {
		rep.Ctags = v
	}
	for _, p := range selectPackages(cfg) {
		r, err := runOne(cfg, p, home, rep.Ctags != "")
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", p.Lang, p.Name, err)
		}
		cfg.Log("%-10s %-10s sites P %.3f R %.3f F1 %.3f  (ccd %d, oracle %d, matched %d; ccd %.1fs, oracle %.1fs)",
			p.Lang, p.Name, r.Sites.Precision(), r.Sites.Recall(), r.Sites.F1(), r.Sites.CCD, r.Sites.Oracle, r.Sites.Matched,
			float64(r.CCDMillis)/1000, float64(r.OracleMillis)/1000)
		rep.Results = append(rep.Results, r)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func selectPackages(cfg Config) []Package {
	var out []Package
	for _, p := range Corpus {
		if cfg.Quick && !p.Quick {
			continue
		}
		if len(cfg.Only) > 0 {
			keep := false
			for _, o := range cfg.Only {
				if o == p.Name || o == p.Lang {
					keep = true
				}
			}
			if !keep {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

func runOne(cfg Config, p Package, home string, ctags bool) (*Result, error) {
	dir := filepath.Join(cfg.Out, "corpus", p.Lang, p.Name)
	root, version, err := fetch(p, dir, cfg.Log)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(cfg.Out, p.Lang+"-"+p.Name)

	// ccd, in-process (no daemon), no language server.
	t0 := time.Now()
	env := []string{"CCD_NO_DAEMON=1", "CCD_HOME=" + home, "CCD_LSP=off"}
	if _, err := command("", env, cfg.CCD, "export", root, "-o", base+".ccd.json", "--lsp=off", "--scip=off", "-q"); err != nil {
		return nil, err
	}
	ccdMillis := time.Since(t0).Milliseconds()

	// The oracle.
	var name string
	var args, oenv []string
	switch p.Lang {
	case "go":
		name = filepath.Join(cfg.Tools, "bin", "gocg")
		args = []string{root}
		// The module's own dependencies come through the module proxy.
		oenv = []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}
	case "python":
		name = PythonOracle
		args = []string{filepath.Join(cfg.Repo, "internal", "oracle", "pyoracle", "pyoracle.py"), root}
	case "javascript":
		name = "node"
		args = []string{filepath.Join(cfg.Repo, "internal", "oracle", "jsoracle", "jsoracle.js"), root}
		oenv = []string{"CCD_ORACLE_TYPESCRIPT=" + filepath.Join(cfg.Tools, "node", "node_modules", "typescript")}
	default:
		return nil, fmt.Errorf("no oracle for language %q", p.Lang)
	}
	cfg.Log("%s/%s: ccd export %.1fs; running %s", p.Lang, p.Name, float64(ccdMillis)/1000, filepath.Base(args0(name, args)))
	t0 = time.Now()
	out, err := command(root, oenv, name, args...)
	if err != nil {
		return nil, err
	}
	oracleMillis := time.Since(t0).Milliseconds()
	if err := os.WriteFile(base+".oracle.json", out, 0o644); err != nil {
		return nil, err
	}

	g, err := ReadGraph(base + ".ccd.json")
	if err != nil {
		return nil, err
	}
	var o Oracle
	if err := json.Unmarshal(out, &o); err != nil {
		return nil, fmt.Errorf("oracle output: %v", err)
	}
	opt := OptionsFor(p.Lang)
	opt.Source = SourceReader(root)
	if p.Runtime != "" {
		t1 := time.Now()
		n, tool, err := addRuntime(cfg, p, root, &o)
		if err != nil {
			// No test suite here: the static oracle alone, said in the report.
			cfg.Log("%s/%s: no runtime confirmation: %v", p.Lang, p.Name, err)
			o.Tool += " (runtime trace unavailable: " + words.FirstLine(err.Error()) + ")"
		} else {
			cfg.Log("%s/%s: %d calls observed at run time (%s) in %.1fs", p.Lang, p.Name, n, tool, time.Since(t1).Seconds())
			o.Tool += " + " + tool
			opt.Extra = append(opt.Extra, "runtime")
		}
	}
	r := Score(g, &o, opt)
	r.Package, r.Lang, r.Version = p.Name, p.Lang, version
	r.Source, r.Sub, r.Note = p.Source, p.Sub, p.Note
	r.OracleCounts = o.Counts
	r.OracleErrors = len(o.Errors)
	r.CCDMillis, r.OracleMillis = ccdMillis, oracleMillis
	if ctags {
		tags, err := RunCtags(root)
		if err != nil {
			return nil, err
		}
		r.Defs = ScoreDefs(g, tags)
		r.Defs.Tool = "universal-ctags"
	}
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(base+".score.json", append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return r, nil
}

func args0(name string, args []string) string {
	if strings.HasSuffix(name, "python3") || name == "node" {
		return args[0]
	}
	return name
}

// Languages returns the languages of the results, in corpus order.
func languages(rs []*Result) []string {
	seen := map[string]int{}
	for i, p := range Corpus {
		if _, ok := seen[p.Lang]; !ok {
			seen[p.Lang] = i
		}
	}
	var langs []string
	have := map[string]bool{}
	for _, r := range rs {
		if !have[r.Lang] {
			have[r.Lang] = true
			langs = append(langs, r.Lang)
		}
	}
	sort.SliceStable(langs, func(i, j int) bool { return seen[langs[i]] < seen[langs[j]] })
	return langs
}

// addRuntime runs pyoracle/pyruntime.py for p and adds the calls it
// observed to o as edges of kind "runtime". The unittest drivers need the
// standard library's test package (python3 on PATH); the jedi driver
// needs jedi (PythonOracle).
func addRuntime(cfg Config, p Package, root string, o *Oracle) (int, string, error) {
	python, args := PythonOracle, []string{} // jedi lives in the site packages
	if strings.HasPrefix(p.Runtime, "unittest:") {
		py, err := exec.LookPath("python3")
		if err != nil {
			return 0, "", err
		}
		python, args = py, []string{"-S"}
	}
	args = append(args, filepath.Join(cfg.Repo, "internal", "oracle", "pyoracle", "pyruntime.py"), root, p.Runtime)
	out, err := command(root, nil, python, args...)
	if err != nil {
		return 0, "", err
	}
	var rt Oracle
	if err := json.Unmarshal(out, &rt); err != nil {
		return 0, "", fmt.Errorf("runtime trace output: %v", err)
	}
	if len(rt.Edges) == 0 {
		return 0, "", fmt.Errorf("the runtime trace observed no call (%v)", rt.Errors)
	}
	o.Edges = append(o.Edges, rt.Edges...)
	if o.Counts == nil {
		o.Counts = map[string]int{}
	}
	o.Counts["runtime"] = len(rt.Edges)
	return len(rt.Edges), rt.Tool, nil
}
