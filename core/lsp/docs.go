package lsp

import (
	"context"
	"time"
)

// docKey is a document a refinement has open on a session.
type docKey struct {
	s   *Session
	rel string
}

// acquire marks a document as in use by this refinement; requests open it
// on the server when they need it.
func (r *refiner) acquire(s *Session, rel string) {
	r.mu.Lock()
	r.docs[docKey{s, rel}]++
	r.mu.Unlock()
}

// release ends one use of a document and closes it on the server when no
// use is left, so that a refinement keeps few documents open (an open
// document costs the server memory) and a long-lived session does not
// accumulate them.
func (r *refiner) release(s *Session, rel string) {
	k := docKey{s, rel}
	r.mu.Lock()
	r.docs[k]--
	last := r.docs[k] <= 0
	if last {
		delete(r.docs, k)
	}
	r.mu.Unlock()
	if last && !s.spec.NoOpen {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.CloseDocument(ctx, rel)
	}
}
