package mutation

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// DefaultSeed picks the sample of functions (issue 16).
const DefaultSeed = 16

// Options control a refresh.
type Options struct {
	// Work is a scratch directory (default: a temporary one, removed).
	Work string
	Log  io.Writer
	Seed int64
	// Limit, when positive, caps the number of mutants (for trying the
	// harness out; the committed truth uses each corpus's Target).
	Limit int
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// Refresh computes corpus c's truth: fetch it, run its suite unmutated
// (twice; whatever fails either time is left out of every mutant), pick the
// functions the suite runs, then make each sampled function fail on entry
// and run the suite again, one mutant at a time.
func Refresh(ctx context.Context, c Corpus, opt Options) (*Truth, error) {
	start := time.Now()
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	work := opt.Work
	if work == "" {
		var err error
		work, err = os.MkdirTemp("", "ccd-mutation-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	tree, err := Fetch(ctx, c, filepath.Join(work, "src"))
	if err != nil {
		return nil, err
	}
	opt.logf("%s: fetched into %s (%d files)", c.Name, tree.Root, len(tree.Files))
	var tr *Truth
	switch c.Lang {
	case "go":
		tr, err = refreshGo(ctx, tree, work, &opt)
	case "python":
		tr, err = refreshPython(ctx, tree, work, &opt)
	default:
		err = fmt.Errorf("unknown language %q", c.Lang)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	tr.Corpus, tr.Lang, tr.SourceHash, tr.Seed = c.Name, c.Lang, tree.Hash, opt.Seed
	tr.Seconds = float64(time.Since(start).Round(time.Second)) / float64(time.Second)
	return tr, nil
}

// sample picks up to target functions: exported ones first (all of them
// when they fill at most three quarters of the target, else a random
// sample), the rest a random sample of the unexported ones; fixed seed.
func sample(cands []fn, target int, seed int64) []fn {
	cands = slices.Clone(cands)
	slices.SortFunc(cands, func(a, b fn) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line)) })
	var exp, unexp []fn
	for _, f := range cands {
		if f.Exported {
			exp = append(exp, f)
		} else {
			unexp = append(unexp, f)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	rng.Shuffle(len(exp), func(i, j int) { exp[i], exp[j] = exp[j], exp[i] })
	rng.Shuffle(len(unexp), func(i, j int) { unexp[i], unexp[j] = unexp[j], unexp[i] })
	nExp := min(len(exp), target*3/4)
	out := append([]fn(nil), exp[:nExp]...)
	nUn := min(len(unexp), target-nExp)
	out = append(out, unexp[:nUn]...)
	for _, f := range exp[nExp:] {
		if len(out) >= target {
			break
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b fn) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line)) })
	return out
}

// runSample mutates a sample of cands one at a time (mutate runs one).
// Mutants whose function runs at initialisation (every test fails) are
// kept but do not count: the sample grows (same seed, so the functions
// already run stay in it) until target mutants count or none is left.
func runSample(cands []fn, target int, opt *Options, mutate func(f fn) (Mutant, error)) ([]Mutant, error) {
	done := map[string]bool{}
	var out []Mutant
	counted := 0
	for size := target; ; {
		chosen := sample(cands, size, opt.Seed)
		progressed := false
		for _, f := range chosen {
			if done[f.key()] {
				continue
			}
			done[f.key()] = true
			progressed = true
			t0 := time.Now()
			m, err := mutate(f)
			if err != nil {
				return nil, err
			}
			m.Seconds = roundSeconds(time.Since(t0))
			out = append(out, m)
			if m.Crash == "" {
				counted++
			}
			opt.logf("[%d/%d] %s:%d %s: %d failing, %d reached without failing%s (%.1fs)", len(out), len(chosen), f.File, f.Line, f.Name, len(m.Failing), len(m.Reached), crashNote(m), m.Seconds)
		}
		if counted >= target || !progressed {
			break
		}
		size += target - counted
	}
	slices.SortFunc(out, func(a, b Mutant) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line)) })
	return out, nil
}

// mutantOf turns one run into a Mutant: expected are the tests that were
// run (a test that should have run and has no outcome failed: the binary
// or module died before it).
func mutantOf(f fn, res *runResult, expected []string, universe, baselineFail map[string]bool) Mutant {
	m := Mutant{File: f.File, Name: f.Name, Line: f.Line, Exported: f.Exported, Crash: res.Crash, TimedOut: res.TimedOut}
	for _, id := range expected {
		if !universe[id] || baselineFail[id] {
			continue
		}
		o := res.Tests[id]
		failed := o == nil || !o.Ran || o.Failed
		switch {
		case failed:
			m.Failing = append(m.Failing, id)
			if o != nil && o.Path != "" {
				if m.Paths == nil {
					m.Paths = map[string]string{}
				}
				m.Paths[id] = compactPath(o.Path)
			}
		case o.Path != "":
			m.Reached = append(m.Reached, id)
		}
	}
	sort.Strings(m.Failing)
	sort.Strings(m.Reached)
	if m.Failing == nil {
		m.Failing = []string{}
	}
	return m
}

