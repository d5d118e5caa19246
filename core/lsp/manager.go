package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options configure a Manager. Zero values mean the defaults.
type Options struct {
	// Servers are the server candidates in priority order; nil means
	// DefaultServers().
	Servers []ServerSpec
	// SearchPath are directories searched for server executables before
	// PATH; nil means DefaultSearchPath() ($CCD_LSP_PATH, then the
	// repository's .tools/bin beside the executable).
	SearchPath []string
	// StartTimeout bounds a server's start and initialize (default 60 s).
	StartTimeout time.Duration
	// RequestTimeout bounds every request on top of the caller's context
	// (default 30 s).
	RequestTimeout time.Duration
	// IdleTimeout stops a session unused for that long (default 10 min;
	// negative: never).
	IdleTimeout time.Duration
	// ShutdownGrace is how long a server may take to shut down and exit
	// before its process group is killed (default 2 s).
	ShutdownGrace time.Duration
	// RestartBackoff is the wait before restarting a crashed server; it
	// doubles with every further crash up to MaxBackoff (defaults 1 s and
	// 5 min). A server that ran for 5 minutes before crashing starts over.
	RestartBackoff, MaxBackoff time.Duration
	// Logf receives servers' error and warning messages and lifecycle
	// events; nil discards them.
	Logf func(format string, args ...any)
}

func (o Options) withDefaults() Options {
	if o.Servers == nil {
		o.Servers = DefaultServers()
	}
	if o.SearchPath == nil {
		o.SearchPath = DefaultSearchPath()
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 60 * time.Second
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 30 * time.Second
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 10 * time.Minute
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 2 * time.Second
	}
	if o.RestartBackoff <= 0 {
		o.RestartBackoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Minute
	}
	return o
}

// ErrClosed is returned by a Manager (and its sessions) after Close.
var ErrClosed = errors.New("lsp manager closed")

// Manager owns the language-server sessions of a process: one per
// (language, workspace root). It is safe for concurrent use.
type Manager struct {
	opt Options

	mu       sync.Mutex
	sessions map[sessionKey]*Session
	resolved map[string]resolution // by language
	closed   bool
	done     chan struct{}
}

type sessionKey struct{ lang, root string }

// resolution caches which candidate serves a language.
type resolution struct {
	spec    ServerSpec
	path    string
	version string
	err     error
	at      time.Time
}

// missingTTL is how long a "not found" answer is cached, so that a server
// installed later is picked up.
const missingTTL = 30 * time.Second

// NewManager returns a manager; it starts no server until one is needed.
func NewManager(opt Options) *Manager {
	m := &Manager{opt: opt.withDefaults(), sessions: map[sessionKey]*Session{},
		resolved: map[string]resolution{}, done: make(chan struct{})}
	if m.opt.IdleTimeout > 0 {
		go m.janitor()
	}
	return m
}

// Options returns the manager's effective options.
func (m *Manager) Options() Options { return m.opt }

// Detect reports the servers of the manager's table, as Detect does.
func (m *Manager) Detect(ctx context.Context) []Detection {
	return Detect(ctx, m.opt.Servers, m.opt.SearchPath)
}

// LanguageFor returns the Language of the first server candidate that
// serves the file's extension, or "".
func (m *Manager) LanguageFor(file string) string {
	for _, s := range m.opt.Servers {
		if s.Serves(file) {
			return s.Language
		}
	}
	return ""
}

// Session returns the session of a language for a workspace root,
// creating it (not starting it) when needed. It fails when no candidate
// server for the language is installed (errors.Is(err, ErrNotFound)).
func (m *Manager) Session(lang, root string) (*Session, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("lsp session %s: %w", root, err)
	}
	res, err := m.resolve(lang)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	k := sessionKey{lang, abs}
	if s := m.sessions[k]; s != nil {
		return s, nil
	}
	s := &Session{m: m, spec: res.spec, path: res.path, version: res.version, root: abs, lastUsed: time.Now()}
	m.sessions[k] = s
	return s, nil
}

// SessionFor returns the session serving a file (by extension).
func (m *Manager) SessionFor(root, file string) (*Session, error) {
	lang := m.LanguageFor(file)
	if lang == "" {
		return nil, fmt.Errorf("no language server is configured for %s files: %w", filepath.Ext(file), ErrNotFound)
	}
	return m.Session(lang, root)
}

