package index

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
)

// corpora are real trees every machine has: GOROOT/src and the Python
// standard library (without site-packages).
func corpora(b *testing.B) map[string]string {
	b.Helper()
	out := map[string]string{"goroot": filepath.Join(runtime.GOROOT(), "src")}
	if py, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output(); err == nil {
		out["pystdlib"] = strings.TrimSpace(string(py))
	}
	return out
}

func benchConfig() config.Config {
	cfg := config.Default()
	cfg.SkipDirs = append(cfg.SkipDirs, "site-packages")
	return cfg
}

// BenchmarkFloor is the raw tree-sitter parse of the files Build parses,
// with the same workers: what extraction and resolution are measured against.
func BenchmarkFloor(b *testing.B) {
	for name, dir := range corpora(b) {
		b.Run(name, func(b *testing.B) {
			if _, err := os.Stat(dir); err != nil {
				b.Skipf("no %s: %v", dir, err)
			}
			for i := 0; i < b.N; i++ {
				n, _, err := ParseFloor(dir, benchConfig())
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(n), "files")
			}
		})
	}
}

// BenchmarkBuild is a full index: discovery, parse, extraction, resolution.
func BenchmarkBuild(b *testing.B) {
	for name, dir := range corpora(b) {
		b.Run(name, func(b *testing.B) {
			if _, err := os.Stat(dir); err != nil {
				b.Skipf("no %s: %v", dir, err)
			}
			for i := 0; i < b.N; i++ {
				res, err := Build(dir, benchConfig())
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(res.Graph.Nodes)), "nodes")
				b.ReportMetric(float64(res.Graph.NumEdges()), "edges")
				b.ReportMetric(float64(res.Summary.ParseTime.Milliseconds()), "parse-ms")
				b.ReportMetric(float64(res.Summary.ResolveTime.Milliseconds()), "resolve-ms")
			}
		})
	}
}

// BenchmarkUpdateOneFile measures an incremental update after one edit in a
// copy of GOROOT/src/net/http (CCD_BENCH_ROOT overrides the source tree).
func BenchmarkUpdateOneFile(b *testing.B) {
	src := os.Getenv("CCD_BENCH_ROOT")
	if src == "" {
		src = filepath.Join(runtime.GOROOT(), "src", "net", "http")
	}
	root := filepath.Join(b.TempDir(), "ws")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		b.Fatalf("copy: %v %s", err, out)
	}
	res, err := Build(root, benchConfig())
	if err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(root, "server.go")
	if _, err := os.Stat(target); err != nil {
		target = filepath.Join(root, res.Files[0].Path)
	}
	rel, _ := filepath.Rel(root, target)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, _ := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("\n// edit\n")
		f.Close()
		next, _, err := res.Update([]string{filepath.ToSlash(rel)})
		if err != nil {
			b.Fatal(err)
		}
		res = next
	}
}

// BenchmarkEditOneFile measures UpdateFiles (the daemon's path for reported
// writes) after one edit of one file, in a copy of each corpus
// (CCD_BENCH_ROOT replaces them; CCD_BENCH_FILE picks the file, relative
// to the root). "body" adds a call inside a function body, "surface"
// appends a new function. It reports the median and the 99th percentile;
// CCD_BENCH_PAUSE_MS spaces the edits out, CCD_BENCH_IDLEGC collects
// garbage before each edit (as the daemon does between edits),
// CCD_BENCH_WARMUP makes untimed edits first, CCD_BENCH_SLOW logs edits
// over 50 ms with their page faults.
func BenchmarkEditOneFile(b *testing.B) {
	roots := corpora(b)
	if r := os.Getenv("CCD_BENCH_ROOT"); r != "" {
		roots = map[string]string{"root": r}
	}
	defaults := map[string]string{"goroot": "net/http/server.go", "pystdlib": "argparse.py"}
	for name, src := range roots {
		b.Run(name, func(b *testing.B) {
			if _, err := os.Stat(src); err != nil {
				b.Skipf("no %s: %v", src, err)
			}
			root := filepath.Join(b.TempDir(), "ws")
			if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
				b.Fatalf("copy: %v %s", err, out)
			}
			res, err := Build(root, benchConfig())
			if err != nil {
				b.Fatal(err)
			}
			rel := os.Getenv("CCD_BENCH_FILE")
			if rel == "" {
				rel = defaults[name]
			}
			if rel == "" {
				rel = res.Files[len(res.Files)/2].Path
			}
			for _, kind := range []string{"body", "surface"} {
				// The build's garbage is not the edits' to collect: edits
				// come well after a build in practice.
				runtime.GC()
				b.Run(kind, func(b *testing.B) {
					res = editLoop(b, res, root, rel, kind)
				})
			}
		})
	}
}

