package benchmd

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	if v, ok := ParseVmHWM("Name:\tccd\nVmPeak:\t 9999 kB\nVmHWM:\t   51200 kB\nVmRSS:\t 1 kB\n"); !ok || v != 50 {
		t.Errorf("got %v %v, want 50 MB", v, ok)
	}
	for _, bad := range []string{"", "Name: zombie\nState: Z\n", "VmHWM:\n", "VmHWM: lots kB\n"} {
		if _, ok := ParseVmHWM(bad); ok {
			t.Errorf("%q: ok", bad)
		}
	}
}

// bigParent makes 300 MB of this process resident for the length of a
// test, so that a child whose peak came from ru_maxrss (see Usage) would
// show it.
func bigParent(t *testing.T) {
	big := make([]byte, 300<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1 // resident
	}
	t.Cleanup(func() { big[len(big)-1] = 2 })
}

// TestPeakRSSIsTheChilds checks that a child of a big parent reports its
// own peak, not the parent's, whether it runs for a few milliseconds or
// longer; a run shorter than any sampling interval must still get a
// plausible figure (a C program's start-up is more than 0.5 MB: libc and
// the loader).
func TestPeakRSSIsTheChilds(t *testing.T) {
	bigParent(t)
	for _, args := range [][]string{{"true"}, {"sleep", "0.001"}, {"sleep", "0.2"}} {
		_, u, err := runMeasured(exec.Command(args[0], args[1:]...), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		if u.MaxRSSMB < 0.5 || u.MaxRSSMB > 100 {
			t.Errorf("%v: peak RSS = %.2f MB with a 300 MB parent", args, u.MaxRSSMB)
		}
		if u.Wall <= 0 || u.CPU < 0 {
			t.Errorf("%v: usage %+v", args, u)
		}
	}
}

// TestPeakRSSOfAGrowingChild checks the peak is the child's high-water
// mark, not what it holds when it exits: a Go child (this test binary)
// makes 64 MB resident, drops it and exits at once.
func TestPeakRSSOfAGrowingChild(t *testing.T) {
	if os.Getenv("BENCHMD_GROW") == "1" {
		b := make([]byte, 64<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		os.Exit(int(b[4096]) - 1)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeakRSSOfAGrowingChild$")
	cmd.Env = append(os.Environ(), "BENCHMD_GROW=1")
	_, u, err := runMeasured(cmd, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if u.MaxRSSMB < 64 || u.MaxRSSMB > 200 {
		t.Errorf("peak RSS %.1f MB, want 64 MB and a Go runtime's worth", u.MaxRSSMB)
	}
}

// TestPeakRSSFailures: a child that fails keeps its error and output, and
// traced children still get their signals (sleep killed by SIGTERM).
func TestPeakRSSFailures(t *testing.T) {
	out, _, err := runMeasured(exec.Command("sh", "-c", "echo out; echo oops >&2; exit 3"), nil, true)
	if err == nil || string(out) != "out\n" || !strings.Contains(err.Error(), "oops") {
		t.Errorf("failing child: out %q, err %v", out, err)
	}
	_, _, err = runMeasured(exec.Command("sh", "-c", "kill -TERM $$; sleep 5"), nil, true)
	if err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("child killed by SIGTERM: %v", err)
	}
	if _, _, err := runMeasured(exec.Command("/nonexistent/binary"), nil, true); err == nil {
		t.Error("a missing binary ran")
	}
}

// TestPeakRSSSampled covers the path taken where ptrace is refused: a
// long run gets its sampled peak, a run too short to be seen gets none
// (0) rather than the 0.2 MB of its first moment.
func TestPeakRSSSampled(t *testing.T) {
	traceRefused = true
	t.Cleanup(func() { traceRefused = false })
	bigParent(t)
	_, u, err := runMeasured(exec.Command("sleep", "0.2"), nil, true)
	if err != nil || u.MaxRSSMB < 0.5 || u.MaxRSSMB > 100 {
		t.Errorf("sampled sleep 0.2: %.2f MB, %v", u.MaxRSSMB, err)
	}
	_, u, err = runMeasured(exec.Command("true"), nil, true)
	if err != nil || (u.MaxRSSMB != 0 && u.MaxRSSMB < 0.5) {
		t.Errorf("sampled true: %.2f MB, %v", u.MaxRSSMB, err)
	}
}
