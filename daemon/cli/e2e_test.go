package cli_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBinary runs the built ccd binary: exit codes, and that results go to
// stdout and diagnostics to stderr.
func TestBinary(t *testing.T) {
	dir := pyFixture(t)

	t.Run("version from ldflags", func(t *testing.T) {
		r := runBin(t, "version")
		if r.code != 0 || r.stdout != "ccd "+testVersion+"\n" || r.stderr != "" {
			t.Errorf("version:\n%s", r)
		}
	})
	t.Run("export -q", func(t *testing.T) {
		r := runBin(t, "export", dir, "-q")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("export -q:\n%s", r)
		}
		checkExport(t, []byte(r.stdout), dir)
		// The binary and the in-process command line agree.
		if in := runOK(t, "export", dir, "-q"); in.stdout != r.stdout {
			t.Error("binary and in-process exports differ")
		}
	})
	t.Run("export with summary", func(t *testing.T) {
		r := runBin(t, "export", dir)
		if r.code != 0 {
			t.Fatalf("export:\n%s", r)
		}
		checkExport(t, []byte(r.stdout), dir) // stdout is the JSON alone
		if !strings.Contains(r.stderr, "languages: python 9") || strings.Contains(r.stderr, `"nodes"`) {
			t.Errorf("export: stderr should hold the summary only:\n%s", r.stderr)
		}
	})
	t.Run("export -o", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "graph.json")
		r := runBin(t, "export", dir, "-o", out, "-q")
		if r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Fatalf("export -o -q:\n%s", r)
		}
		checkExport(t, readFile(t, out), dir)
	})
	t.Run("impact", func(t *testing.T) {
		r := runBin(t, "impact", "total", "--root", dir, "--depth", "1")
		if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "Impact of total (func) shop/pricing.py:10\n") ||
			!strings.Contains(r.stdout, "Blast radius (depth 1): 3 symbols in 3 files that reach total") {
			t.Errorf("impact:\n%s", r)
		}
		r = runBin(t, "impact", "--json", "--root", dir, "total")
		var v map[string]any
		if r.code != 0 || r.stderr != "" || json.Unmarshal([]byte(r.stdout), &v) != nil || v["depth"] != 3.0 {
			t.Errorf("impact --json:\n%s", r)
		}
	})
	t.Run("symbol not found", func(t *testing.T) {
		r := runBin(t, "impact", "--root", dir, "Cart.ad")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "symbol not found") ||
			!strings.Contains(r.stderr, "Similar symbols:") || !strings.Contains(r.stderr, "Cart.add") {
			t.Errorf("impact Cart.ad:\n%s", r)
		}
	})
	t.Run("symbols", func(t *testing.T) {
		r := runBin(t, "symbols", "--root", dir, "amout")
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "Cart.Line.amount") {
			t.Errorf("symbols:\n%s", r)
		}
	})
	t.Run("index", func(t *testing.T) {
		r := runBin(t, "index", dir)
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "\n10 files: 9 parsed,") {
			t.Errorf("index:\n%s", r)
		}
	})
	t.Run("usage errors", func(t *testing.T) {
		for _, args := range [][]string{{}, {"frob"}, {"export"}, {"impact", "--root", dir, "total", "--min-confidence", "x"}, {"bench", "--mode", "x", dir}} {
			r := runBin(t, args...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage: ccd") {
				t.Errorf("ccd %v: want exit 2, usage on stderr, nothing on stdout; got\n%s", args, r)
			}
		}
	})
	t.Run("help", func(t *testing.T) {
		r := runBin(t, "help")
		if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "usage: ccd COMMAND") {
			t.Errorf("help:\n%s", r)
		}
	})
	t.Run("failures", func(t *testing.T) {
		empty := writeTree(t, map[string]string{"a.txt": "x\n"})
		r := runBin(t, "export", empty)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "no source files found") {
			t.Errorf("export of an empty tree:\n%s", r)
		}
		missing := filepath.Join(empty, "missing")
		r = runBin(t, "index", missing)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, missing) {
			t.Errorf("index of a missing dir:\n%s", r)
		}
	})
	t.Run("bench", func(t *testing.T) {
		for _, mode := range []string{"floor", "build"} {
			r := runBin(t, "bench", "--mode", mode, dir)
			var v struct {
				Mode     string  `json:"mode"`
				Files    int     `json:"files"`
				MaxRSSMB float64 `json:"max_rss_mb"`
			}
			if r.code != 0 || strings.Count(r.stdout, "\n") != 1 || json.Unmarshal([]byte(r.stdout), &v) != nil ||
				v.Mode != mode || v.Files <= 0 || v.MaxRSSMB <= 0 {
				t.Errorf("bench --mode %s:\n%s", mode, r)
			}
		}
	})
	// Without --mode, bench runs each phase in a fresh process of itself and
	// prints a Markdown table: only testable through the binary (in-process,
	// os.Executable is the test binary).
	t.Run("bench compare", func(t *testing.T) {
		r := runBin(t, "bench", "--runs", "1", dir)
		rows := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
		if r.code != 0 || len(rows) != 4 || !strings.HasPrefix(rows[0], "| corpus | files | phase |") {
			t.Fatalf("bench --runs 1 DIR:\n%s", r)
		}
		for i, phase := range []string{"floor", "build"} {
			if !strings.HasPrefix(rows[2+i], "| "+dir+" | 9 | "+phase+" | ") {
				t.Errorf("bench row %d: %q", 2+i, rows[2+i])
			}
		}
		if !strings.Contains(r.stderr, "floor "+dir+" run 1: ") || !strings.Contains(r.stderr, "build "+dir+" run 1: ") {
			t.Errorf("bench progress on stderr:\n%s", r.stderr)
		}
		for _, args := range [][]string{{"bench"}, {"bench", "--runs", "0", dir}} {
			if r := runBin(t, args...); r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage: ccd bench") {
				t.Errorf("ccd %v: want exit 2 with usage, got\n%s", args, r)
			}
		}
	})
	t.Run("negative limit", func(t *testing.T) {
		r := runBin(t, "symbols", "--root", dir, "amout", "--limit", "-1")
		if strings.Contains(r.stderr, "panic:") {
			t.Fatalf("regression: ccd symbols --limit -1 panics (exit %d): %s", r.code, strings.SplitN(r.stderr, "\n", 2)[0])
		}
		if r.code != 2 {
			t.Errorf("want exit 2:\n%s", r)
		}
	})
}

