package index

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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
				b.ReportMetric(float64(len(res.Graph.Edges)), "edges")
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
