package benchmd

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Machine describes where and with what the numbers were measured.
type Machine struct {
	CPU      string  // model name
	Cores    int     // logical CPUs
	MemGB    float64 // total memory, GiB
	Kernel   string
	OS       string
	Go       string // the toolchain that built the binaries
	CCD      string // `ccd version`
	Commit   string // the source's git commit, "+dirty" when it had uncommitted changes
	Python   string // `python3 --version`, or "not installed"
	Ctags    string // first line of `ctags --version`, or "not installed"
	Date     time.Time
	LoadFrom [3]float64 // load averages when the run started
	LoadTo   [3]float64 // and when it ended
}

// ParseCPUInfo reads /proc/cpuinfo text: the first model name and the
// number of processors.
func ParseCPUInfo(text string) (model string, cpus int) {
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			cpus++
		case "model name", "Model", "cpu model":
			if model == "" {
				model = strings.Join(strings.Fields(v), " ")
			}
		}
	}
	return model, cpus
}

// ParseMemTotal reads MemTotal from /proc/meminfo text, in bytes.
func ParseMemTotal(text string) (int64, error) {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("meminfo: MemTotal %q: %w", f[0], err)
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("meminfo: no MemTotal line")
}

// ParseLoadAvg reads the three load averages from /proc/loadavg text.
func ParseLoadAvg(text string) ([3]float64, error) {
	var l [3]float64
	f := strings.Fields(text)
	if len(f) < 3 {
		return l, fmt.Errorf("loadavg: want 3 fields, got %q", text)
	}
	for i := range 3 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return l, fmt.Errorf("loadavg: %w", err)
		}
		l[i] = v
	}
	return l, nil
}

// ParseOSRelease reads PRETTY_NAME from /etc/os-release text.
func ParseOSRelease(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

func loadNow() [3]float64 {
	b, _ := os.ReadFile("/proc/loadavg")
	l, _ := ParseLoadAvg(string(b))
	return l
}

// firstLine runs a command and returns the first line of its output, or
// alt when it fails.
func firstLine(alt string, name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return alt
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

// collectMachine gathers the facts about this machine and the build.
func collectMachine(src, ccdBin, commit string) Machine {
	m := Machine{Date: time.Now().UTC(), LoadFrom: loadNow(), Cores: runtime.NumCPU()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		model, n := ParseCPUInfo(string(b))
		m.CPU = model
		if n > 0 {
			m.Cores = n
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if n, err := ParseMemTotal(string(b)); err == nil {
			m.MemGB = float64(n) / (1 << 30)
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		m.OS = ParseOSRelease(string(b))
	}
	m.Go = firstLine("unknown", "go", "env", "GOVERSION")
	m.CCD = firstLine("unknown", ccdBin, "version")
	m.Python = "not installed"
	if exe := pythonExe(); exe != "" {
		m.Python = firstLine("unknown", exe, "--version") + " (" + exe + ")"
	}
	m.Ctags = "not installed"
	if v, ok := ctagsVersion(); ok {
		m.Ctags = v
	}
	m.Commit = commit
	if m.Commit == "" {
		m.Commit = gitCommit(src)
	}
	return m
}

// gitCommit is the short commit of the tree at src, with "+dirty" when
// tracked files differ from it; "unknown" outside a git tree.
func gitCommit(src string) string {
	c := firstLine("", "git", "-C", src, "rev-parse", "--short=12", "HEAD")
	if c == "" {
		return "unknown"
	}
	out, err := exec.Command("git", "-C", src, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(strings.TrimSpace(string(out))) > 0 {
		c += "+dirty"
	}
	return c
}
