//go:build !linux

package retrieval

import "time"

// threadCPU cannot measure a thread's CPU time here.
func threadCPU() (time.Duration, bool) { return 0, false }

// loadAverage is unknown here.
func loadAverage() float64 { return -1 }
