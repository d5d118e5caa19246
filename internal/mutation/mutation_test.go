package mutation

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go/parser"
	"go/token"
)

// TestScoreAgainstTruth scores ccd against the committed truth files: the
// ccd side only (fetch each corpus, index it, ask for the affected tests
// of every mutant at depth 3 and unlimited). It logs the figures and
// checks that the harness works, not that the goals are met.
func TestScoreAgainstTruth(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	var results []*Result
	for _, c := range Corpora {
		t.Run(c.Name, func(t *testing.T) {
			tr, err := LoadTruth(TruthPath(repo, c.Name))
			if err != nil {
				t.Fatalf("truth file: %v (compute it with `just mutation-refresh`)", err)
			}
			checkTruth(t, c, tr)
			r, err := Score(ctx, c, tr, ScoreOptions{Work: t.TempDir(), Recordings: filepath.Dir(TruthPath(repo, c.Name))})
			switch {
			case errors.Is(err, ErrSourceMismatch):
				t.Skipf("%v", err)
			case err != nil && fetchUnavailable(err):
				t.Skipf("corpus cannot be fetched here: %v", err)
			case err != nil:
				t.Fatal(err)
			}
			if len(r.Unlocated) > 0 {
				t.Errorf("%d mutants have no node in ccd's graph: %v", len(r.Unlocated), r.Unlocated)
			}
			if len(r.Depths) != len(Depths) {
				t.Fatalf("%d depth scores, want %d", len(r.Depths), len(Depths))
			}
			for _, d := range r.Depths {
				if d.Mutants != len(tr.Mutants)-len(r.Crashed)-len(r.Unlocated) || d.Mutants == 0 {
					t.Errorf("depth %d: %d mutants scored of %d", d.Depth, d.Mutants, len(tr.Mutants))
				}
				if d.TP+d.FN == 0 {
					t.Errorf("depth %d: no failing test in any mutant", d.Depth)
				}
				if d.Precision < 0 || d.Precision > 1 || d.Recall < 0 || d.Recall > 1 {
					t.Errorf("depth %d: precision %v recall %v out of range", d.Depth, d.Precision, d.Recall)
				}
				missed := 0
				for _, cs := range d.Causes {
					missed += cs.Pairs
				}
				if missed != d.FN {
					t.Errorf("depth %d: causes account for %d missed pairs of %d", d.Depth, missed, d.FN)
				}
				t.Logf("%s depth %s: %d mutants (%d with failing tests): precision %.2f recall %.2f (macro %.2f / %.2f), silent misses %d (%s of mutants), names tests none fail %d; index %s, scoring %s",
					c.Name, depthName(d.Depth), d.Mutants, d.WithFailing, d.Precision, d.Recall, d.MacroPrecision, d.MacroRecall,
					d.Silent, pct(d.Silent, d.Mutants), d.NamedNoneFail, r.Index.Round(time.Millisecond), r.Elapsed.Round(time.Millisecond))
				for i, cs := range d.Causes {
					if i < 4 {
						t.Logf("  missed %d pairs: %s", cs.Pairs, cs.Name)
					}
				}
			}
			// With the corpus's recording of its suite (made by
			// core/testmap before any mutant), affected tests are the
			// tests seen running the function: a floor under the
			// figures MUTATION.md reports.
			if r.Recorded == nil {
				t.Fatalf("no recording at %s: make it with `go run ./internal/mutation/cmd/ccd-mutation --record`", RecordingPath(filepath.Dir(TruthPath(repo, c.Name)), c.Name))
			}
			d := r.Recorded
			t.Logf("%s with the recording: precision %.2f recall %.2f, silent misses %d", c.Name, d.Precision, d.Recall, d.Silent)
			if d.Precision < 0.95 || d.Recall < 0.95 || d.Silent > d.Mutants/20 {
				t.Errorf("%s with the recording: precision %.2f recall %.2f silent misses %d of %d; want at least 0.95, 0.95 and under 5%%",
					c.Name, d.Precision, d.Recall, d.Silent, d.Mutants)
			}
			results = append(results, r)
		})
	}
	if len(results) > 0 {
		md := Markdown(results, ReportInfo{Command: "go test ./internal/mutation", Scoring: time.Since(start)})
		if !strings.Contains(md, "| **all** |") && len(results) > 1 {
			t.Errorf("report has no total row")
		}
		t.Logf("scored %d corpora in %s", len(results), time.Since(start).Round(time.Millisecond))
	}
}

