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
