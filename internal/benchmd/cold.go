package benchmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BenchLine is one JSON line of `ccd bench --mode floor|build DIR`.
type BenchLine struct {
	Mode     string  `json:"mode"`
	Root     string  `json:"root"`
	Workers  int     `json:"workers"`
	Files    int     `json:"files"`
	WallMS   float64 `json:"wall_ms"`
	CPUMS    float64 `json:"cpu_ms"`
	MaxRSSMB float64 `json:"max_rss_mb"`
	Nodes    int     `json:"nodes"`
	Edges    int     `json:"edges"`
	ParseMS  float64 `json:"parse_ms"`
	ResolvMS float64 `json:"resolve_ms"`
}

// ParseBenchLine reads the last non-empty line of `ccd bench --mode`
// output. A line without a known mode or without parsed files is an error:
// a benchmark of nothing must not look like a fast one.
func ParseBenchLine(out []byte) (BenchLine, error) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	var l BenchLine
	if last == "" {
		return l, fmt.Errorf("ccd bench printed nothing")
	}
	if err := json.Unmarshal([]byte(last), &l); err != nil {
		return l, fmt.Errorf("ccd bench line %q: %w", tail(last, 200), err)
	}
	if l.Mode != "floor" && l.Mode != "build" {
		return l, fmt.Errorf("ccd bench line has mode %q, want floor or build", l.Mode)
	}
	if l.Files <= 0 {
		return l, fmt.Errorf("ccd bench %s of %s parsed no files: is it a source tree?", l.Mode, l.Root)
	}
	return l, nil
}

// ctagsVersion reports whether `ctags` is Universal Ctags, and its
// version line.
func ctagsVersion() (string, bool) {
	out, err := exec.Command("ctags", "--version").CombinedOutput()
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	line = strings.TrimSuffix(strings.TrimSpace(strings.Split(line, ",")[0]), ".")
	return line, strings.Contains(line, "Universal Ctags")
}

// CountTags counts the tags of a ctags file (pseudo-tags "!_…" excluded).
func CountTags(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("count tags: %w", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if line := sc.Bytes(); len(line) > 0 && !bytes.HasPrefix(line, []byte("!_")) {
			n++
		}
	}
	if err := sc.Err(); err != nil {
		return n, fmt.Errorf("count tags %s: %w", path, err)
	}
	return n, nil
}

// Phase is one way of indexing a corpus, run several times.
type Phase struct {
	Name    string
	Runs    []Usage
	Files   int
	Nodes   int // ctags: tags
	Edges   int
	Workers int
	Missing string // why it was not measured ("not installed")
}

// Cold holds the cold-index phases of one corpus; Phases[0] is the floor.
type Cold struct {
	Phases []*Phase
}

// coldIndex measures the raw parse floor, ccd's full index and ctags over
// the same files, alternating the phases run by run, each in a fresh
// process. files lists the paths (relative to root) ccd parses, for ctags.
func coldIndex(ccdBin, root string, files []string, env []string, runs int, work string, logf func(string, ...any)) (*Cold, error) {
	floor := &Phase{Name: "raw tree-sitter parse (floor)"}
	build := &Phase{Name: "ccd full index"}
	ctags := &Phase{Name: "universal-ctags (definitions only, 1 thread)"}
	ver, ok := ctagsVersion()
	if !ok {
		ctags.Missing = "not installed"
		if ver != "" {
			ctags.Missing = "not Universal Ctags (" + ver + ")"
		}
	}
	list := filepath.Join(work, "ctags.files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("ctags file list: %w", err)
	}
	tags := filepath.Join(work, "tags")
	for i := range runs {
		for _, ph := range []*Phase{floor, build} {
			mode := map[*Phase]string{floor: "floor", build: "build"}[ph]
			cmd := exec.Command(ccdBin, "bench", "--mode", mode, root)
			cmd.Env = env
			out, u, err := runMeasured(cmd, nil, true)
			if err != nil {
				return nil, err
			}
			l, err := ParseBenchLine(out)
			if err != nil {
				return nil, err
			}
			ph.Runs = append(ph.Runs, u)
			ph.Files, ph.Nodes, ph.Edges, ph.Workers = l.Files, l.Nodes, l.Edges, l.Workers
			logf("  cold %s run %d: %s", mode, i+1, FormatMS(ms(u.Wall)))
		}
		if ctags.Missing != "" {
			continue
		}
		os.Remove(tags)
		cmd := exec.Command("ctags", "-f", tags, "-L", list)
		cmd.Dir = root
		if _, u, err := runMeasured(cmd, nil, true); err != nil {
			return nil, err
		} else {
			ctags.Runs = append(ctags.Runs, u)
			logf("  cold ctags run %d: %s", i+1, FormatMS(ms(u.Wall)))
		}
		n, err := CountTags(tags)
		if err != nil {
			return nil, err
		}
		ctags.Files, ctags.Nodes, ctags.Workers = len(files), n, 1
	}
	return &Cold{Phases: []*Phase{floor, build, ctags}}, nil
}
