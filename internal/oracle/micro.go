package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// MicroCase is one program of the micro-benchmark: a directory with an
// entry point (main.py, main.js) and whatever modules it imports.
type MicroCase struct {
	Lang     string // python, javascript
	Category string
	Name     string
	Dir      string
}

// ID names the case as lang/category/name.
func (c MicroCase) ID() string { return c.Lang + "/" + c.Category + "/" + c.Name }

// entries maps a language to its programs' entry point.
var entries = map[string]string{"python": "main.py", "javascript": "main.js"}

// MicroCases lists the programs under dir (dir/LANG/CATEGORY/CASE/), in
// order.
func MicroCases(dir string) ([]MicroCase, error) {
	var cs []MicroCase
	for _, lang := range []string{"python", "javascript"} {
		cats, err := os.ReadDir(filepath.Join(dir, lang))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("micro-benchmark: %w", err)
		}
		for _, cat := range cats {
			if !cat.IsDir() {
				continue
			}
			progs, err := os.ReadDir(filepath.Join(dir, lang, cat.Name()))
			if err != nil {
				return nil, fmt.Errorf("micro-benchmark: %w", err)
			}
			for _, p := range progs {
				d := filepath.Join(dir, lang, cat.Name(), p.Name())
				if _, err := os.Stat(filepath.Join(d, entries[lang])); err != nil {
					continue
				}
				cs = append(cs, MicroCase{Lang: lang, Category: cat.Name(), Name: p.Name(), Dir: d})
			}
		}
	}
	return cs, nil
}

// MicroConfig says what the micro-benchmark runs and where.
type MicroConfig struct {
	Repo  string // the repository (internal/oracle/trace lives there)
	CCD   string // the ccd binary
	Tools string // .tools/oracle (TypeScript for the JavaScript tracer)
	Dir   string // the programs (testdata/micro)
	Work  string // scratch: ccd's state, per-case JSON
	Only  []string
	Jobs  int
}

// TypeScriptAPI finds a TypeScript 5 compiler API (the JavaScript tracer
// parses with it): the oracle's (scripts/install-oracle.sh), else the one
// scip-typescript brings (scripts/install-scip.sh, which `just test` runs).
func TypeScriptAPI(repo, tools string) (string, error) {
	cands := []string{
		filepath.Join(tools, "node", "node_modules", "typescript"),
		filepath.Join(repo, ".tools", "scip", "scip-typescript", "node_modules", "typescript"),
	}
	for _, c := range cands {
		if _, err := os.Stat(filepath.Join(c, "lib", "typescript.js")); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("no TypeScript compiler API in %s: run scripts/install-oracle.sh or scripts/install-scip.sh", strings.Join(cands, " or "))
}

// MicroResult is one program's score.
type MicroResult struct {
	Case   MicroCase
	Result *Result
	Errors []string // the tracer's (the program failed, a file did not parse)
}

// MicroOptions are the scoring options of the micro-benchmark, where the
// truth comes from running the program: every call counts, implicit ones
// (`with`, `for`, operators) included. A JavaScript callback run by code
// outside the program (Array.prototype.forEach, EventEmitter.emit) is
// extra, as with the static oracle: ccd's convention is an edge from the
// call that hands it over, which the trace confirms when it is there.
func MicroOptions(lang string) Options {
	if lang == "javascript" {
		return Options{Extra: []string{"callback"}}
	}
	return Options{}
}

// RunMicro runs and scores every selected program.
func RunMicro(cfg MicroConfig) ([]*MicroResult, error) {
	cases, err := MicroCases(cfg.Dir)
	if err != nil {
		return nil, err
	}
	if len(cfg.Only) > 0 {
		kept := cases[:0]
		for _, c := range cases {
			for _, o := range cfg.Only {
				if c.Lang == o || strings.HasPrefix(c.ID(), o) {
					kept = append(kept, c)
					break
				}
			}
		}
		cases = kept
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("micro-benchmark: no programs under %s", cfg.Dir)
	}
	home := filepath.Join(cfg.Work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	tsc := ""
	for _, c := range cases {
		if c.Lang == "javascript" {
			if tsc, err = TypeScriptAPI(cfg.Repo, cfg.Tools); err != nil {
				return nil, err
			}
			break
		}
	}
	jobs := cfg.Jobs
	if jobs < 1 {
		jobs = 1
	}
	res := make([]*MicroResult, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res[i], errs[i] = runMicroCase(cfg, cases[i], home, tsc)
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cases[i].ID(), err)
		}
	}
	return res, nil
}

