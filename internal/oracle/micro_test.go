package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/internal/testrepo"
)

// repoRoot is the repository, two directories up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTracers runs each runtime tracer on a program of its conventions
// and compares every edge with the hand-written list in the fixture.
func TestTracers(t *testing.T) {
	repo := repoRoot(t)
	for _, tc := range []struct{ lang, fixture string }{
		{"python", "python.txtar"},
		{"javascript", "javascript.txtar"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ar := testrepo.Read(t, filepath.Join("testdata", "trace", tc.fixture))
			var want string
			for _, f := range ar.Files {
				if f.Name == "want" {
					want = strings.TrimSpace(string(f.Data))
				}
			}
			dir := testrepo.Write(t, ar, t.TempDir())
			var cmd *exec.Cmd
			if tc.lang == "python" {
				cmd = exec.Command("python3", filepath.Join(repo, "internal", "oracle", "trace", "pytrace.py"), dir)
			} else {
				tsc, err := TypeScriptAPI(repo, filepath.Join(repo, ".tools", "oracle"))
				if err != nil {
					t.Fatal(err)
				}
				cmd = exec.Command("node", filepath.Join(repo, "internal", "oracle", "trace", "jstrace.js"), dir)
				cmd.Env = append(os.Environ(), "CCD_ORACLE_TYPESCRIPT="+tsc)
			}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("tracer: %v", err)
			}
			var o Oracle
			if err := json.Unmarshal(out, &o); err != nil {
				t.Fatalf("tracer output: %v\n%s", err, out)
			}
			if len(o.Errors) > 0 {
				t.Errorf("tracer errors: %q", o.Errors)
			}
			if got := edgeLines(o.Edges); got != want {
				t.Errorf("edges:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// edgeLines writes the edges one per line, in the tracer's order (by
// site, then callee).
func edgeLines(es []OEdge) string {
	var lines []string
	for _, e := range es {
		site := fmt.Sprintf("%s:%d", e.File, e.Line)
		if len(e.Alt) > 0 {
			var alt []string
			for _, a := range e.Alt {
				alt = append(alt, fmt.Sprint(a))
			}
			site += " [" + strings.Join(alt, " ") + "]"
		}
		lines = append(lines, fmt.Sprintf("%s -> %s:%d %s %s", site, e.CalleeFile, e.CalleeLine, e.CalleeName, e.Kind))
	}
	return strings.Join(lines, "\n")
}

// microFloor is what the micro-benchmark must not fall below (measured
// with `just micro`, rounded down; raise them as ccd improves).
var microFloor = map[string]struct{ p, r float64 }{
	"python":     {0.95, 0.88},
	"javascript": {0.94, 0.80},
}

// TestMicroBenchmark builds ccd, runs every program of testdata/micro
// under its tracer, and holds each language's precision and recall above
// the floor. Every program must run cleanly: a program that fails
// records only part of its calls.
func TestMicroBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ccd and runs about 150 programs; not in -short")
	}
	repo := repoRoot(t)
	bin := filepath.Join(t.TempDir(), "ccd")
	build := exec.Command("go", "build", "-o", bin, "./daemon/ccd")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	rs, err := RunMicro(MicroConfig{Repo: repo, CCD: bin, Tools: filepath.Join(repo, ".tools", "oracle"),
		Dir: filepath.Join(repo, "testdata", "micro"), Work: t.TempDir(), Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]int{}
	for _, r := range rs {
		langs[r.Case.Lang]++
		if len(r.Errors) > 0 {
			t.Errorf("%s: %q", r.Case.ID(), r.Errors)
		}
		seen := 0
		for _, k := range r.Result.ByKind {
			seen += k.Oracle
		}
		if seen == 0 {
			t.Errorf("%s: the run recorded no call between the program's own functions", r.Case.ID())
		}
	}
	for lang, floor := range microFloor {
		if langs[lang] < 50 {
			t.Errorf("%s: %d programs, want at least 50", lang, langs[lang])
		}
		c := MicroTotals(rs, lang)
		t.Logf("%s: P %.3f R %.3f (%d ccd sites, %d runtime sites)", lang, c.Precision(), c.Recall(), c.CCD, c.Oracle)
		if c.Precision() < floor.p || c.Recall() < floor.r {
			t.Errorf("%s: precision %.3f recall %.3f, below the floor %.2f/%.2f (see `just micro`, MICRO.md)",
				lang, c.Precision(), c.Recall(), floor.p, floor.r)
		}
	}
}
