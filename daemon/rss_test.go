package daemon

import "testing"

func TestSmapsRSS(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want, lazy int64
		ok         bool
	}{
		{"lazy pages left out", "55d0-7ffc ---p 00000000 00:00 0 [rollup]\nRss:              600000 kB\nPss:  590000 kB\nLazyFree:         100000 kB\n", 500000 << 10, 100000 << 10, true},
		{"no LazyFree line", "Rss: 2048 kB\n", 2048 << 10, 0, true},
		{"no Rss line", "Pss: 10 kB\n", 0, 0, false},
		{"garbage", "Rss: lots kB\n", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, lazy, ok := smapsRSS(tc.text)
			if got != tc.want || lazy != tc.lazy || ok != tc.ok {
				t.Errorf("smapsRSS = %d, %d, %v; want %d, %d, %v", got, lazy, ok, tc.want, tc.lazy, tc.ok)
			}
		})
	}
	if n, _ := memory(); n <= 0 {
		t.Errorf("memory() = %d on this machine", n)
	}
}