// runMicroCase exports, traces and scores one program; tsc is the
// TypeScript API the JavaScript tracer parses with.
func runMicroCase(cfg MicroConfig, c MicroCase, home, tsc string) (*MicroResult, error) {
	base := filepath.Join(cfg.Work, strings.ReplaceAll(c.ID(), "/", "-"))
	env := []string{"CCD_NO_DAEMON=1", "CCD_HOME=" + home, "CCD_LSP=off"}
	if _, err := command("", env, cfg.CCD, "export", c.Dir, "-o", base+".ccd.json", "--lsp=off", "--scip=off", "-q"); err != nil {
		return nil, err
	}
	var out []byte
	var err error
	switch c.Lang {
	case "python":
		out, err = command(c.Dir, nil, "python3", filepath.Join(cfg.Repo, "internal", "oracle", "trace", "pytrace.py"), c.Dir)
	case "javascript":
		out, err = command(c.Dir, []string{"CCD_ORACLE_TYPESCRIPT=" + tsc},
			"node", filepath.Join(cfg.Repo, "internal", "oracle", "trace", "jstrace.js"), c.Dir)
	}
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(base+".trace.json", out, 0o644); err != nil {
		return nil, err
	}
	var o Oracle
	if err := json.Unmarshal(out, &o); err != nil {
		return nil, fmt.Errorf("tracer output: %v", err)
	}
	g, err := ReadGraph(base + ".ccd.json")
	if err != nil {
		return nil, err
	}
	opt := MicroOptions(c.Lang)
	opt.Source = SourceReader(c.Dir)
	opt.Samples = 1000
	r := Score(g, &o, opt)
	r.Package, r.Lang = c.Category+"/"+c.Name, c.Lang
	return &MicroResult{Case: c, Result: r, Errors: o.Errors}, nil
}

// MicroMarkdown writes the micro-benchmark's report: totals per language,
// per category and per kind of call, then every missed and spurious site.
func MicroMarkdown(rs []*MicroResult, commit, command string, elapsed time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# ccd's call edges against the runtime truth of small programs\n\n")
	fmt.Fprintf(&b, "Written by `%s` (internal/oracle, programs in testdata/micro, method in\n", command)
	fmt.Fprintf(&b, "[internal/oracle/README.md](internal/oracle/README.md#the-micro-benchmark)) for ccd at `%s`,\n", commit)
	fmt.Fprintf(&b, "`ccd export --lsp=off`, in %s. The truth is what ran: each program is run\n", elapsed.Round(time.Second))
	fmt.Fprintf(&b, "under a tracer that records every call between its own functions.\n\n")

	type agg struct {
		sites Counts
		n     int
	}
	langs := []string{}
	byLang := map[string]*agg{}
	byCat := map[string]*agg{}
	var cats []string
	kinds := map[string]map[string]*Counts{}
	for _, r := range rs {
		l := r.Case.Lang
		if byLang[l] == nil {
			byLang[l] = &agg{}
			langs = append(langs, l)
			kinds[l] = map[string]*Counts{}
		}
		ck := l + "/" + r.Case.Category
		if byCat[ck] == nil {
			byCat[ck] = &agg{}
			cats = append(cats, ck)
		}
		for _, a := range []*agg{byLang[l], byCat[ck]} {
			a.sites.Add(r.Result.Sites)
			a.n++
		}
		for k, c := range r.Result.ByKind {
			if kinds[l][k] == nil {
				kinds[l][k] = &Counts{}
			}
			kinds[l][k].Add(*c)
		}
	}
	row := func(name string, a *agg) {
		c := a.sites
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s | **%s** |\n", name, a.n, c.CCD, c.Oracle, c.Matched,
			f3(c.Precision()), f3(c.Recall()), f3(c.F1()))
	}
	b.WriteString("## Per language\n\n| language | programs | ccd call sites | runtime call sites | found | precision | recall | F1 |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, l := range langs {
		row(LangName(l), byLang[l])
	}
	b.WriteString("\nPrecision counts a ccd site as right when the run made that call; recall\ncounts the runtime's sites ccd has. ")
	b.WriteString("A JavaScript function run by code outside the program (a\ncallback of `forEach`, `emit`) confirms ccd's edge from the call that hands it over\nbut is not required.\n")
	b.WriteString("\n## Per category\n\n| category | programs | ccd call sites | runtime call sites | found | precision | recall | F1 |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, ck := range cats {
		row(ck, byCat[ck])
	}
	b.WriteString("\n## Per kind of call\n\nRecall of the runtime's sites by how the call is made: `call` a call\nexpression naming the callee; `value` a call expression through another name\n(`a = f; a()`, `handlers[k]()`); `implicit` no call expression (`with`,\n`for`, an operator, a property, a decorator, `raise C`); `callback` run by a builtin\n(Python: `sorted(key=f)`; JavaScript: code outside the program).\n\n| language | kind | runtime sites | found | recall |\n|---|---|--:|--:|--:|\n")
	for _, l := range langs {
		var ks []string
		for k := range kinds[l] {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			c := kinds[l][k]
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", LangName(l), k, c.Oracle, c.Matched, f3(c.Recall()))
		}
	}
	b.WriteString("\n## Every miss and every false edge\n\n")
	for _, r := range rs {
		if len(r.Result.Missed) == 0 && len(r.Result.Spurious) == 0 && len(r.Errors) == 0 {
			continue
		}
		fmt.Fprintf(&b, "### %s\n\n", r.Case.ID())
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "- tracer: %s\n", e)
		}
		for _, s := range r.Result.Missed {
			fmt.Fprintf(&b, "- missed %s:%d → %s (%s) `%s`\n", s.File, s.Line, s.Callee, s.Kind, strings.TrimSpace(s.Text))
		}
		for _, s := range r.Result.Spurious {
			fmt.Fprintf(&b, "- false %s:%d → %s (%s) `%s`\n", s.File, s.Line, s.Callee, s.Confidence, strings.TrimSpace(s.Text))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// MicroTotals pools the results of one language.
func MicroTotals(rs []*MicroResult, lang string) Counts {
	var c Counts
	for _, r := range rs {
		if r.Case.Lang == lang {
			c.Add(r.Result.Sites)
		}
	}
	return c
}
