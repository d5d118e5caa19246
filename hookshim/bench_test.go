package hookshim

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchBins are built once per test binary.
var benchBins struct {
	once           sync.Once
	dir, err       string
	hook, noop, cc string
}

// TestMain removes what the benchmark built.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchBins.dir != "" {
		os.RemoveAll(benchBins.dir)
	}
	os.Exit(code)
}

func buildBenchBins(b *testing.B) {
	benchBins.once.Do(func() {
		dir, err := os.MkdirTemp("", "ccd-hook-bench-")
		if err != nil {
			benchBins.err = err.Error()
			return
		}
		benchBins.dir = dir
		os.WriteFile(filepath.Join(dir, "noop.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
		benchBins.hook, benchBins.noop = filepath.Join(dir, "ccd-hook"), filepath.Join(dir, "noop")
		builds := [][]string{{benchBins.hook, "./ccd-hook"}, {benchBins.noop, filepath.Join(dir, "noop.go")}}
		if benchBins.cc = os.Getenv("CCD_BENCH_CCD"); benchBins.cc == "" {
			benchBins.cc = filepath.Join(dir, "ccd")
			builds = append(builds, []string{benchBins.cc, "../daemon/ccd"})
		}
		for _, bl := range builds {
			cmd := exec.Command("go", "build", "-o", bl[0], bl[1])
			if !strings.HasSuffix(bl[0], "/ccd") {
				cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				benchBins.err = fmt.Sprintf("build %s: %v\n%s", bl[1], err, out)
				return
			}
		}
	})
	if benchBins.err != "" {
		b.Fatal(benchBins.err)
	}
}

// BenchmarkShimSpawn spawns the real ccd-hook against a real warm daemon
// with an event that yields no card, interleaved with the floor (a static
// no-op Go binary) and any other hook binaries named in CCD_BENCH_HOOKS
// ("name=path,…", e.g. an older build), so load hits all alike. Each
// round runs every binary once; it reports p50/p90/p99 wall time per
// binary and the median CPU time (user+sys) of the process, which a busy
// machine disturbs less. CCD_BENCH_CCD names a ccd binary to use instead
// of building one.
//
//	go test ./hookshim -run X -bench ShimSpawn -benchtime 500x
func BenchmarkShimSpawn(b *testing.B) {
	buildBenchBins(b)
	home, err := os.MkdirTemp("/tmp", "ccdhb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(home)
	env := append(os.Environ(), "CCD_HOME="+home, "CCD_EXE="+benchBins.cc, "CCD_SOCKET=", "XDG_RUNTIME_DIR=", "CCD_LSP=off",
		"CCD_NO_AUTOSTART=", "CLAUDE_PROJECT_DIR=", "CLAUDE_CONFIG_DIR=")
	event := []byte(`{"hook_event_name":"Nothing"}`)
	run := func(bin string) (wall, cpu time.Duration) {
		cmd := exec.Command(bin)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(event)
		var out bytes.Buffer
		cmd.Stdout = &out
		t0 := time.Now()
		err := cmd.Run()
		wall = time.Since(t0)
		if err != nil || out.Len() != 0 {
			b.Fatalf("%s: %v, stdout %q", bin, err, out.String())
		}
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	defer func() { // stop the daemon and let it finish writing its state
		pid, _ := os.ReadFile(filepath.Join(home, "daemon.pid"))
		cmd := exec.Command(benchBins.cc, "stop")
		cmd.Env = env
		cmd.Run()
		for i := 0; i < 250 && len(pid) > 0; i++ {
			st, err := os.ReadFile("/proc/" + strings.TrimSpace(string(pid)) + "/stat")
			if err != nil || strings.Contains(string(st), ") Z ") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	type bin struct {
		name, path string
		wall, cpu  []time.Duration
	}
	bins := []*bin{{name: "noop", path: benchBins.noop}, {name: "ccd-hook", path: benchBins.hook}}
	for _, kv := range strings.Split(os.Getenv("CCD_BENCH_HOOKS"), ",") {
		if name, path, ok := strings.Cut(kv, "="); ok {
			bins = append(bins, &bin{name: name, path: path})
		}
	}
	for i := 0; i < 20; i++ { // the first run starts the daemon; then warm up
		for _, bn := range bins {
			run(bn.path)
		}
	}
	if b, err := os.ReadFile(filepath.Join(home, "hook.log")); err == nil && len(b) > 0 {
		fmt.Fprintf(os.Stderr, "hook.log:\n%s", b)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bn := range bins {
			wall, cpu := run(bn.path)
			bn.wall, bn.cpu = append(bn.wall, wall), append(bn.cpu, cpu)
		}
	}
	b.StopTimer()
	for _, bn := range bins {
		q := func(ts []time.Duration, f float64) float64 {
			sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
			return float64(ts[int(f*float64(len(ts)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(q(bn.wall, 0.5), bn.name+"-p50-ms")
		b.ReportMetric(q(bn.wall, 0.9), bn.name+"-p90-ms")
		b.ReportMetric(q(bn.wall, 0.99), bn.name+"-p99-ms")
		b.ReportMetric(q(bn.cpu, 0.5), bn.name+"-cpu-p50-ms")
	}
	b.ReportMetric(0, "ns/op")
}
