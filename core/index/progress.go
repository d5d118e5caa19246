package index

import (
	"errors"
	"sync/atomic"

	"github.com/ccd-dev/ccd/config"
)

// Progress is read by other goroutines while an index run fills it in.
type Progress struct {
	phase    atomic.Value // string
	done     atomic.Int64
	total    atomic.Int64
	canceled atomic.Bool
}

// ErrCanceled is what a run stopped by Cancel returns.
var ErrCanceled = errors.New("index run canceled")

// Cancel asks the run filling p to stop as soon as it can (the workspace
// was removed): it returns ErrCanceled and reads no more files.
func (p *Progress) Cancel() {
	if p != nil {
		p.canceled.Store(true)
	}
}

// Canceled reports whether Cancel was called.
func (p *Progress) Canceled() bool { return p != nil && p.canceled.Load() }

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
