package search

import "sync"

// RecentWindow is how many expansions back a handle counts as recently
// expanded.
const RecentWindow = 64

// Session remembers, for one agent conversation, which handles were handed
// out (with the content hash at that time) and which were expanded. Evidence
// packs push recently expanded handles to the back of their suggestions;
// expand uses the issued hashes to say when a handle's content changed
// since the agent saw it. A nil *Session is valid and remembers nothing.
type Session struct {
	mu       sync.Mutex
	seq      uint64
	expanded map[string]uint64 // id → sequence number of its last expansion
	issued   map[string]uint64 // id → content hash when handed out
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{expanded: map[string]uint64{}, issued: map[string]uint64{}}
}

// MarkExpanded records that ids were expanded.
func (s *Session) MarkExpanded(ids ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.seq++
		s.expanded[id] = s.seq
	}
}

// RecentlyExpanded reports whether id was expanded within the last
// RecentWindow expansions.
func (s *Session) RecentlyExpanded(id string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.expanded[id]
	return ok && s.seq-at < RecentWindow
}

// ExpandedCount returns how many distinct handles were expanded.
func (s *Session) ExpandedCount() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.expanded)
}

func (s *Session) issue(id string, hash uint64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.issued[id] = hash
	s.mu.Unlock()
}

// issuedHash returns the content hash id had when it was handed out.
func (s *Session) issuedHash(id string) (uint64, bool) {
	if s == nil {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.issued[id]
	return h, ok
}