// checkTruth checks a truth file is whole: it names its tests, every
// failing test is one of them, every mutant says where it is.
func checkTruth(t *testing.T, c Corpus, tr *Truth) {
	t.Helper()
	if tr.Corpus != c.Name || tr.Lang != c.Lang {
		t.Fatalf("truth is for %s/%s, want %s/%s", tr.Corpus, tr.Lang, c.Name, c.Lang)
	}
	if c.Lang == "go" && tr.Version != c.Version {
		t.Fatalf("truth is for %s %s, the corpus pins %s", c.Module, tr.Version, c.Version)
	}
	if len(tr.Tests) == 0 || len(tr.Mutants) == 0 {
		t.Fatalf("truth has %d tests and %d mutants", len(tr.Tests), len(tr.Mutants))
	}
	known := map[string]bool{}
	for _, x := range tr.Tests {
		known[x.ID] = true
	}
	for _, m := range tr.Mutants {
		if m.File == "" || m.Name == "" || m.Line <= 0 {
			t.Errorf("mutant without a location: %+v", m)
		}
		for _, id := range append(append([]string{}, m.Failing...), m.Reached...) {
			if !known[id] {
				t.Errorf("mutant %s: test %q is not among the suite's tests", m.Name, id)
			}
		}
	}
}

// fetchUnavailable: no network and no module cache, or no python3.
func fetchUnavailable(err error) bool {
	s := err.Error()
	return errors.Is(err, exec.ErrNotFound) || strings.Contains(s, "go mod download") || strings.Contains(s, "python3")
}

func TestSampleIsDeterministic(t *testing.T) {
	var cands []fn
	for i := range 50 {
		cands = append(cands, fn{File: "a.go", Line: i + 1, Name: string(rune('a' + i%26)), Exported: i%3 == 0})
	}
	a, b := sample(cands, 20, 16), sample(cands, 20, 16)
	if len(a) != 20 {
		t.Fatalf("sampled %d, want 20", len(a))
	}
	exp := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("samples differ at %d: %+v vs %+v", i, a[i], b[i])
		}
		if a[i].Exported {
			exp++
		}
	}
	if exp != 15 {
		t.Errorf("%d exported functions sampled, want 15 (three quarters)", exp)
	}
	if c := sample(cands, 20, 17); equalFns(a, c) {
		t.Errorf("another seed gives the same sample")
	}
}

