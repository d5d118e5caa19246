package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Decision is one line of the debug log: what the engine did with an event
// and why.
type Decision struct {
	Time    string  `json:"time"`
	Event   string  `json:"event"`
	Tool    string  `json:"tool,omitempty"`
	Session string  `json:"session,omitempty"`
	Agent   string  `json:"agent,omitempty"`  // the subagent, inside one
	Client  string  `json:"client,omitempty"` // the coding agent, when not Claude Code
	Root    string  `json:"root,omitempty"`
	Action  string  `json:"action"`           // card kind, or "none"
	Reason  string  `json:"reason,omitempty"` // why (not) a card
	MS      float64 `json:"ms"`
	Chars   int     `json:"card_chars"`
}

// EventStats are the counters of one event type.
type EventStats struct {
	Count int     `json:"count"`
	Cards int     `json:"cards"`
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
}

const maxLogSize = 16 << 20

// decisionLog appends decisions as JSONL to the state dir (and a mirror
// under $CLAUDE_CONFIG_DIR/codecanvas/ when the event names one) and keeps
// per-event counters and recent latencies.
type decisionLog struct {
	path string

	mu    sync.Mutex
	stats map[string]*eventStats
}

type eventStats struct {
	count, cards int
	lat          []float64 // ring of recent latencies
	next         int
}

const latWindow = 2048

func newDecisionLog(path string) *decisionLog {
	return &decisionLog{path: path, stats: map[string]*eventStats{}}
}

func (l *decisionLog) record(d Decision, mirrorDir string) {
	l.mu.Lock()
	st := l.stats[d.Event]
	if st == nil {
		st = &eventStats{}
		l.stats[d.Event] = st
	}
	st.count++
	if d.Chars > 0 {
		st.cards++
	}
	if len(st.lat) < latWindow {
		st.lat = append(st.lat, d.MS)
	} else {
		st.lat[st.next] = d.MS
		st.next = (st.next + 1) % latWindow
	}
	l.mu.Unlock()
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	b = append(b, '\n')
	if l.path != "" {
		appendFile(l.path, b)
	}
	if mirrorDir != "" {
		appendFile(filepath.Join(mirrorDir, "codecanvas", "hook_debug.jsonl"), b)
	}
}

// appendFile appends b, rotating the file once it grows past maxLogSize.
func appendFile(p string, b []byte) {
	if st, err := os.Stat(p); err == nil && st.Size() > maxLogSize {
		os.Rename(p, p+".1")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.Write(b)
	f.Close()
}

// Stats returns the counters per event type.
func (l *decisionLog) Stats() map[string]EventStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]EventStats, len(l.stats))
	for ev, st := range l.stats {
		lat := append([]float64(nil), st.lat...)
		sort.Float64s(lat)
		out[ev] = EventStats{Count: st.count, Cards: st.cards, P50MS: quantile(lat, 0.50), P99MS: quantile(lat, 0.99)}
	}
	return out
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)-1))
	return float64(int(sorted[i]*1000)) / 1000
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
