package retrieval

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time the calling thread has used; ok is false
// when the system cannot say. The caller locks its goroutine to the thread.
func threadCPU() (d time.Duration, ok bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// loadAverage returns the one-minute load average, or -1.
func loadAverage() float64 {
	var info unix.Sysinfo_t
	if err := unix.Sysinfo(&info); err != nil {
		return -1
	}
	return float64(info.Loads[0]) / (1 << unix.SI_LOAD_SHIFT)
}
