// Package hooks is AutoContext: the engine that turns Claude Code hook
// events into small, high-signal context cards. It decides which workspace
// an event belongs to (starting its index when needed), what is worth
// saying (where a searched symbol lives, who calls what was just read,
// which callers and tests an edit affects), and when to stay quiet
// (throttle, novelty, budget). The daemon implements Host; the engine
// holds no graphs of its own.
package hooks

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
)

// Host is what the engine needs from the daemon.
type Host interface {
	// Lookup returns the registered workspace root holding path.
	Lookup(path string) (root string, ok bool)
	// Init registers root and starts indexing it in the background when it
	// is new (or its last run failed). It never waits for the index.
	Init(root string) (View, error)
	// View returns root's current state; ok is false when root is not
	// registered.
	View(root string) (View, bool)
	// Apply brings the given files (absolute paths) of root up to date now
	// and returns the graph before and after. before is nil when root has
	// no graph yet. (When an update already applied the edit, Apply's
	// before is the graph after it: the engine diffs against what the
	// host told it through Changed.)
	// It gives up (with an error) when ctx ends first; the update then
	// finishes in the background.
	Apply(ctx context.Context, root string, paths []string) (before, after *graph.Graph, err error)
	// Rescan brings root up to date with its tree in the background (after
	// a branch switch, a pull, a stash).
	Rescan(root string)
	// Prepare says a tool is about to read or edit path (absolute): the
	// host may get ready, in the background, to apply an edit of it fast.
	Prepare(root, path string)
	// Board describes root's evidence board; the zero value when it has
	// none.
	Board(root string) BoardInfo
	// SnapshotBoard persists root's board now (before a compaction).
	SnapshotBoard(root string)
	// SaveImpact writes the impact view of node id as an artifact, in the
	// background.
	SaveImpact(root, id string)
	// Mirror asks for root's artifacts to be copied to
	// configDir/codecanvas/ too (CLAUDE_CONFIG_DIR of the session).
	Mirror(root, configDir string)
}

// View is a workspace as the engine sees it.
type View struct {
	Root      string
	State     string // indexing, ready, failed
	Error     string
	Graph     *graph.Graph // nil until the first index is done
	Files     int
	Languages map[string]int
	Phase     string
	Done      int
	Total     int
	// LSP is a short line on language-server availability, "" when unknown.
	LSP string
	// Runs is the workspace's recording of which tests run which
	// functions (`ccd tests record`), nil when there is none: cards then
	// name the tests seen running a function.
	Runs graph.TestRuns
}

// BoardInfo is the part of an evidence board a card shows.
type BoardInfo struct {
	Summary string          // "Board: N evidence, ... | Focus: X | Progress: d/t addressed"
	Lines   []string        // focus, open claims, recent decisions
	Marked  map[string]bool // node ids a mark or skip decision addressed
}

// Env is what the shim forwards from the hook process's environment.
type Env struct {
	ProjectDir string // CLAUDE_PROJECT_DIR
	ConfigDir  string // CLAUDE_CONFIG_DIR
	Agent      string // ccd-hook --agent: "" to tell from the payload
}

// Engine answers hook events. It is safe for concurrent use.
type Engine struct {
	host Host
	pol  config.Hooks
	sess *sessions
	log  *decisionLog
	now  func() time.Time
	// recent is the graph before recent changes of each file (before.go).
	recent recentChanges
}

// New returns an engine; stateDir holds its session memory
// (hooks-state.json) and decision log (hooks.jsonl). An empty stateDir
// keeps everything in memory.
func New(h Host, pol config.Hooks, stateDir string) *Engine {
	e := &Engine{host: h, pol: pol, now: time.Now}
	statePath, logPath := "", ""
	if stateDir != "" {
		statePath, logPath = filepath.Join(stateDir, "hooks-state.json"), filepath.Join(stateDir, "hooks.jsonl")
	}
	e.sess = loadSessions(statePath)
	e.log = newDecisionLog(logPath)
	return e
}

// Close writes the session memory.
func (e *Engine) Close() {
	e.sess.mu.Lock()
	e.sess.markDirty()
	e.sess.mu.Unlock()
	e.sess.flush()
}

// Stats returns event counts, cards and latencies per event type.
func (e *Engine) Stats() map[string]EventStats { return e.log.Stats() }

// outcome is what a handler decided.
type outcome struct {
	kind   string // card kind, "" for none
	root   string
	text   string
	reason string
	// cool is the (root, file, symbol) key of the cool-down; "" for none.
	cool string
	// exempt cards (orientation, AUTO-INIT, armed) skip the budget.
	exempt bool
}

