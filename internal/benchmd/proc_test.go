package benchmd

import (
	"os/exec"
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

// TestPeakRSSIsTheChilds checks that a small child of a big parent
// reports its own peak, not the parent's (what ru_maxrss would give, see
// Usage).
func TestPeakRSSIsTheChilds(t *testing.T) {
	big := make([]byte, 300<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1 // resident
	}
	_, u, err := runMeasured(exec.Command("sleep", "0.2"), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if u.MaxRSSMB <= 0 || u.MaxRSSMB > 100 {
		t.Errorf("sleep's peak RSS = %.1f MB with a 300 MB parent", u.MaxRSSMB)
	}
	if u.Wall <= 0 || u.CPU < 0 {
		t.Errorf("usage %+v", u)
	}
	big[len(big)-1] = 2 // keep it alive past the child
}