func equalFns(a, b []fn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGoMutateKeepsLinesAndParses: the failing statement goes right after
// the body's brace, on the same line, for the shapes that need care.
func TestGoMutateKeepsLinesAndParses(t *testing.T) {
	root := t.TempDir()
	src := `package p

type List[T any] struct{ xs []T }

// Len has a doc comment.
func (l *List[T]) Len() int { return len(l.xs) }

func named() (n int, err error) {
	n = 1
	return
}

func empty() {}

func init() { _ = 1 }

func multi(
	a int,
) int { // trailing comment
	return a
}
`
	if err := os.WriteFile(filepath.Join(root, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fns, err := goFuncs(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range fns {
		got[f.Name] = f.Line
	}
	want := map[string]int{"List.Len": 6, "named": 8, "empty": 13, "multi": 17}
	if len(got) != len(want) {
		t.Errorf("functions %v, want %v (init left out)", got, want)
	}
	for name, line := range want {
		if got[name] != line {
			t.Errorf("%s at line %d, want %d", name, got[name], line)
		}
	}
	for _, f := range fns {
		restore, err := goMutate(root, f)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(root, "p.go"))
		if strings.Count(string(b), "\n") != strings.Count(src, "\n") {
			t.Errorf("%s: mutation moved lines", f.Name)
		}
		if !strings.Contains(string(b), `panic("ccd-mutant")`) {
			t.Errorf("%s: no panic inserted", f.Name)
		}
		fset := token.NewFileSet()
		if _, err := parser.ParseFile(fset, "p.go", b, 0); err != nil {
			t.Errorf("%s: mutated file does not parse: %v\n%s", f.Name, err, b)
		}
		helper, _ := os.ReadFile(filepath.Join(root, "zz_ccd_mutant_hit.go"))
		if _, err := parser.ParseFile(fset, "zz.go", helper, 0); err != nil {
			t.Errorf("helper does not parse: %v", err)
		}
		if err := restore(); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "p.go")); string(b) != src {
			t.Errorf("%s: restore left the file changed", f.Name)
		}
		if _, err := os.Stat(filepath.Join(root, "zz_ccd_mutant_hit.go")); err == nil {
			t.Errorf("%s: restore left the helper", f.Name)
		}
	}
}

// TestPyMutate: the failing statement goes after the docstring, also for
// one-line bodies, docstring-only bodies and decorated methods, and the
// line mapping undoes the inserted line.
func TestPyMutate(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	root := t.TempDir()
	src := `import functools

def one(): return 1

def doc_only():
    """Nothing else."""

class C:
    @functools.cache
    def m(self, x):
        """Doc."""
        if x:
            return x
        return 0

    def two(self): x = 1; return x
`
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	helpers := filepath.Join(t.TempDir(), "h")
	if err := writePyHelpers(helpers); err != nil {
		t.Fatal(err)
	}
	tree := &Tree{Corpus: Corpus{PyModules: []string{"m"}}, Root: root, Python: python}
	fns, err := pyFuncs(context.Background(), tree, helpers)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]fn{}
	for _, f := range fns {
		names[f.Name] = f
	}
	for _, n := range []string{"one", "doc_only", "C.m", "C.two"} {
		if _, ok := names[n]; !ok {
			t.Fatalf("no function %s in %v", n, fns)
		}
	}
	if f := names["C.m"]; f.Line != 10 || f.Offset != 9 {
		t.Errorf("C.m: def line %d, first line %d; want 10 and 9 (the decorator)", f.Line, f.Offset)
	}
	for _, f := range fns {
		restore, mapLine, err := pyMutate(root, f)
		if err != nil {
			t.Fatal(err)
		}
		// The mutant must compile and raise when called.
		call := map[string]string{"one": "m.one()", "doc_only": "m.doc_only()", "C.m": "m.C().m(1)", "C.two": "m.C().two()"}[f.Name]
		script := "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\nimport m\ntry:\n    " + call +
			"\nexcept RuntimeError as e:\n    print(e)\n"
		out, err := exec.Command(python, "-S", "-c", script, root, helpers).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "ccd-mutant" {
			b, _ := os.ReadFile(filepath.Join(root, "m.py"))
			t.Errorf("%s: %v %s\n%s", f.Name, err, out, b)
		}
		if f.Name == "C.m" {
			// A new line before line 12 (if x:): 12 is the statement, 13 is
			// the old 12.
			if mapLine(12) != 10 || mapLine(13) != 12 || mapLine(11) != 11 {
				t.Errorf("C.m line map: 11->%d 12->%d 13->%d", mapLine(11), mapLine(12), mapLine(13))
			}
		}
		if err := restore(); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "m.py")); string(b) != src {
		t.Errorf("restore left the file changed")
	}
}

func TestIdentIndex(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       int
	}{
		{"h := http.HandlerFunc(mx.routeHTTP)", "routeHTTP", 25},
		{"mx.routeHTTPX(w, r)", "routeHTTP", -1},
		{"NewDecoder(r).Decode(v)", "Decode", 14},
		{"lx.state = lx.state(lx)", "lexTop", -1},
	} {
		if got := identIndex(c.text, c.name); got != c.want {
			t.Errorf("identIndex(%q, %q) = %d, want %d", c.text, c.name, got, c.want)
		}
	}
}

