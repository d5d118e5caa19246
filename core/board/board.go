package board

import (
	"fmt"
	"sync"
	"time"
)

// Board is the evidence board of one workspace. All methods are safe for
// concurrent use: each action runs under the board's lock and returns a
// View taken under the same lock, so two sessions sharing one Board never
// lose each other's items and never get the same id.
type Board struct {
	mu  sync.Mutex
	now func() time.Time
	st  state
}

// state is everything a board persists.
type state struct {
	Project    Project     `json:"project"`
	Evidence   []Evidence  `json:"evidence"`
	Claims     []Claim     `json:"claims"`
	Decisions  []Decision  `json:"decisions"`
	Focus      Focus       `json:"focus"`
	Analyses   []*Analysis `json:"analyses"`
	Tasks      []Task      `json:"tasks"`
	ActiveTask string      `json:"active_task,omitempty"`
	// Latest is the evidence most recently made or reused (an identical
	// impact run again): what the agent looked at last.
	Latest string `json:"latest_evidence,omitempty"`
	// Seq holds the last number issued per id prefix: ids are never
	// reused, even by a board loaded from disk.
	Seq     Seq       `json:"seq"`
	Rev     uint64    `json:"rev"` // bumped by every change
	Updated time.Time `json:"updated,omitzero"`
}

// Seq holds the last issued evidence, claim and decision numbers.
type Seq struct {
	E int `json:"E"`
	C int `json:"C"`
	D int `json:"D"`
}

// New returns an empty board.
func New() *Board {
	return &Board{now: time.Now}
}

// SetClock replaces the clock that stamps items (tests use a fixed one).
func (b *Board) SetClock(now func() time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.now = now
}

// Rev is the board's revision: it grows with every change, so a saver can
// tell which of two marshalled copies is newer.
func (b *Board) Rev() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st.Rev
}

// touch records a change; call with b.mu held.
func (b *Board) touch() time.Time {
	t := b.now().UTC()
	b.st.Rev++
	b.st.Updated = t
	return t
}

func (b *Board) nextEvidence() string { b.st.Seq.E++; return fmt.Sprintf("E%d", b.st.Seq.E) }
func (b *Board) nextClaim() string    { b.st.Seq.C++; return fmt.Sprintf("C%d", b.st.Seq.C) }
func (b *Board) nextDecision() string { b.st.Seq.D++; return fmt.Sprintf("D%d", b.st.Seq.D) }

// latestEvidence is the id of the evidence the agent looked at last (made
// or reused by the latest init or impact), or "".
func (b *Board) latestEvidence() string {
	if b.st.Latest != "" {
		return b.st.Latest
	}
	if n := len(b.st.Evidence); n > 0 {
		return b.st.Evidence[n-1].ID
	}
	return ""
}

// SetImage records the picture file of evidence id (e.g. "impact_E2.png").
// It reports whether the evidence exists.
func (b *Board) SetImage(id, file string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.st.Evidence {
		if b.st.Evidence[i].ID == id {
			if b.st.Evidence[i].Image != file {
				b.st.Evidence[i].Image = file
				b.touch()
			}
			return true
		}
	}
	return false
}
