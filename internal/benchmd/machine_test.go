package benchmd

import "testing"

const cpuinfo = `processor	: 0
vendor_id	: AuthenticAMD
model name	: AMD EPYC   7B13 64-Core Processor
cpu MHz		: 2449.998

processor	: 1
vendor_id	: AuthenticAMD
model name	: AMD EPYC 7B13 64-Core Processor
`

func TestParseCPUInfo(t *testing.T) {
	model, n := ParseCPUInfo(cpuinfo)
	if model != "AMD EPYC 7B13 64-Core Processor" || n != 2 {
		t.Errorf("got %q, %d", model, n)
	}
	if model, n := ParseCPUInfo(""); model != "" || n != 0 {
		t.Errorf("empty: got %q, %d", model, n)
	}
}

func TestParseMemTotal(t *testing.T) {
	n, err := ParseMemTotal("MemFree: 1 kB\nMemTotal:       24683800 kB\n")
	if err != nil || n != 24683800*1024 {
		t.Errorf("got %d, %v", n, err)
	}
	for _, bad := range []string{"", "MemTotal: lots kB", "MemTotal:"} {
		if _, err := ParseMemTotal(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseLoadAvg(t *testing.T) {
	l, err := ParseLoadAvg("6.81 7.74 8.01 3/412 12345\n")
	if err != nil || l != [3]float64{6.81, 7.74, 8.01} {
		t.Errorf("got %v, %v", l, err)
	}
	for _, bad := range []string{"", "1 2", "1 x 3"} {
		if _, err := ParseLoadAvg(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseOSRelease(t *testing.T) {
	if got := ParseOSRelease("NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"); got != "Debian GNU/Linux 12 (bookworm)" {
		t.Errorf("got %q", got)
	}
	if got := ParseOSRelease("NAME=x\n"); got != "" {
		t.Errorf("no PRETTY_NAME: got %q", got)
	}
}
