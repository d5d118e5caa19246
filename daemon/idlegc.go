package daemon

import (
	"runtime"
	rtmetrics "runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// idleGC moves garbage collections off the edit path. Every update derives
// a new graph and leaves the old one to the collector; a collection that
// starts during an update (because that update crossed the heap goal)
// slows it several times over, on a large heap and few cores. So once
// updates have been quiet for a moment and more than half of the headroom
// to the next collection is used, the daemon collects there and then:
// the collection the next edit would have run happens between edits. It
// waits for requests to be quiet too: the hook that follows an edit must
// not meet the collection instead.
type idleGC struct {
	quiet time.Duration // 0: disabled
	runs  atomic.Int64
	// lastRequest returns when the last request came (nil: not known).
	lastRequest func() time.Time

	mu    sync.Mutex
	timer *time.Timer
}

// newIdleGC returns a collector that checks once updates and requests
// have been quiet for quiet (0 turns idle collections off).
func newIdleGC(quiet time.Duration) *idleGC { return &idleGC{quiet: quiet} }

// poke says an update just ran: check once updates have been quiet.
func (c *idleGC) poke() {
	if c == nil || c.quiet == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer == nil {
		c.timer = time.AfterFunc(c.quiet, c.check)
		return
	}
	c.timer.Reset(c.quiet)
}

// stop cancels a pending check.
func (c *idleGC) stop() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
}

func (c *idleGC) check() {
	if c.lastRequest != nil {
		if d := time.Since(c.lastRequest()); d < c.quiet {
			c.mu.Lock()
			c.timer.Reset(c.quiet - d)
			c.mu.Unlock()
			return
		}
	}
	s := []rtmetrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}
	rtmetrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != rtmetrics.KindUint64 {
			return // an unknown metric on this runtime: leave the pacer alone
		}
	}
	if collectNow(s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()) {
		runtime.GC()
		c.runs.Add(1)
	}
}

// collectNow reports whether more than half of the headroom between the
// heap live after the last collection and the goal of the next one is
// used by the objects on the heap now.
func collectNow(live, goal, objects uint64) bool {
	if goal <= live || objects <= live {
		return false
	}
	return objects-live > (goal-live)/2
}