func editLoop(b *testing.B, res *Result, root, rel, kind string) *Result {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	orig, err := os.ReadFile(abs)
	if err != nil {
		b.Fatal(err)
	}
	py := strings.HasSuffix(rel, ".py")
	var took, parse, resolveT []time.Duration
	modes := map[string]int{}
	b.ResetTimer()
	pause, _ := strconv.Atoi(os.Getenv("CCD_BENCH_PAUSE_MS"))
	// CCD_BENCH_WARMUP edits first, untimed: the first updates after a
	// build share the machine with the collection of the build's garbage.
	warm, _ := strconv.Atoi(os.Getenv("CCD_BENCH_WARMUP"))
	for i := 0; i < warm; i++ {
		os.WriteFile(abs, []byte(insertInBody(string(orig), py, 1_000_000+i)), 0o644)
		next, _, ok, err := res.UpdateFiles([]string{rel})
		if err != nil || !ok {
			b.Fatalf("UpdateFiles: ok=%v err=%v", ok, err)
		}
		res = next
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// Edits come seconds apart in practice: a pause lets a collection
		// started by the last update finish, as it would between saves.
		time.Sleep(time.Duration(pause) * time.Millisecond)
		if os.Getenv("CCD_BENCH_IDLEGC") != "" {
			runtime.GC() // as the daemon's idle collection would, between edits
		}
		text := string(orig)
		switch {
		case kind == "surface" && py:
			text += fmt.Sprintf("\n\ndef bench_added_%d(x):\n    return len(x)\n", i)
		case kind == "surface":
			text += fmt.Sprintf("\nfunc BenchAdded%d(x string) int { return len(x) }\n", i)
		default:
			text = insertInBody(text, py, i)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		t0 := time.Now()
		next, _, ok, err := res.UpdateFiles([]string{rel})
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		if err != nil || !ok {
			b.Fatalf("UpdateFiles: ok=%v err=%v", ok, err)
		}
		took = append(took, time.Since(t0))
		if d := took[len(took)-1]; d > 50*time.Millisecond && os.Getenv("CCD_BENCH_SLOW") != "" {
			b.Logf("slow edit %d: %v faults %d (parse %v resolve %v) %+v", i, d, ru1.Minflt-ru0.Minflt, next.Summary.ParseTime, next.Summary.ResolveTime, next.ResolveStats())
		}
		parse = append(parse, next.Summary.ParseTime)
		resolveT = append(resolveT, next.Summary.ResolveTime)
		modes[next.ResolveStats().Mode]++
		res = next
	}
	b.StopTimer()
	os.WriteFile(abs, orig, 0o644)
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[(len(took)*99)/100].Microseconds())/1000, "p99-ms")
	slices.Sort(parse)
	slices.Sort(resolveT)
	p99 := func(ds []time.Duration) time.Duration { return ds[(len(ds)*99)/100] }
	b.Logf("%s %s: %d edits, modes %v, last %+v; read+parse p50 %v p99 %v, resolve+splice p50 %v p99 %v", rel, kind,
		len(took), modes, res.ResolveStats(), parse[len(parse)/2], p99(parse), resolveT[len(resolveT)/2], p99(resolveT))
	return res
}

// insertInBody adds a call as the first statement of the i-th function
// (cycling) of a Go or Python source text.
func insertInBody(text string, py bool, i int) string {
	lines := strings.Split(text, "\n")
	var at []int
	for k, l := range lines {
		if (py && strings.HasPrefix(strings.TrimSpace(l), "def ") && strings.HasSuffix(l, ":")) ||
			(!py && strings.HasPrefix(l, "func ") && strings.HasSuffix(l, "{")) {
			at = append(at, k)
		}
	}
	if len(at) == 0 {
		return text + "\n"
	}
	k := at[i%len(at)]
	stmt := fmt.Sprintf("\tprintln(%d)", i)
	if py {
		ind := lines[k][:len(lines[k])-len(strings.TrimLeft(lines[k], " "))]
		stmt = ind + fmt.Sprintf("    print(%d)", i)
	}
	return strings.Join(slices.Insert(lines, k+1, stmt), "\n")
}