// exportTree exports dir in-process to a file and returns its bytes.
func exportTree(t *testing.T, dir string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "graph.json")
	start := time.Now()
	runOK(t, "export", dir, "-o", out, "-q")
	t.Logf("export %s: %v", dir, time.Since(start).Round(time.Millisecond))
	return readFile(t, out)
}

// TestExportDeterministicSelf exports this repository twice.
func TestExportDeterministicSelf(t *testing.T) {
	root := repoRoot(t)
	a := exportTree(t, root)
	b := exportTree(t, root)
	if !bytes.Equal(a, b) {
		// Others may edit the tree while the tests run: retry once before
		// calling it non-determinism.
		t.Logf("exports differ; retrying in case the tree changed in between")
		a, b = exportTree(t, root), exportTree(t, root)
		if !bytes.Equal(a, b) {
			t.Fatalf("two exports of %s differ (%d vs %d bytes)", root, len(a), len(b))
		}
	}
	g := checkExport(t, a, "")
	langs := map[string]int{}
	hasSelf := false
	for _, n := range g.Nodes {
		langs[n.Lang]++
		if n.ID == "daemon/cli/cli.go::Main" {
			hasSelf = true
		}
	}
	if !hasSelf || langs["go"] == 0 {
		t.Errorf("export of the repository lacks daemon/cli/cli.go::Main (languages %v)", langs)
	}
	t.Logf("%s: %d nodes, %d edges, %d bytes", root, len(g.Nodes), len(g.Edges), len(a))
}

func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(goTool(t), "env", "GOROOT").Output()
	if err == nil && strings.TrimSpace(string(out)) != "" {
		return strings.TrimSpace(string(out))
	}
	return runtime.GOROOT()
}

// TestExportDeterministicGOROOT exports $(go env GOROOT)/src with one worker
// and with the default number: the bytes must be the same.
func TestExportDeterministicGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes all of GOROOT/src (~30 s)")
	}
	src := filepath.Join(goroot(t), "src")
	other := "" // the default: one worker per CPU
	if runtime.NumCPU() == 1 {
		other = "4"
	}
	t.Setenv("CCD_WORKERS", "1")
	one := filepath.Join(t.TempDir(), "w1.json")
	start := time.Now()
	runOK(t, "export", src, "-o", one, "-q")
	t.Logf("CCD_WORKERS=1: %v", time.Since(start).Round(time.Millisecond))

	t.Setenv("CCD_WORKERS", other)
	many := filepath.Join(t.TempDir(), "wN.json")
	start = time.Now()
	runOK(t, "export", src, "-o", many, "-q")
	t.Logf("CCD_WORKERS=%q (NumCPU %d): %v", other, runtime.NumCPU(), time.Since(start).Round(time.Millisecond))

	a, b := readFile(t, one), readFile(t, many)
	if !bytes.Equal(a, b) {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		line := bytes.Count(a[:i], []byte("\n")) + 1
		t.Fatalf("exports of %s with CCD_WORKERS=1 and %q differ (%d vs %d bytes), first at line %d", src, other, len(a), len(b), line)
	}
	n := nodeLines(t, one)
	if n <= 50000 {
		t.Errorf("export of %s has %d nodes, want > 50000", src, n)
	}
	t.Logf("%s: %d nodes, %d bytes", src, n, len(a))
}
