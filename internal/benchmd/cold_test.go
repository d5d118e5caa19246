package benchmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseBenchLine(t *testing.T) {
	good := `{"mode":"build","root":"/x","workers":2,"files":6909,"wall_ms":10630.5,"cpu_ms":19000,"max_rss_mb":542,"nodes":98508,"edges":366496,"parse_ms":7000,"resolve_ms":1800}`
	l, err := ParseBenchLine([]byte("some log line\n" + good + "\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Mode != "build" || l.Files != 6909 || l.WallMS != 10630.5 || l.Nodes != 98508 || l.Edges != 366496 || l.Workers != 2 || l.MaxRSSMB != 542 {
		t.Errorf("parsed %+v", l)
	}
	bad := map[string]string{
		"empty":        "",
		"not JSON":     "ccd bench: no such directory",
		"unknown mode": `{"mode":"warm","files":3}`,
		"no files":     `{"mode":"floor","root":"/empty","files":0}`,
		"truncated":    `{"mode":"floor","files":`,
	}
	for name, out := range bad {
		if _, err := ParseBenchLine([]byte(out)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCountTags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tags")
	tags := strings.Join([]string{
		"!_TAG_FILE_FORMAT\t2\t/extended format/",
		"!_TAG_PROGRAM_NAME\tUniversal Ctags\t//",
		"Cart\tshop/models.py\t/^class Cart:$/;\"\tc",
		"add\tshop/models.py\t/^    def add(self):$/;\"\tm\tclass:Cart",
		"",
		"total\tshop/pricing.py\t/^def total(cart):$/;\"\tf",
	}, "\n")
	if err := os.WriteFile(p, []byte(tags), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := CountTags(p)
	if err != nil || n != 3 {
		t.Errorf("CountTags = %d, %v; want 3", n, err)
	}
	if _, err := CountTags(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing file: no error")
	}
}
