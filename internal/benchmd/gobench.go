package benchmd

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// GoBench is one result line of `go test -bench`.
type GoBench struct {
	Pkg     string
	Name    string // without the -GOMAXPROCS suffix
	Iters   int
	Metrics []Metric // in the order printed (ns/op first)
}

// Metric is a value with its unit, as `go test -bench` prints them.
type Metric struct {
	Value float64
	Unit  string
}

// Get returns the value of unit and whether it was reported.
func (g GoBench) Get(unit string) (float64, bool) {
	for _, m := range g.Metrics {
		if m.Unit == unit {
			return m.Value, true
		}
	}
	return 0, false
}

// ParseGoBench reads `go test -bench` output: "pkg:" lines name the
// package of the results that follow; a result line is a name starting
// with "Benchmark", an iteration count, then value–unit pairs. Other lines
// (logs, PASS, ok) are ignored; a malformed result line is an error.
func ParseGoBench(out string) ([]GoBench, error) {
	var res []GoBench
	pkg := ""
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		iters, err := strconv.Atoi(f[1])
		if err != nil {
			continue // a log line that happens to start with a benchmark's name
		}
		if (len(f)-2)%2 != 0 {
			return nil, fmt.Errorf("go bench line %q: values and units do not pair up", line)
		}
		name := f[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		g := GoBench{Pkg: pkg, Name: name, Iters: iters}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("go bench line %q: value %q: %w", line, f[i], err)
			}
			g.Metrics = append(g.Metrics, Metric{Value: v, Unit: f[i+1]})
		}
		res = append(res, g)
	}
	return res, nil
}

// runGoBench runs `go test -run '^$' -bench pattern -benchtime bt pkg` in
// src and parses the results.
func runGoBench(src, pkg, pattern, benchtime string) ([]GoBench, error) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-count", "1", "-timeout", "60m", pkg)
	cmd.Dir = src
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go test -bench %s %s: %w\n%s", pattern, pkg, err, tail(string(out), 1500))
	}
	res, err := ParseGoBench(string(out))
	if err != nil {
		return nil, err
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("go test -bench %s %s ran no benchmark:\n%s", pattern, pkg, tail(string(out), 600))
	}
	return res, nil
}
