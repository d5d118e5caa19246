package workspace

import (
	"sync/atomic"
	"testing"
)

// TestCoalescer: calls during a run return at once and make one more run
// after it, which sees the state of the last call.
func TestCoalescer(t *testing.T) {
	var c coalescer
	var state, seen, runs atomic.Int64
	started, gate := make(chan struct{}), make(chan struct{})
	job := func() {
		if runs.Add(1) == 1 {
			close(started)
			<-gate
		}
		seen.Store(state.Load())
	}
	done := make(chan struct{})
	state.Store(1)
	go func() {
		defer close(done)
		c.run(job)
	}()
	<-started
	for i := 2; i <= 50; i++ {
		state.Store(int64(i))
		c.run(job) // returns at once: a run is under way
	}
	close(gate)
	<-done
	if runs.Load() != 2 || seen.Load() != 50 {
		t.Errorf("%d runs, the last saw state %d; want 2 runs, the last seeing 50", runs.Load(), seen.Load())
	}
	c.run(job)
	if runs.Load() != 3 {
		t.Errorf("a call after the runs ended did not run: %d runs", runs.Load())
	}
}