// TestGoRunMutant runs a mutant end to end on a small module: a panic
// kills the binary and the run resumes; paused parallel tests are not
// blamed; a test that replaces os.Stderr still gets its path; a test that
// recovers the panic reached the function without failing.
func TestGoRunMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n",
		"m.go": `package m

func Double(x int) int { return 2 * x }

func Quad(x int) int { return Double(Double(x)) }
`,
		"m_test.go": `package m

import (
	"os"
	"testing"
)

func TestA(t *testing.T) {
	if Quad(1) != 4 {
		t.Fatal("quad")
	}
}

func TestParallel(t *testing.T) {
	t.Parallel()
}

func TestQuiet(t *testing.T) {
	old := os.Stderr
	os.Stderr = nil
	defer func() { os.Stderr = old }()
	_ = Double(2)
}

func TestRecovers(t *testing.T) {
	defer func() { recover() }()
	_ = Double(3)
}

func TestUnrelated(t *testing.T) {}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	pkgs, err := goTestPackages(ctx, root, "example.com/m")
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("packages %v, %v", pkgs, err)
	}
	fns, err := goFuncs(root)
	if err != nil {
		t.Fatal(err)
	}
	var double fn
	for _, f := range fns {
		if f.Name == "Double" {
			double = f
		}
	}
	restore, err := goMutate(root, double)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	bin := filepath.Join(t.TempDir(), "m.test")
	if err := goBuildTest(ctx, root, pkgs[0], bin); err != nil {
		t.Fatal(err)
	}
	names, err := goListTests(ctx, bin, root)
	if err != nil {
		t.Fatal(err)
	}
	res := &runResult{Tests: map[string]*outcome{}}
	if err := goRunTests(ctx, bin, pkgs[0], root, names, res); err != nil {
		t.Fatal(err)
	}
	universe := map[string]bool{}
	var expected []string
	for _, n := range names {
		universe[".::"+n] = true
		expected = append(expected, ".::"+n)
	}
	m := mutantOf(double, res, expected, universe, nil)
	if got := strings.Join(m.Failing, " "); got != ".::TestA .::TestQuiet" {
		t.Errorf("failing %q, want TestA and TestQuiet", got)
	}
	if got := strings.Join(m.Reached, " "); got != ".::TestRecovers" {
		t.Errorf("reached %q, want TestRecovers", got)
	}
	if p := m.Paths[".::TestA"]; p != "m.go:3 Double < m.go:5 Quad < m_test.go:9 TestA" {
		t.Errorf("TestA's path %q", p)
	}
	if p := m.Paths[".::TestQuiet"]; !strings.HasSuffix(p, "TestQuiet") {
		t.Errorf("TestQuiet's path %q", p)
	}
}

func TestCompactPath(t *testing.T) {
	in := "t.go:3 f < t.go:9 g < t.go:7 g < t.go:9 g < t.go:7 g < t.go:20 h < x_test.go:5 TestX"
	if got, want := compactPath(in), "t.go:3 f < t.go:9 g < t.go:7 g < t.go:20 h < x_test.go:5 TestX"; got != want {
		t.Errorf("compactPath = %q, want %q", got, want)
	}
}

// TestRunSampleReplacesInitCrashes: a mutant that crashes at
// initialisation does not count; the sample grows until target count.
func TestRunSampleReplacesInitCrashes(t *testing.T) {
	var cands []fn
	for i := range 40 {
		cands = append(cands, fn{File: "a.go", Line: i + 1, Name: "f", Exported: i%2 == 0})
	}
	crashes := map[int]bool{}
	for _, f := range sample(cands, 10, 16)[:3] {
		crashes[f.Line] = true
	}
	ms, err := runSample(cands, 10, &Options{Seed: 16}, func(f fn) (Mutant, error) {
		m := Mutant{File: f.File, Name: f.Name, Line: f.Line}
		if crashes[f.Line] {
			m.Crash = "init"
		}
		return m, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	counted, seen := 0, map[int]bool{}
	for _, m := range ms {
		if seen[m.Line] {
			t.Errorf("line %d mutated twice", m.Line)
		}
		seen[m.Line] = true
		if m.Crash == "" {
			counted++
		}
	}
	if counted != 10 || len(ms) != 13 {
		t.Errorf("%d mutants, %d counted; want 13 and 10", len(ms), counted)
	}
}

func TestFrameQual(t *testing.T) {
	for in, want := range map[string]string{
		"(*Mux).routeHTTP.func1":    "Mux.routeHTTP",
		"RealIP.func1.2":            "RealIP",
		"List[...].Len":             "List.Len",
		"C.m.<locals>.inner":        "C.m",
		"TestGetHead.func2":         "TestGetHead",
		"PrettyPrinter._pprint_str": "PrettyPrinter._pprint_str",
	} {
		if got := frameQual(in); got != want {
			t.Errorf("frameQual(%q) = %q, want %q", in, got, want)
		}
	}
}
