package daemon

import (
	"fmt"
	"testing"
	"time"
)

// TestSearchSessionsBounded: a client's session is kept between calls,
// but the map forgets idle sessions and never holds more than
// maxSessions.
func TestSearchSessionsBounded(t *testing.T) {
	var ss searchSessions
	a := ss.get("/w", "cli")
	if ss.get("/w", "cli") != a || ss.get("/v", "cli") == a || ss.get("/w", "other") == a {
		t.Fatal("sessions are not kept per workspace and name")
	}
	for i := range 2 * maxSessions {
		ss.get("/w", fmt.Sprint("s", i))
	}
	if n := len(ss.m); n != maxSessions {
		t.Errorf("%d sessions kept, want at most %d", n, maxSessions)
	}
	if _, ok := ss.m["/w\x00s"+fmt.Sprint(2*maxSessions-1)]; !ok {
		t.Error("the newest session was dropped")
	}
	for _, e := range ss.m {
		e.used = time.Now().Add(-2 * sessionIdle)
	}
	ss.get("/w", "fresh")
	if n := len(ss.m); n != 1 {
		t.Errorf("%d sessions after all went idle, want only the new one", n)
	}
}
