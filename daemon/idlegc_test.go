package daemon

import (
	"runtime"
	rtmetrics "runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

func TestCollectNow(t *testing.T) {
	for _, tc := range []struct {
		name                string
		live, goal, objects uint64
		want                bool
	}{
		{"just collected", 100, 200, 100, false},
		{"a third used", 100, 200, 133, false},
		{"half used", 100, 200, 150, false},
		{"more than half used", 100, 200, 151, true},
		{"past the goal", 100, 200, 260, true},
		{"goal below live (no data yet)", 100, 0, 150, false},
		{"fewer objects than live (swept)", 100, 200, 90, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := collectNow(tc.live, tc.goal, tc.objects); got != tc.want {
				t.Errorf("collectNow(%d, %d, %d) = %v, want %v", tc.live, tc.goal, tc.objects, got, tc.want)
			}
		})
	}
}

var sink [][]byte

// TestIdleGCCollectsBetweenUpdates checks both sides of the rule on the
// real runtime: right after a collection a poke collects nothing; once
// garbage has used most of the headroom, a poke collects after the quiet
// period.
func TestIdleGCCollectsBetweenUpdates(t *testing.T) {
	c := &idleGC{quiet: time.Millisecond}
	defer c.stop()
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	c.poke()
	time.Sleep(50 * time.Millisecond)
	if n := c.runs.Load(); n != 0 {
		t.Fatalf("collected %d times with the headroom unused", n)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC
	pokeUntilCollected(t, c)
	runtime.ReadMemStats(&ms)
	if c.runs.Load() != 1 || ms.NumGC <= before {
		t.Fatalf("idle collections %d, NumGC %d -> %d; want one collection", c.runs.Load(), before, ms.NumGC)
	}
	runtime.KeepAlive(live)
}

// pokeUntilCollected fills the headroom and pokes c until it collects,
// waiting a second each time. Tests of other packages running at the same
// time allocate too, and the pacer may start a cycle of its own before
// the poke's quiet period is over, which resets the headroom: then the
// rule rightly collects nothing, and the test makes garbage again (five
// times at most).
func pokeUntilCollected(t *testing.T, c *idleGC) {
	t.Helper()
	for range 5 {
		fillHeadroom(t)
		c.poke()
		deadline := time.Now().Add(time.Second)
		for c.runs.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if c.runs.Load() > 0 {
			return
		}
	}
}

// fillHeadroom makes garbage of three quarters of the headroom to the next
// collection, in 1 MB pieces (so the pacer does not start a cycle of its
// own first).
func fillHeadroom(t *testing.T) {
	live, goal := heapLiveGoal(t)
	for i := uint64(0); i < (goal-live)*3/4>>20; i++ {
		sink = append(sink, make([]byte, 1<<20))
		if len(sink) > 4 {
			sink = sink[1:]
		}
	}
}

func heapLiveGoal(t *testing.T) (live, goal uint64) {
	s := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	rtmetrics.Read(s)
	live, goal = s[0].Value.Uint64(), s[1].Value.Uint64()
	if goal <= live {
		t.Fatalf("heap live %d, goal %d", live, goal)
	}
	return live, goal
}

// TestIdleGCWaitsForQuietRequests: while requests keep coming, the
// collection waits; once they stop, it runs.
func TestIdleGCWaitsForQuietRequests(t *testing.T) {
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	// The quiet period is far above the 5 ms between requests, so that a
	// loaded machine oversleeping a request does not look like quiet.
	c := &idleGC{quiet: 300 * time.Millisecond, lastRequest: func() time.Time { return time.Unix(0, last.Load()) }}
	defer c.stop()
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	fillHeadroom(t)
	c.poke()
	for range 10 { // 50 ms of requests, one every 5 ms
		time.Sleep(5 * time.Millisecond)
		last.Store(time.Now().UnixNano())
	}
	if n := c.runs.Load(); n != 0 {
		t.Fatalf("collected %d times while requests kept coming", n)
	}
	deadline := time.Now().Add(3 * time.Second)
	for c.runs.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if c.runs.Load() == 0 {
		// The pacer may have collected first (see pokeUntilCollected).
		pokeUntilCollected(t, c)
	}
	if c.runs.Load() != 1 {
		t.Fatalf("no collection once requests stopped")
	}
	runtime.KeepAlive(live)
}
