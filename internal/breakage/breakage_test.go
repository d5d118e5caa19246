package breakage

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestScoreAgainstTruth scores ccd against the committed truth files: the
// ccd side only (fetch each corpus, index it, apply every mutation and ask
// for the card's per-site verdicts). It logs the figures and checks that
// the harness works, not that the goals are met.
func TestScoreAgainstTruth(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	var mu sync.Mutex
	var results []*Result
	t.Run("corpora", func(t *testing.T) {
		for _, c := range Corpora {
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				scoreCorpus(ctx, t, repo, c, func(r *Result) {
					mu.Lock()
					results = append(results, r)
					mu.Unlock()
				})
			})
		}
	})
	if len(results) == 0 {
		return
	}
	// Report order, whatever order the corpora finished in.
	order := map[string]int{}
	for i, c := range Corpora {
		order[c.Name] = i
	}
	sort.Slice(results, func(i, j int) bool { return order[results[i].Corpus.Name] < order[results[j].Corpus.Name] })
	s := Summarize(results)
	for _, l := range Langs {
		if x := s.ByLang[l]; x != nil {
			t.Logf("%s: precision %.3f recall %.3f (%d of %d checker sites), %d false alarms on %d compatible changes", langName[l], x.Precision(), x.Recall(), x.TP, x.TruthSites, x.FalseAlarms, x.Compatible)
		}
	}
	md := Markdown(results, ReportInfo{Command: "go test ./internal/breakage", Scoring: time.Since(start)})
	for _, want := range []string{"## Summary", "## By kind of change", "## Missed breaks"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// scoreCorpus scores one corpus against its truth file and checks the
// harness worked.
func scoreCorpus(ctx context.Context, t *testing.T, repo string, c Corpus, done func(*Result)) {
	tr, err := LoadTruth(TruthPath(repo, c.Name))
	if err != nil {
		t.Fatalf("truth file: %v (compute it with `just breakage-refresh`)", err)
	}
	if tr.Corpus != c.Name || tr.Lang != c.Lang || tr.Source != c.Source() || len(tr.Mutations) == 0 {
		t.Fatalf("truth file is for %s/%s %s with %d mutations; the corpus is %s/%s %s", tr.Corpus, tr.Lang, tr.Source, len(tr.Mutations), c.Name, c.Lang, c.Source())
	}
	r, err := Score(ctx, c, tr, ScoreOptions{Work: t.TempDir()})
	switch {
	case errors.Is(err, ErrSourceMismatch):
		t.Skipf("%v", err)
	case errors.Is(err, ErrFetch):
		t.Skipf("%v", err)
	case err != nil:
		t.Fatal(err)
	}
	if len(r.Muts) != len(tr.Mutations) {
		t.Fatalf("%d mutations answered of %d", len(r.Muts), len(tr.Mutations))
	}
	// A function that had a node when the truth was computed has one
	// now: the graph is the same.
	for _, mr := range r.Muts {
		if mr.M.Func != "" && !mr.Located {
			t.Errorf("%s: %s is not in ccd's graph", mr.M.ID, mr.M.Func)
		}
		if got := len(mr.TP) + len(mr.FN); got != truthSites(mr.M) {
			t.Errorf("%s: %d checker sites scored, the truth has %d", mr.M.ID, got, truthSites(mr.M))
		}
	}
	s := Summarize([]*Result{r}).All
	if s.TruthSites == 0 {
		t.Errorf("no call breaks in any mutation")
	}
	if s.Compatible == 0 {
		t.Errorf("no compatible change")
	}
	t.Logf("%s: %d mutations (%d break some call): checker %d sites, ccd \"will break\" %d: precision %.3f recall %.3f; %d false alarms on %d compatible changes; %d \"may break\" sites; %d no node, %d unread; index %s, scoring %s",
		c.Name, s.Mutations, s.Breaking, s.TruthSites, s.Predicted, s.Precision(), s.Recall(), s.FalseAlarms, s.Compatible, s.Unknown,
		s.Unlocated, s.Unchecked, r.Index.Round(time.Millisecond), r.Elapsed.Round(time.Millisecond))
	done(r)
}

// truthSites counts a mutation's broken calls as scoring keys them.
func truthSites(m *Mutation) int {
	seen := map[siteKey]bool{}
	for _, s := range m.Breaks {
		seen[siteKey{s.File, s.Line}] = true
	}
	return len(seen)
}

// TestGoMutations checks the Go signature changes on small functions.
func TestGoMutations(t *testing.T) {
	src := `package p

func a(x int, y string) (int, error) {
	if x > 0 {
		return x, nil
	}
	return 0, nil
}

func b(xs ...int) {}

func c(x, y int) int { return x + y }
`
	want := map[string][]string{
		"a": {
			"add-required: func a(x int, y string, ccdExtra int) (int, error) {",
			"add-optional: func a(x int, y string, ccdOpts ...int) (int, error) {",
			"remove-last: func a(x int) (int, error) {",
			"reorder: func a(y string, x int) (int, error) {",
			"add-result: func a(x int, y string) (int, error, error) {",
			"drop-result: func a(x int, y string) (int) {",
		},
		"b": {
			"add-required: func b(ccdExtra int, xs ...int) {}",
			"remove-last: func b() {}",
			"add-result: func b(xs ...int) error {}",
		},
		"c": {
			"add-required: func c(x, y int, ccdExtra int) int { return x + y }",
			"add-optional: func c(x, y int, ccdOpts ...int) int { return x + y }",
			"remove-last: func c(x int) int { return x + y }",
			"reorder: func c(y, x int) int { return x + y }",
			"add-result: func c(x, y int) (int, error) { return x + y, nil }",
			"drop-result: func c(x, y int) { return }",
		},
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		var got []string
		for _, m := range goMutations(fset, fd, []byte(src)) {
			out, err := spliceEdits([]byte(src), m.Edits)
			if err != nil {
				t.Fatalf("%s %s: %v", fd.Name.Name, m.Kind, err)
			}
			got = append(got, m.Kind+": "+lineAt(out, fset.Position(fd.Pos()).Line))
		}
		if strings.Join(got, "\n") != strings.Join(want[fd.Name.Name], "\n") {
			t.Errorf("%s:\ngot\n\t%s\nwant\n\t%s", fd.Name.Name, strings.Join(got, "\n\t"), strings.Join(want[fd.Name.Name], "\n\t"))
		}
	}
}

func TestSpliceEditsKeepsLines(t *testing.T) {
	src := []byte("a\nbc\nd\n")
	if _, err := spliceEdits(src, []Edit{{Off: 2, Old: "bc\n", New: ""}}); err == nil {
		t.Errorf("an edit removing a line was accepted")
	}
	if _, err := spliceEdits(src, []Edit{{Off: 2, Old: "xx", New: ""}}); err == nil {
		t.Errorf("an edit whose old text is not there was accepted")
	}
	out, err := spliceEdits(src, []Edit{{Off: 2, Old: "b", New: "B"}, {Off: 3, Old: "c", New: "CC"}})
	if err != nil || string(out) != "a\nBCC\nd\n" {
		t.Errorf("got %q, %v", out, err)
	}
}
