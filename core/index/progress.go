package index

import (
	"sync/atomic"

	"github.com/ccd-dev/ccd/config"
)

// Progress is read by other goroutines while an index run fills it in.
type Progress struct {
	phase atomic.Value // string
	done  atomic.Int64
	total atomic.Int64
}

// Phases of an index run, in order.
const (
	PhaseDiscover = "discover"
	PhaseParse    = "parse"
	PhaseResolve  = "resolve"
	PhaseDone     = "done"
)

// Snapshot returns the current phase and, for the parse phase, files done
// and total.
func (p *Progress) Snapshot() (phase string, done, total int) {
	if p == nil {
		return "", 0, 0
	}
	ph, _ := p.phase.Load().(string)
	return ph, int(p.done.Load()), int(p.total.Load())
}

func (p *Progress) set(phase string, total int) {
	if p == nil {
		return
	}
	p.phase.Store(phase)
	p.total.Store(int64(total))
	p.done.Store(0)
}

func (p *Progress) inc() {
	if p != nil {
		p.done.Add(1)
	}
}

// Options tune a Build.
type Options struct {
	Config   config.Config
	Progress *Progress // may be nil
}
