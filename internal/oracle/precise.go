package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// PreciseResult compares ccd's call sites without and with a precise SCIP
// index of the package (made by the language's SCIP indexer), both scored
// against the same independent oracle.
type PreciseResult struct {
	Package, Lang string
	Indexer       string // the indexer's command line
	IndexMillis   int64  // the indexer's run
	ImportMillis  int64  // ccd's import (reading not included), from its summary line
	ReadMillis    int64  // ccd export with the index minus without it: reading and applying
	Without, With Counts
	Summary       string // ccd's "scip: ..." line
}

// indexer returns the command that makes a precise index of a package
// root into out, and the files it needs written first (removed after).
func indexer(bin, lang, name, root, out string) (cmd []string, env []string, temp map[string]string) {
	switch lang {
	case "go":
		return []string{filepath.Join(bin, "scip-go"), "-q", "--output", out}, []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}, nil
	case "python":
		envFile := out + ".env.json"
		temp = map[string]string{envFile: "[]"}
		return []string{filepath.Join(bin, "scip-python"), "index", "--quiet", "--project-name", name, "--project-version", "0",
			"--environment", envFile, "--output", out}, nil, temp
	case "javascript":
		temp = map[string]string{}
		if _, err := os.Stat(filepath.Join(root, "tsconfig.json")); err != nil {
			temp[filepath.Join(root, "tsconfig.json")] = `{"compilerOptions":{"allowJs":true,"checkJs":false,"noEmit":true,"target":"es2020","module":"commonjs"},"include":["**/*"]}`
		}
		return []string{filepath.Join(bin, "scip-typescript"), "index", "--no-progress-bar", "--output", out}, nil, temp
	}
	return nil, nil, nil
}

var importLine = regexp.MustCompile(`(?m)^scip: .*; ([0-9.]+)(µs|ms|s)$`)

// RunPrecise measures, for each selected package, ccd's call sites
// without and with the package's precise index; scipBin holds scip-go,
// scip-python and scip-typescript (scripts/install-scip.sh).
func RunPrecise(cfg Config, scipBin string) ([]*PreciseResult, error) {
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	home := filepath.Join(cfg.Out, "ccd-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	var out []*PreciseResult
	for _, p := range selectPackages(cfg) {
		r, err := runPrecise(cfg, p, home, scipBin)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", p.Lang, p.Name, err)
		}
		cfg.Log("%-10s %-10s without P %.3f R %.3f F1 %.3f | with P %.3f R %.3f F1 %.3f (index %.1fs, import %dms)",
			p.Lang, p.Name, r.Without.Precision(), r.Without.Recall(), r.Without.F1(),
			r.With.Precision(), r.With.Recall(), r.With.F1(), float64(r.IndexMillis)/1000, r.ImportMillis)
		out = append(out, r)
	}
	return out, nil
}

