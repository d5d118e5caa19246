package daemon

import "time"

// every runs f every d until stop is closed: the daemon's periodic checks
// (language servers, workspace roots, polled trees).
func every(d time.Duration, stop <-chan struct{}, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			f()
		}
	}
}