// compactPath cuts cycles out of a recorded path (recursion): when a frame
// (same function, same line) comes again, the frames in between go. What
// is left is still a chain of real calls.
func compactPath(p string) string {
	frames := strings.Split(p, pathSep)
	var out []string
	at := map[string]int{}
	for _, f := range frames {
		if i, ok := at[f]; ok {
			for _, g := range out[i+1:] {
				delete(at, g)
			}
			out = out[:i+1]
			continue
		}
		at[f] = len(out)
		out = append(out, f)
	}
	return strings.Join(out, pathSep)
}

func toolVersion(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func refreshGo(ctx context.Context, tree *Tree, work string, opt *Options) (*Truth, error) {
	c := tree.Corpus
	root := tree.Root
	tr := &Truth{Module: c.Module, Version: c.Version, Toolchain: toolVersion(ctx, "go", "env", "GOVERSION")}
	funcs, err := goFuncs(root)
	if err != nil {
		return nil, err
	}
	defs, err := goTestDefs(root)
	if err != nil {
		return nil, err
	}
	pkgs, err := goTestPackages(ctx, root, c.Module)
	if err != nil {
		return nil, err
	}
	covered, err := goCovered(ctx, root, c.Module, work)
	if err != nil {
		return nil, err
	}
	bins := filepath.Join(work, "bin")
	if err := os.MkdirAll(bins, 0o755); err != nil {
		return nil, err
	}
	binOf := func(p goPkg) string {
		return filepath.Join(bins, strings.NewReplacer("/", "_", ".", "_").Replace(p.Dir)+".test")
	}
	// Baseline, twice.
	names := map[string][]string{}
	var runs [2]*runResult
	for i := range runs {
		runs[i] = &runResult{Tests: map[string]*outcome{}}
		for _, p := range pkgs {
			if i == 0 {
				if err := goBuildTest(ctx, root, p, binOf(p)); err != nil {
					return nil, err
				}
				if names[p.Dir], err = goListTests(ctx, binOf(p), filepath.Join(root, p.Dir)); err != nil {
					return nil, err
				}
			}
			if err := goRunTests(ctx, binOf(p), p, root, names[p.Dir], runs[i]); err != nil {
				return nil, err
			}
		}
	}
	universe, baselineFail := map[string]bool{}, map[string]bool{}
	for id, o := range runs[0].Tests {
		o2 := runs[1].Tests[id]
		switch {
		case o.Failed || o2 == nil || o2.Failed || !o.Ran || !o2.Ran:
			baselineFail[id] = true
		case o.Skipped || o2.Skipped:
		default:
			universe[id] = true
		}
	}
	for id := range universe {
		d, ok := defs[id]
		if !ok {
			d = Test{ID: id}
		}
		tr.Tests = append(tr.Tests, d)
	}
	sort.Slice(tr.Tests, func(a, b int) bool { return tr.Tests[a].ID < tr.Tests[b].ID })
	tr.BaselineFailing = sortedKeys(baselineFail)
	opt.logf("%s: baseline: %d tests in %d packages, %d failing or flaky", c.Name, len(universe), len(pkgs), len(baselineFail))

	var cands []fn
	for _, f := range funcs {
		if covered[f.key()] {
			cands = append(cands, f)
			if f.Exported {
				tr.Exported++
			}
		} else {
			tr.Uncovered++
		}
	}
	tr.Candidates = len(cands)
	target := c.Target
	if opt.Limit > 0 {
		target = min(target, opt.Limit)
	}
	opt.logf("%s: %d functions, %d run by the suite (%d exported), mutating %d", c.Name, len(funcs), len(cands), tr.Exported, target)
	tr.Mutants, err = runSample(cands, target, opt, func(f fn) (Mutant, error) {
		restore, err := goMutate(root, f)
		if err != nil {
			return Mutant{}, err
		}
		res := &runResult{Tests: map[string]*outcome{}}
		var expected []string
		var runErr error
		for _, p := range pkgs {
			if !p.Deps[f.Dir] {
				continue
			}
			if runErr = goBuildTest(ctx, root, p, binOf(p)); runErr != nil {
				break
			}
			if runErr = goRunTests(ctx, binOf(p), p, root, names[p.Dir], res); runErr != nil {
				break
			}
			for _, n := range names[p.Dir] {
				expected = append(expected, p.Dir+"::"+n)
			}
		}
		if err := restore(); err != nil {
			return Mutant{}, err
		}
		if runErr != nil {
			return Mutant{}, fmt.Errorf("mutant %s %s: %w", f.File, f.Name, runErr)
		}
		return mutantOf(f, res, expected, universe, baselineFail), nil
	})
	if err != nil {
		return nil, err
	}
	return tr, nil
}

func crashNote(m Mutant) string {
	s := ""
	if m.Crash != "" {
		s += ", crash: " + m.Crash
	}
	if m.TimedOut {
		s += ", timed out"
	}
	return s
}

func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func refreshPython(ctx context.Context, tree *Tree, work string, opt *Options) (*Truth, error) {
	c := tree.Corpus
	if c.Python != "" && tree.PyVersion != c.Python {
		return nil, fmt.Errorf("the corpus is pinned to Python %s; python3 is %s", c.Python, tree.PyVersion)
	}
	tr := &Truth{Module: "stdlib: " + strings.Join(c.PyModules, " "), Version: tree.PyVersion, Toolchain: "python " + tree.PyVersion}
	helpers := filepath.Join(work, "pyhelpers")
	if err := writePyHelpers(helpers); err != nil {
		return nil, err
	}
	runDir := filepath.Join(work, "run")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return nil, err
	}
	funcs, err := pyFuncs(ctx, tree, helpers)
	if err != nil {
		return nil, err
	}
	newRun := func() *pyRun {
		return &pyRun{t: tree, helpers: helpers, work: runDir, defs: map[string]Test{}, called: map[string]bool{}}
	}
	var runs [2]*runResult
	var base *pyRun
	for i := range runs {
		r := newRun()
		runs[i] = &runResult{Tests: map[string]*outcome{}}
		if err := r.run(ctx, nil, i == 0, runs[i]); err != nil {
			return nil, err
		}
		if len(r.importErr) > 0 || len(r.fixtures) > 0 {
			return nil, fmt.Errorf("baseline: import errors %v, fixture errors %v", r.importErr, r.fixtures)
		}
		if i == 0 {
			base = r
		}
	}
	universe, baselineFail := map[string]bool{}, map[string]bool{}
	for id, o := range runs[0].Tests {
		o2 := runs[1].Tests[id]
		switch {
		case o.Failed || o2 == nil || o2.Failed || !o.Ran || !o2.Ran:
			baselineFail[id] = true
		case o.Skipped || o2.Skipped:
		default:
			universe[id] = true
			tr.Tests = append(tr.Tests, base.defs[id])
		}
	}
	sort.Slice(tr.Tests, func(a, b int) bool { return tr.Tests[a].ID < tr.Tests[b].ID })
	tr.BaselineFailing = sortedKeys(baselineFail)
	expected := sortedKeys(universe)
	opt.logf("%s: baseline: %d tests, %d failing or flaky", c.Name, len(universe), len(baselineFail))

	var cands []fn
	for _, f := range funcs {
		if base.called[f.File+":"+fmt.Sprint(f.Offset)] {
			cands = append(cands, f)
			if f.Exported {
				tr.Exported++
			}
		} else {
			tr.Uncovered++
		}
	}
	tr.Candidates = len(cands)
	target := c.Target
	if opt.Limit > 0 {
		target = min(target, opt.Limit)
	}
	opt.logf("%s: %d functions, %d run by the suite (%d public), mutating %d", c.Name, len(funcs), len(cands), tr.Exported, target)
	tr.Mutants, err = runSample(cands, target, opt, func(f fn) (Mutant, error) {
		restore, mapLine, err := pyMutate(tree.Root, f)
		if err != nil {
			return Mutant{}, err
		}
		r := newRun()
		r.mutated, r.mapLine = f.File, mapLine
		res := &runResult{Tests: map[string]*outcome{}}
		runErr := r.run(ctx, nil, false, res)
		if err := restore(); err != nil {
			return Mutant{}, err
		}
		if runErr != nil {
			return Mutant{}, fmt.Errorf("mutant %s %s: %w", f.File, f.Name, runErr)
		}
		if len(r.importErr) > 0 || len(res.Tests) == 0 {
			res.Crash = "init"
		}
		// Tests whose class fixture failed never ran; give them the path
		// recorded in the fixture.
		for _, p := range r.orphanHits {
			parts := strings.Split(p, pathSep)
			last := parts[len(parts)-1]
			loc, qual, ok := strings.Cut(last, " ")
			if !ok || strings.HasPrefix(loc, "~") {
				continue
			}
			file, _, _ := strings.Cut(loc, ":")
			cls, _, ok := strings.Cut(qual, ".")
			if !ok {
				continue
			}
			prefix := strings.TrimSuffix(file, ".py") + "." + cls + "."
			for _, id := range expected {
				if o := res.get(id); strings.HasPrefix(id, prefix) && !o.Ran && o.Path == "" {
					o.Path = p
				}
			}
		}
		return mutantOf(f, res, expected, universe, baselineFail), nil
	})
	if err != nil {
		return nil, err
	}
	return tr, nil
}
