package testmap

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/core/words"
)

// FileName is the recording's name under a workspace's .codecanvas/
// (store.Dir).
const FileName = "tests.json"

// format is the version of the file's layout; a file of another version
// is ignored (record again).
const format = 1

// Recording says which tests ran which functions when the test suites
// last ran under the tracer.
type Recording struct {
	Format int `json:"format"`
	// Made is when the recording finished; Seconds how long it took.
	Made    time.Time `json:"made"`
	Seconds float64   `json:"seconds"`
	// Suites says what ran, one line per suite ("go test ./mux (83
	// tests)", "python3 unittest (218 tests)").
	Suites []string `json:"suites"`
	// Problems are what could not be recorded (a package that does not
	// build, a test that timed out, a suite cut by the time budget).
	Problems []string `json:"problems,omitempty"`
	// Tests are the node ids of the tests that ran.
	Tests []string `json:"tests"`
	// Funcs maps the node id of every function the recording covers to
	// the tests (indexes into Tests) seen running it; a function that no
	// test ran maps to an empty list. A function absent from Funcs is not
	// known to the recording (outside what was traced, or added since).
	Funcs map[string][]int `json:"funcs"`

	recorded   map[string]bool
	known, ran int // Ran's counts, made with recorded
}

var _ graph.TestRuns = (*Recording)(nil)

// TestsRan implements graph.TestRuns.
func (r *Recording) TestsRan(id string) ([]string, bool) {
	idx, ok := r.Funcs[id]
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(idx))
	for _, t := range idx {
		if t >= 0 && t < len(r.Tests) {
			out = append(out, r.Tests[t])
		}
	}
	return out, true
}

// RecordedAt is when the recording was made.
func (r *Recording) RecordedAt() time.Time { return r.Made }

// Recorded implements graph.TestRuns.
func (r *Recording) Recorded(id string) bool { return r.recorded[id] }

// index makes what the answers read (once: a snapshot asks for the
// summary on every hook event).
func (r *Recording) index() {
	r.recorded = make(map[string]bool, len(r.Tests))
	for _, t := range r.Tests {
		r.recorded[t] = true
	}
	r.known, r.ran = len(r.Funcs), 0
	for _, ts := range r.Funcs {
		if len(ts) > 0 {
			r.ran++
		}
	}
}

// Ran returns how many functions the recording knows and how many of them
// some test ran.
func (r *Recording) Ran() (known, ran int) { return r.known, r.ran }

// Summary is one line about the recording for people: its age, its
// tests and its functions.
func (r *Recording) Summary(now time.Time) string {
	known, ran := r.Ran()
	return fmt.Sprintf("recorded %s ago: %d tests ran %d of %d functions", words.Age(now.Sub(r.Made)), len(r.Tests), ran, known)
}

// Path is where the recording of the workspace at root lives.
func Path(root string) string { return filepath.Join(root, store.Dir, FileName) }

// Save writes r as root's recording (atomically: a reader sees the old
// file or the new one).
func Save(root string, r *Recording) error { return SaveFile(Path(root), r) }

// SaveFile writes r to the file p (atomically).
func SaveFile(p string, r *Recording) error {
	r.Format = format
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	return nil
}

// Load reads root's recording; it returns nil and no error when there is
// none, and an error naming the file when it cannot be read.
func Load(root string) (*Recording, error) { return LoadFile(Path(root)) }

// LoadFile reads the recording in file p (nil and no error when there is
// none).
func LoadFile(p string) (*Recording, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("testmap: %w", err)
	}
	return decode(p, data)
}

func decode(p string, data []byte) (*Recording, error) {
	var r Recording
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("testmap: %s is not a recording (%v): run `ccd tests record` again", p, err)
	}
	if r.Format != format {
		return nil, fmt.Errorf("testmap: %s has format %d, this ccd reads %d: run `ccd tests record` again", p, r.Format, format)
	}
	r.index()
	return &r, nil
}

// Cache holds one workspace's recording, read again only when the file
// changes (its size or modification time), so that every answer can ask
// for it cheaply.
type Cache struct {
	root string
	mu   sync.Mutex
	key  string // the file's size and time when read; "" when there was none
	read bool   // key, rec and err are of a read
	rec  *Recording
	err  error
}

// NewCache returns a cache of root's recording.
func NewCache(root string) *Cache { return &Cache{root: root} }

// Get returns the recording (nil when there is none) and the error of
// reading it, if any.
func (c *Cache) Get() (*Recording, error) {
	if c == nil {
		return nil, nil
	}
	p := Path(c.root)
	fi, err := os.Stat(p)
	key := ""
	if err == nil {
		key = fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read && key == c.key {
		return c.rec, c.err
	}
	c.key, c.read, c.rec, c.err = key, true, nil, nil
	if key != "" {
		c.rec, c.err = Load(c.root)
	}
	return c.rec, c.err
}
