package benchmd

import (
	"math"
	"testing"
	"time"
)

func TestSample(t *testing.T) {
	cases := []struct {
		name                  string
		s                     Sample
		median, p50, p95, p99 float64
		lo, hi                float64
	}{
		{"one", Sample{7}, 7, 7, 7, 7, 7, 7},
		{"odd, unsorted", Sample{5, 1, 3}, 3, 3, 5, 5, 1, 5},
		{"even: median averages, p50 is nearest rank", Sample{4, 1, 3, 2}, 2.5, 2, 4, 4, 1, 4},
		{"hundred: p99 is the second worst", hundred(), 50.5, 50, 95, 99, 1, 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := []float64{c.s.Median(), c.s.Percentile(50), c.s.Percentile(95), c.s.Percentile(99), c.s.Min(), c.s.Max()}
			want := []float64{c.median, c.p50, c.p95, c.p99, c.lo, c.hi}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("median, p50, p95, p99, min, max = %v, want %v", got, want)
					break
				}
			}
		})
	}
}

func hundred() Sample {
	s := make(Sample, 100)
	for i := range s {
		s[i] = float64(100 - i) // reversed: the stats must sort
	}
	return s
}

func TestSampleDoesNotReorder(t *testing.T) {
	s := Sample{3, 1, 2}
	s.Median()
	s.Percentile(90)
	if s[0] != 3 || s[1] != 1 || s[2] != 2 {
		t.Errorf("sample reordered: %v", s)
	}
}

func TestEmptySampleIsNaN(t *testing.T) {
	var s Sample
	for name, v := range map[string]float64{"median": s.Median(), "p50": s.Percentile(50), "min": s.Min(), "max": s.Max()} {
		if !math.IsNaN(v) {
			t.Errorf("%s of an empty sample = %v, want NaN", name, v)
		}
	}
}

func TestMillis(t *testing.T) {
	s := Millis([]time.Duration{1500 * time.Microsecond, 2 * time.Second})
	if s[0] != 1.5 || s[1] != 2000 {
		t.Errorf("Millis = %v", s)
	}
	us := []Usage{{Wall: time.Second, CPU: 2 * time.Second, MaxRSSMB: 10}, {Wall: 3 * time.Second, CPU: time.Second, MaxRSSMB: 30}}
	if w, c, r := wallMS(us).Median(), cpuMS(us).Median(), rssMB(us).Median(); w != 2000 || c != 1500 || r != 20 {
		t.Errorf("wall, cpu, rss medians = %v %v %v", w, c, r)
	}
}
