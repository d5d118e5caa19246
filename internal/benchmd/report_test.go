package benchmd

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.md")

func msd(xs ...float64) []time.Duration {
	out := make([]time.Duration, len(xs))
	for i, x := range xs {
		out[i] = time.Duration(x * float64(time.Millisecond))
	}
	return out
}

func runs(walls, cpus, rss []float64) []Usage {
	out := make([]Usage, len(walls))
	for i := range walls {
		out[i] = Usage{Wall: msd(walls[i])[0], CPU: msd(cpus[i])[0], MaxRSSMB: rss[i]}
	}
	return out
}

// fixedReport is a report with made-up but consistent figures.
func fixedReport() *Report {
	c := &CorpusResult{
		Corpus: Corpus{Name: "GOROOT/src", Dir: "/usr/local/go/src"}, CopyBytes: 195 << 20,
		Files: 6909, Nodes: 98508, Edges: 366496,
		Target: Target{ExportNode: ExportNode{ID: "fmt/print.go::Sprintf", Path: "fmt/print.go"}, Callers: 5000, FromCode: 4000, Name: "Sprintf"},
		Cold: &Cold{Phases: []*Phase{
			{Name: "raw tree-sitter parse (floor)", Files: 6909, Workers: 2, Runs: runs([]float64{5600, 5500, 5800}, []float64{10000, 10100, 9900}, []float64{300, 310, 305})},
			{Name: "ccd full index", Files: 6909, Workers: 2, Nodes: 98508, Edges: 366496, Runs: runs([]float64{10630, 10500, 11000}, []float64{19000, 19500, 18800}, []float64{542, 540, 545})},
			{Name: "universal-ctags (definitions only, 1 thread)", Missing: "not installed"},
		}},
		DaemonUp: msd(60)[0], Init: msd(11500)[0], InitMS: 11400, SearchReady: msd(4000)[0],
		IdleRSSMB: 20, RestRSSMB: 510, AfterRSSMB: 530, Daemon: Usage{CPU: msd(40000)[0], MaxRSSMB: 700},
		Warm: &WarmResult{Ready: msd(950, 1050, 900), DaemonMS: Sample{850, 900, 870}, Warm: true},
		Edit: &EditResult{File: "fmt/print.go", Bytes: 31 * 1024, Client: msd(860, 900, 1800, 700), Daemon: Sample{820, 850, 1700, 690}, Floor: Sample{4, 4.2, 3.9}},
		Hooks: []*HookCase{
			{Name: "floor: no-op static binary", Floor: true, Client: msd(4, 4.5, 5, 7.2)},
			{Name: "`python3 -c 'import json,sys; json.load(sys.stdin)'`", Floor: true, Missing: "not installed"},
			{Name: "PreToolUse Read, no card (the common case)", Client: msd(7.7, 8, 9, 11.7), Daemon: Sample{0.2, 0.3, 0.25, 0.4}},
		},
		Queries: []*QueryCase{
			{Name: "floor: GET /v1/ping", Floor: true, First: msd(1)[0], Times: msd(0.3, 0.25, 0.4)},
			{Name: "impact (depth 3): GET /v1/impact", First: msd(40)[0], Times: msd(12, 11, 30)},
		},
	}
	return &Report{
		Machine: Machine{CPU: "AMD EPYC 7B13", Cores: 2, MemGB: 23.5, Kernel: "Linux 6.1", OS: "Debian GNU/Linux 12 (bookworm)",
			Go: "go1.26.8", CCD: "ccd 0.1.0", Commit: "abcdef123456", Python: "Python 3.11.7 (/usr/bin/python3)", Ctags: "not installed",
			Date: time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC), LoadFrom: [3]float64{6.8, 7.7, 8}, LoadTo: [3]float64{7, 7.5, 8.1}},
		Config:  Config{Runs: 3, HookIters: 4, QueryIters: 3, EditIters: 4, Command: "just bench"},
		Corpora: []*CorpusResult{c},
		GoBench: []GoBench{
			{Pkg: "github.com/ccd-dev/ccd/core/parse", Name: "BenchmarkGoParseOnly", Iters: 3, Metrics: []Metric{{4e8, "ns/op"}}},
			{Pkg: "github.com/ccd-dev/ccd/core/parse", Name: "BenchmarkGoExtract", Iters: 3, Metrics: []Metric{{6e8, "ns/op"}}},
		},
		LSPBench: []GoBench{
			{Pkg: "github.com/ccd-dev/ccd/core/lsp", Name: "BenchmarkApplyAfterEdit/capped/body-edit/Apply", Iters: 20, Metrics: []Metric{{5.5e8, "ns/op"}, {1.6e8, "B/op"}}},
			{Pkg: "github.com/ccd-dev/ccd/core/lsp", Name: "BenchmarkApplyAfterEdit/capped/body-edit/ApplyFiles", Iters: 20, Metrics: []Metric{{5.5e6, "ns/op"}, {8e6, "B/op"}}},
		},
		Elapsed: 14 * time.Minute,
	}
}

func TestReportGolden(t *testing.T) {
	got := fixedReport().Markdown()
	path := filepath.Join("testdata", "report.golden.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/benchmd -run Golden -update after reviewing the output)", err)
	}
	if got != string(want) {
		t.Errorf("report differs from %s (review, then -update):\n%s", path, got)
	}
}

// TestReportRatios checks the figures the report derives, independently of
// the golden file's layout.
func TestReportRatios(t *testing.T) {
	md := fixedReport().Markdown()
	for _, want := range []string{
		"| ccd full index | 6,909 | 2 | 10.63 s | 10.50 s–11.00 s | 1.90× | 19.00 s | 1.90× | 542 MB | 1.78× | 98,508 | 366,496 |",
		"| universal-ctags (definitions only, 1 thread) | not installed |",
		"| PreToolUse Read, no card (the common case) | 8.00 ms | 11.7 ms | 11.7 ms | 1.78× | 1.62× | 1.62× |",
		"| impact (depth 3): GET /v1/impact | 40.0 ms | 12.0 ms | 30.0 ms | 30.0 ms | 40.0× | 75.0× | 3 |",
		"| BenchmarkGoExtract | github.com/ccd-dev/ccd/core/parse | 3 | 600 ms | 1.50× |",
		"warm start: new process → ready from the db (reparsed 0) | 950 ms | 900 ms–1.05 s | raw parse 5.60 s | 0.17× |",
		"| GOROOT/src | 6,909 | 10.63 s (1.90×) | 950 ms (0.17×) | 860 ms (215×) | 8.00 ms (1.78×) | 12.0 ms (40.0×) | 510 MB (1.67×) |",
		"| capped | body-edit | 550 ms | 5.50 ms | 100× |",
		"just bench",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
