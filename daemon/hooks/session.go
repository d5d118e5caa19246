package hooks

import (
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// session is what the engine remembers about one conversation (a subagent
// counts as its own conversation): its workspace, what it was told and
// when, and what it read and edited.
type session struct {
	Active    string               `json:"active,omitempty"`    // sticky workspace root
	Announced map[string]bool      `json:"announced,omitempty"` // roots whose AUTO-INIT line was shown
	Cards     map[string]time.Time `json:"cards,omitempty"`     // card text hash → last shown
	Cool      map[string]time.Time `json:"cool,omitempty"`      // root|file|symbol → last card
	Emitted   []time.Time          `json:"emitted,omitempty"`   // card times, for the budget
	Read      map[string][][2]int  `json:"read,omitempty"`      // root|file → line ranges read (to 0 = whole file)
	Edited    map[string]edited    `json:"edited,omitempty"`    // root|node id → a risky edit
	Reminded  map[string]bool      `json:"reminded,omitempty"`  // edits the Stop card already named
	Seen      time.Time            `json:"seen"`
}

// edited is an edit that may break callers: a signature change or a
// removal.
type edited struct {
	Root    string   `json:"root"`
	Label   string   `json:"label"`
	What    string   `json:"what"` // signature, removed or renamed
	Target  string   `json:"target"`
	Callers []caller `json:"callers"`
}

func newSession() *session {
	return &session{Announced: map[string]bool{}, Cards: map[string]time.Time{}, Cool: map[string]time.Time{},
		Read: map[string][][2]int{}, Edited: map[string]edited{}, Reminded: map[string]bool{}}
}

// fill makes the maps of a decoded session usable.
func (s *session) fill() {
	if s.Announced == nil {
		s.Announced = map[string]bool{}
	}
	if s.Cards == nil {
		s.Cards = map[string]time.Time{}
	}
	if s.Cool == nil {
		s.Cool = map[string]time.Time{}
	}
	if s.Read == nil {
		s.Read = map[string][][2]int{}
	}
	if s.Edited == nil {
		s.Edited = map[string]edited{}
	}
	if s.Reminded == nil {
		s.Reminded = map[string]bool{}
	}
}

func textKey(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return jsonHex(h.Sum64())
}

func jsonHex(v uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

// sessions is the engine's memory, persisted as JSON in the state dir so a
// daemon restart does not repeat cards.
type sessions struct {
	mu   sync.Mutex
	m    map[string]*session
	path string
	ttl  time.Duration

	dirty  bool
	saving bool
}

func loadSessions(path string) *sessions {
	s := &sessions{m: map[string]*session{}, path: path, ttl: 24 * time.Hour}
	if path == "" {
		return s
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return s
	}
	var m map[string]*session
	if json.Unmarshal(b, &m) == nil {
		for k, v := range m {
			if v != nil {
				v.fill()
				s.m[k] = v
			}
		}
	}
	return s
}

// get returns the session for key, creating it; call with s.mu held.
func (s *sessions) get(key string, now time.Time) *session {
	ss := s.m[key]
	if ss == nil {
		ss = newSession()
		s.m[key] = ss
	}
	ss.Seen = now
	return ss
}

// expire drops sessions idle for longer than the ttl; call with s.mu held.
func (s *sessions) expire(now time.Time) {
	for k, v := range s.m {
		if now.Sub(v.Seen) > s.ttl {
			delete(s.m, k)
		}
	}
}

// markDirty schedules a save; call with s.mu held.
func (s *sessions) markDirty() {
	s.dirty = true
	if s.saving || s.path == "" {
		return
	}
	s.saving = true
	time.AfterFunc(500*time.Millisecond, s.flush)
}

// flush writes the sessions atomically.
func (s *sessions) flush() {
	s.mu.Lock()
	s.saving = false
	if !s.dirty || s.path == "" {
		s.mu.Unlock()
		return
	}
	s.dirty = false
	s.expire(time.Now())
	b, err := json.Marshal(s.m)
	s.mu.Unlock()
	if err != nil {
		return
	}
	tmp := s.path + ".tmp"
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return
	}
	if os.WriteFile(tmp, b, 0o600) == nil {
		os.Rename(tmp, s.path)
	}
}
