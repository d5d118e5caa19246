package workspace

import "sync/atomic"

// coalescer runs a background job one at a time: a call while the job
// runs makes it run once more when done (with the state of then), so a
// burst of calls costs at most two runs and the latest state always gets
// one. Its two flags are its whole state: no lock.
type coalescer struct {
	running, again atomic.Bool
}

// run runs job now, unless it runs already: then the running call runs it
// once more before it returns.
func (c *coalescer) run(job func()) {
	c.again.Store(true)
	for c.again.Load() {
		if !c.running.CompareAndSwap(false, true) {
			return // the running call sees again
		}
		for c.again.Swap(false) {
			job()
		}
		c.running.Store(false)
	}
}