// Handle answers one event: the JSON to print on the hook's stdout, or nil
// for nothing. An error means the payload was unusable; the shim then
// prints nothing either.
func (e *Engine) Handle(ctx context.Context, body []byte, env Env) ([]byte, error) {
	t0 := e.now()
	ev, err := ParseAgentEvent(body, env.Agent)
	if err != nil {
		e.log.record(Decision{Time: stamp(t0), Event: "invalid", Action: "none", Reason: err.Error(),
			MS: ms(e.now().Sub(t0))}, env.ConfigDir)
		return nil, err
	}
	ev.ProjectDir, ev.ConfigDir = env.ProjectDir, env.ConfigDir
	if e.pol.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.pol.Deadline)
		defer cancel()
	}
	var out outcome
	switch ev.Name {
	case "SessionStart":
		out = e.sessionStart(ev)
	case "PreToolUse":
		out = e.preTool(ctx, ev)
	case "PostToolUse":
		out = e.postTool(ctx, ev)
	case "PostToolUseFailure":
		out = e.postToolFailure(ev)
	case "PreCompact":
		out = e.preCompact(ev)
	case "Stop", "SubagentStop":
		out = e.stop(ev)
	default:
		out = outcome{reason: "event not handled"}
	}
	if out.text != "" {
		if !e.admit(ev, &out) {
			out.text = ""
		}
	}
	if ev.ConfigDir != "" && out.root != "" {
		e.host.Mirror(out.root, ev.ConfigDir)
	}
	d := Decision{Time: stamp(t0), Event: ev.Name, Tool: ev.Tool, Session: ev.SessionID, Agent: ev.AgentID,
		Root: out.root, Action: "none", Reason: out.reason, MS: ms(e.now().Sub(t0))}
	if ev.Agent != AgentClaude {
		d.Client = ev.Agent
	}
	if out.text != "" {
		d.Action, d.Chars = out.kind, len(out.text)
	}
	e.log.record(d, ev.ConfigDir)
	if out.text == "" {
		return nil, nil
	}
	return ev.output(out.text)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// admit applies novelty, cool-down and budget, and records the card.
func (e *Engine) admit(ev *Event, out *outcome) bool {
	now := e.now()
	e.sess.mu.Lock()
	defer e.sess.mu.Unlock()
	s := e.sess.get(ev.key(), now)
	k := textKey(out.text)
	if t, ok := s.Cards[k]; ok && now.Sub(t) < e.pol.Novelty {
		out.reason = "same card shown " + now.Sub(t).Round(time.Second).String() + " ago"
		return false
	}
	if out.cool != "" {
		if t, ok := s.Cool[out.cool]; ok && now.Sub(t) < e.pol.Cooldown {
			out.reason = "cool-down for " + out.cool
			return false
		}
	}
	if !out.exempt {
		recent := s.Emitted[:0]
		for _, t := range s.Emitted {
			if now.Sub(t) < e.pol.BudgetWindow {
				recent = append(recent, t)
			}
		}
		s.Emitted = recent
		if len(recent) >= e.pol.Budget {
			out.reason = "card budget spent"
			return false
		}
		s.Emitted = append(s.Emitted, now)
	}
	s.Cards[k] = now
	if out.cool != "" {
		s.Cool[out.cool] = now
	}
	// Forget old novelty entries so the memory stays small.
	for key, t := range s.Cards {
		if now.Sub(t) > e.pol.Novelty {
			delete(s.Cards, key)
		}
	}
	for key, t := range s.Cool {
		if now.Sub(t) > e.pol.Cooldown {
			delete(s.Cool, key)
		}
	}
	e.sess.markDirty()
	return true
}

// withSession runs fn on the event's session under the lock and schedules
// a save of the session memory.
func (e *Engine) withSession(ev *Event, fn func(s *session)) {
	e.sess.mu.Lock()
	defer e.sess.mu.Unlock()
	fn(e.sess.get(ev.key(), e.now()))
	e.sess.markDirty()
}

// peekSession runs fn, which only reads, on the event's session: no save
// is scheduled (most events only read it, and the file need not be
// rewritten for them).
func (e *Engine) peekSession(ev *Event, fn func(s *session)) {
	e.sess.mu.Lock()
	defer e.sess.mu.Unlock()
	fn(e.sess.get(ev.key(), e.now()))
}

// locate returns the workspace root for a path: a registered workspace
// holding it, else the marker-backed project around it.
func (e *Engine) locate(p string) string {
	if p == "" {
		return ""
	}
	if r, ok := e.host.Lookup(p); ok {
		return r
	}
	return FindRoot(p)
}

// rootFor resolves the event's workspace, trying in order the tool's file
// path, then its path fields, then the session's sticky root, then cwd, then
// CLAUDE_PROJECT_DIR. strong says a file or path field decided.
func (e *Engine) rootFor(ev *Event) (root string, strong bool) {
	if r := e.locate(abs(ev.FilePath(), ev.Cwd)); r != "" {
		return r, true
	}
	if r := e.locate(abs(ev.PathField(), ev.Cwd)); r != "" {
		return r, true
	}
	var active string
	e.peekSession(ev, func(s *session) { active = s.Active })
	if active != "" {
		return active, false
	}
	if r := e.locate(ev.Cwd); r != "" {
		return r, false
	}
	return e.locate(ev.ProjectDir), false
}

// rel returns p relative to root, or "" when p is outside it.
func rel(root, p string) string {
	if p == "" {
		return ""
	}
	r, err := filepath.Rel(root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		if real, err2 := filepath.EvalSymlinks(filepath.Dir(p)); err2 == nil {
			if r, err = filepath.Rel(root, filepath.Join(real, filepath.Base(p))); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
				return filepath.ToSlash(r)
			}
		}
		return ""
	}
	return filepath.ToSlash(r)
}
