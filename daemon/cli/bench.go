package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/index"
)

// benchResult is one measured phase, printed as a JSON line.
type benchResult struct {
	Mode     string  `json:"mode"`
	Root     string  `json:"root"`
	Workers  int     `json:"workers"`
	Files    int     `json:"files"`
	WallMS   float64 `json:"wall_ms"`
	CPUMS    float64 `json:"cpu_ms"`
	MaxRSSMB float64 `json:"max_rss_mb"`
	Nodes    int     `json:"nodes,omitempty"`
	Edges    int     `json:"edges,omitempty"`
	ParseMS  float64 `json:"parse_ms,omitempty"`
	ResolvMS float64 `json:"resolve_ms,omitempty"`
}

// runBench measures one phase in this process, so that peak RSS belongs to
// that phase alone: "floor" (raw tree-sitter parse of the same files with
// the same workers) or "build" (discover, parse, extract, resolve).
func runBench(c *ctx, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	mode := fs.String("mode", "", "measure one phase in this process: floor or build (default: compare both over --runs)")
	runs := fs.Int("runs", 3, "runs per phase when comparing")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *mode == "" {
		if len(pos) == 0 {
			return usageError{"want at least one directory"}
		}
		if *runs < 1 {
			return usageError{"--runs must be at least 1"}
		}
		return compare(c, pos, *runs)
	}
	if len(pos) != 1 {
		return usageError{"want exactly one directory"}
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	knobs, _ := config.LoadDaemon()
	if path := knobs.CPUProfile; path != "" {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	r := benchResult{Mode: *mode, Root: pos[0], Workers: cfg.Workers}
	t0 := time.Now()
	switch *mode {
	case "floor":
		n, _, err := index.ParseFloor(pos[0], cfg)
		if err != nil {
			return err
		}
		r.Files = n
	case "build":
		res, err := index.Build(pos[0], cfg)
		if err != nil {
			return err
		}
		r.Files, r.Nodes, r.Edges = res.Summary.Parsed, len(res.Graph.Nodes), res.Graph.NumEdges()
		r.ParseMS = ms(res.Summary.ParseTime)
		r.ResolvMS = ms(res.Summary.ResolveTime)
	default:
		return usageError{"--mode must be floor or build"}
	}
	r.WallMS = ms(time.Since(t0))
	if path := knobs.MemProfile; path != "" {
		if f, err := os.Create(path); err == nil {
			pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.CPUMS = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
		r.MaxRSSMB = float64(ru.Maxrss) / 1024
	}
	if mb, ok := selfPeakMB(); ok {
		r.MaxRSSMB = mb
	}
	return json.NewEncoder(c.stdout).Encode(r)
}

// selfPeakMB reads this process's own high-water mark (VmHWM). ru_maxrss
// can hold the parent's instead: a child started by vfork (as Go starts
// them) inherits the parent's mark when it execs.
func selfPeakMB() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil {
					return kb / 1024, true
				}
			}
		}
	}
	return 0, false
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// compare measures floor and build for each directory, alternating the
// phases run by run (so drift on a noisy machine hits both alike), each in
// a fresh process, and prints a Markdown table of medians.
func compare(c *ctx, dirs []string, runs int) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	fmt.Fprintf(c.stdout, "| corpus | files | phase | wall (median, min–max) | CPU | peak RSS | nodes | edges | wall / floor |\n")
	fmt.Fprintf(c.stdout, "|---|---|---|---|---|---|---|---|---|\n")
	for _, dir := range dirs {
		res := map[string][]benchResult{}
		for i := 0; i < runs; i++ {
			for _, m := range []string{"floor", "build"} {
				out, err := exec.Command(self, "bench", "--mode", m, dir).Output()
				if err != nil {
					return fmt.Errorf("bench %s %s: %w", m, dir, err)
				}
				var r benchResult
				if err := json.Unmarshal(out, &r); err != nil {
					return fmt.Errorf("bench %s %s: %w", m, dir, err)
				}
				res[m] = append(res[m], r)
				fmt.Fprintf(c.stderr, "%s %s run %d: %.0f ms\n", m, dir, i+1, r.WallMS)
			}
		}
		floor := median(res["floor"], func(r benchResult) float64 { return r.WallMS })
		for _, m := range []string{"floor", "build"} {
			rs := res[m]
			wall := median(rs, func(r benchResult) float64 { return r.WallMS })
			lo, hi := spread(rs, func(r benchResult) float64 { return r.WallMS })
			cpu := median(rs, func(r benchResult) float64 { return r.CPUMS })
			rss := median(rs, func(r benchResult) float64 { return r.MaxRSSMB })
			last := rs[len(rs)-1]
			nodes, edges := "", ""
			if m == "build" {
				nodes, edges = fmt.Sprint(last.Nodes), fmt.Sprint(last.Edges)
			}
			fmt.Fprintf(c.stdout, "| %s | %d | %s | %.2f s (%.2f–%.2f) | %.2f s | %.0f MB | %s | %s | %.2f× |\n",
				dir, last.Files, m, wall/1000, lo/1000, hi/1000, cpu/1000, rss, nodes, edges, wall/floor)
		}
	}
	return nil
}

func median(rs []benchResult, f func(benchResult) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	sort.Float64s(xs)
	if n := len(xs); n%2 == 1 {
		return xs[n/2]
	} else {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
}

func spread(rs []benchResult, f func(benchResult) float64) (float64, float64) {
	lo, hi := f(rs[0]), f(rs[0])
	for _, r := range rs[1:] {
		lo, hi = min(lo, f(r)), max(hi, f(r))
	}
	return lo, hi
}
