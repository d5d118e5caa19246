package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
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
	mode := fs.String("mode", "build", "floor or build")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"want exactly one directory"}
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	if path := os.Getenv("CCD_CPUPROFILE"); path != "" {
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
		r.Files, r.Nodes, r.Edges = res.Summary.Parsed, len(res.Graph.Nodes), len(res.Graph.Edges)
		r.ParseMS = ms(res.Summary.ParseTime)
		r.ResolvMS = ms(res.Summary.ResolveTime)
	default:
		return usageError{"--mode must be floor or build"}
	}
	r.WallMS = ms(time.Since(t0))
	if path := os.Getenv("CCD_MEMPROFILE"); path != "" {
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
	return json.NewEncoder(c.stdout).Encode(r)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
