package benchmd

import (
	"fmt"
	"time"
)

// WarmResult is a restart from the database with nothing changed: a new
// daemon process, spawn to workspace ready (client view), and the
// daemon's own index time.
type WarmResult struct {
	Ready    []time.Duration // spawn → ping → POST /v1/workspaces ready
	DaemonMS Sample          // index_ms as the daemon reports it
	Reparsed int             // files parsed on the last warm start (0 expected)
	Warm     bool            // the daemon said it restored the graph
}

// warmBench starts a new daemon runs times (none may be running) and asks
// each for root; it stops all but the last, which it returns running.
func warmBench(ccdBin, home, root string, env []string, runs int, logf func(string, ...any)) (*WarmResult, *daemonProc, error) {
	r := &WarmResult{}
	var d *daemonProc
	for i := range runs {
		if d != nil {
			if _, err := d.stop(); err != nil {
				return nil, nil, err
			}
		}
		var up time.Duration
		var err error
		if d, up, err = startDaemon(ccdBin, home, env); err != nil {
			return nil, nil, err
		}
		w, ready, err := d.addWorkspace(root)
		if err == nil && !w.Warm {
			err = fmt.Errorf("warm start of %s: the daemon rebuilt instead of restoring (reparsed %d, reused %d): is the database saved at shutdown?", root, w.Reparsed, w.Reused)
		}
		if err != nil {
			d.kill()
			return nil, nil, err
		}
		r.Ready = append(r.Ready, up+ready)
		r.DaemonMS = append(r.DaemonMS, w.IndexMS)
		r.Reparsed, r.Warm = w.Reparsed, w.Warm
		logf("  warm start %d: %s (reparsed %d)", i+1, FormatMS(ms(up+ready)), w.Reparsed)
	}
	return r, d, nil
}