// resolve picks the first installed candidate for a language.
func (m *Manager) resolve(lang string) (resolution, error) {
	m.mu.Lock()
	r, ok := m.resolved[lang]
	m.mu.Unlock()
	if ok && (r.err == nil || time.Since(r.at) < missingTTL) {
		return r, r.err
	}
	var problems []string
	r = resolution{at: time.Now()}
	for _, s := range m.opt.Servers {
		if s.Language != lang {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		path, version, err := resolveSpec(ctx, s, m.opt.SearchPath)
		cancel()
		if err == nil {
			r.spec, r.path, r.version = withPythonPath(s), path, version
			break
		}
		problems = append(problems, err.Error())
	}
	if r.path == "" {
		if len(problems) == 0 {
			r.err = fmt.Errorf("no language server is configured for %q: %w", lang, ErrNotFound)
		} else {
			r.err = fmt.Errorf("no language server for %q: %s: %w", lang, joinProblems(problems), ErrNotFound)
		}
	}
	m.mu.Lock()
	m.resolved[lang] = r
	m.mu.Unlock()
	return r, r.err
}

// ServerNames names the server candidates of a language ("tsc or
// typescript-language-server"), or the language itself when none is
// configured.
func (m *Manager) ServerNames(lang string) string {
	var names []string
	for _, s := range m.opt.Servers {
		if s.Language == lang {
			names = append(names, s.DisplayName())
		}
	}
	if len(names) == 0 {
		return lang
	}
	return strings.Join(names, " or ")
}

// Available reports whether a server for the language is installed now.
// A "not found" answer is cached for a while (missingTTL); Rescan drops
// it.
func (m *Manager) Available(lang string) bool {
	_, err := m.resolve(lang)
	return err == nil
}

// Rescan forgets the languages found to have no server, so the next
// Session, Available or Detect looks for them again at once (after an
// install).
func (m *Manager) Rescan() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for lang, r := range m.resolved {
		if r.err != nil {
			delete(m.resolved, lang)
		}
	}
}

func joinProblems(ps []string) string {
	out := ps[0]
	for _, p := range ps[1:] {
		out += "; " + p
	}
	return out
}

// Status returns the state of every session, sorted by root and language.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	ss := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		ss = append(ss, s)
	}
	m.mu.Unlock()
	out := make([]Status, 0, len(ss))
	for _, s := range ss {
		out = append(out, s.Status())
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Root != out[j].Root {
			return out[i].Root < out[j].Root
		}
		return out[i].Language < out[j].Language
	})
	return out
}

// StopRoot stops and forgets the sessions of a workspace root.
func (m *Manager) StopRoot(root string) {
	abs, _ := filepath.Abs(root)
	m.mu.Lock()
	var stop []*Session
	for k, s := range m.sessions {
		if k.root == abs {
			stop = append(stop, s)
			delete(m.sessions, k)
		}
	}
	m.mu.Unlock()
	stopAll(stop, true)
}

// Close stops every session (shutdown, exit, kill after the grace period)
// and makes the manager refuse new work.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	close(m.done)
	var stop []*Session
	for k, s := range m.sessions {
		stop = append(stop, s)
		delete(m.sessions, k)
	}
	m.mu.Unlock()
	stopAll(stop, true)
	return nil
}

// stopAll stops sessions in parallel and waits for them.
func stopAll(ss []*Session, final bool) {
	var wg sync.WaitGroup
	for _, s := range ss {
		wg.Add(1)
		go func(s *Session) {
			defer wg.Done()
			s.stop(final)
		}(s)
	}
	wg.Wait()
}

// janitor stops sessions that have been idle for IdleTimeout.
func (m *Manager) janitor() {
	every := m.opt.IdleTimeout / 4
	if every > 30*time.Second {
		every = 30 * time.Second
	}
	if every < 100*time.Millisecond {
		every = 100 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.done:
			return
		case <-t.C:
		}
		m.mu.Lock()
		ss := make([]*Session, 0, len(m.sessions))
		for _, s := range m.sessions {
			ss = append(ss, s)
		}
		m.mu.Unlock()
		for _, s := range ss {
			if s.idleFor() > m.opt.IdleTimeout {
				m.logf("lsp %s %s: idle for %s, stopping", s.spec.DisplayName(), s.root, m.opt.IdleTimeout)
				s.stop(false)
			}
		}
	}
}

func (m *Manager) logf(format string, args ...any) {
	if m.opt.Logf != nil {
		m.opt.Logf(format, args...)
	}
}