func runPrecise(cfg Config, p Package, home, scipBin string) (*PreciseResult, error) {
	dir := filepath.Join(cfg.Out, "corpus", p.Lang, p.Name)
	root, _, err := fetch(p, dir, cfg.Log)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(cfg.Out, p.Lang+"-"+p.Name)
	if _, err := os.Stat(base + ".oracle.json"); err != nil {
		if _, err := runOne(cfg, p, home, false); err != nil {
			return nil, err
		}
	}
	index := base + ".index.scip"
	args, env, temp := indexer(scipBin, p.Lang, p.Name, root, index)
	if args == nil {
		return nil, fmt.Errorf("no SCIP indexer for %s", p.Lang)
	}
	for f, text := range temp {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	_, err = command(root, env, args[0], args[1:]...)
	for f := range temp {
		os.Remove(f)
	}
	if err != nil {
		return nil, err
	}
	shown := strings.ReplaceAll(strings.Join(args[1:], " "), cfg.Out+string(filepath.Separator), "")
	r := &PreciseResult{Package: p.Name, Lang: p.Lang, Indexer: filepath.Base(args[0]) + " " + shown,
		IndexMillis: time.Since(t0).Milliseconds()}

	cenv := []string{"CCD_NO_DAEMON=1", "CCD_HOME=" + home, "CCD_LSP=off"}
	score := func(json string, extra ...string) (Counts, int64, string, error) {
		t0 := time.Now()
		args := append([]string{"export", root, "-o", json, "--lsp=off"}, extra...)
		cmd := exec.Command(cfg.CCD, args...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), cenv...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return Counts{}, 0, "", fmt.Errorf("ccd %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		ms := time.Since(t0).Milliseconds()
		g, err := ReadGraph(json)
		if err != nil {
			return Counts{}, 0, "", err
		}
		o, err := readOracle(base + ".oracle.json")
		if err != nil {
			return Counts{}, 0, "", err
		}
		opt := OptionsFor(p.Lang)
		opt.Source = SourceReader(root)
		return Score(g, o, opt).Sites, ms, stderr.String(), nil
	}
	without, msWithout, _, err := score(base+".ccd.json", "--scip=off")
	if err != nil {
		return nil, err
	}
	with, msWith, log, err := score(base+".precise.ccd.json", "--scip="+index)
	if err != nil {
		return nil, err
	}
	r.Without, r.With = without, with
	r.ReadMillis = msWith - msWithout
	if m := importLine.FindStringSubmatch(log); m != nil {
		r.Summary = strings.ReplaceAll(strings.TrimSpace(m[0]), cfg.Out+string(filepath.Separator), "")
		d, _ := time.ParseDuration(m[1] + m[2])
		r.ImportMillis = d.Milliseconds()
	}
	return r, nil
}

func readOracle(file string) (*Oracle, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%v (run the oracle first: just oracle)", err)
	}
	var o Oracle
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &o, nil
}

// PreciseMarkdown renders the comparison.
func PreciseMarkdown(rs []*PreciseResult, commit, command string) string {
	var b strings.Builder
	b.WriteString("# ccd's call edges with and without a precise SCIP index\n\n")
	fmt.Fprintf(&b, "Made by `%s` at ccd commit %s. Each package is indexed by its language's SCIP indexer "+
		"(scripts/install-scip.sh: scip-go 0.1.26, scip-python 0.6.6, scip-typescript 0.4.0); ccd exports its graph "+
		"without the index (`--scip=off`) and with it (`--scip=FILE`), and both are scored against the same independent "+
		"oracle as ORACLE.md (go/ssa + VTA, jedi, the TypeScript compiler), call sites (file, line, callee).\n\n", command, commit)
	b.WriteString("| language | package | ccd sites without | P | R | F1 | ccd sites with | P | R | **F1** | indexer | import |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	var langs []string
	tot := map[string]*[2]Counts{}
	for _, r := range rs {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %d | %s | %s | **%s** | %.1f s | %d ms |\n", LangName(r.Lang), r.Package,
			r.Without.CCD, f3(r.Without.Precision()), f3(r.Without.Recall()), f3(r.Without.F1()),
			r.With.CCD, f3(r.With.Precision()), f3(r.With.Recall()), f3(r.With.F1()), float64(r.IndexMillis)/1000, r.ImportMillis)
		if tot[r.Lang] == nil {
			tot[r.Lang] = &[2]Counts{}
			langs = append(langs, r.Lang)
		}
		tot[r.Lang][0].Add(r.Without)
		tot[r.Lang][1].Add(r.With)
	}
	b.WriteString("\nPooled per language (micro averages):\n\n| language | P without | R without | F1 without | P with | R with | F1 with |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, l := range langs {
		w, x := tot[l][0], tot[l][1]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | **%s** |\n", LangName(l), f3(w.Precision()), f3(w.Recall()), f3(w.F1()),
			f3(x.Precision()), f3(x.Recall()), f3(x.F1()))
	}
	b.WriteString("\nWhat ccd did with each index (its summary line):\n\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "- %s/%s (`%s`): %s\n", r.Lang, r.Package, r.Indexer, r.Summary)
	}
	return b.String()
}
