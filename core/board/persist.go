package board

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Format and Version identify the bytes Marshal produces.
const (
	Format  = "ccd-board"
	Version = 1
	// StateSchema names the layout WriteState produces.
	StateSchema = "ccd.state/1"
)

type envelope struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	state
}

// Marshal encodes the whole board (versioned JSON) for storage. Unmarshal
// reads it back.
func (b *Board) Marshal() ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, err := json.Marshal(envelope{Format: Format, Version: Version, state: b.st})
	if err != nil {
		return nil, fmt.Errorf("marshal board: %w", err)
	}
	return data, nil
}

// Unmarshal decodes bytes made by Marshal. It refuses other formats and
// newer versions, checks that ids are well formed and unique, and raises
// the id counters above every id present so new ids never collide.
func Unmarshal(data []byte) (*Board, error) {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&env); err != nil {
		return nil, &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: %v", err),
			Hint: "the stored board is damaged; start a new one"}
	}
	switch {
	case env.Format != Format:
		return nil, &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: format %q, want %q", env.Format, Format),
			Hint: "these bytes are not a ccd board"}
	case env.Version > Version:
		return nil, &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: version %d is newer than this ccd understands (%d)", env.Version, Version),
			Hint: "upgrade ccd"}
	case env.Version < 1:
		return nil, &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: bad version %d", env.Version),
			Hint: "the stored board is damaged; start a new one"}
	}
	st := env.state
	if err := st.normalise(); err != nil {
		return nil, err
	}
	return &Board{now: time.Now, st: st}, nil
}

// normalise fills nil collections and checks ids.
func (st *state) normalise() error {
	seen := map[string]bool{}
	check := func(prefix, id string, max *int) error {
		n, err := strconv.Atoi(strings.TrimPrefix(id, prefix))
		if !strings.HasPrefix(id, prefix) || err != nil || n < 1 {
			return &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: bad id %q", id), Hint: "the stored board is damaged; start a new one"}
		}
		if seen[id] {
			return &Error{Code: CodeBadState, Message: fmt.Sprintf("decode board: duplicate id %q", id), Hint: "the stored board is damaged; start a new one"}
		}
		seen[id] = true
		*max = maxInt(*max, n)
		return nil
	}
	for i := range st.Evidence {
		if err := check("E", st.Evidence[i].ID, &st.Seq.E); err != nil {
			return err
		}
		if st.Evidence[i].Metrics == nil {
			st.Evidence[i].Metrics = map[string]int{}
		}
	}
	for _, c := range st.Claims {
		if err := check("C", c.ID, &st.Seq.C); err != nil {
			return err
		}
	}
	for _, d := range st.Decisions {
		if err := check("D", d.ID, &st.Seq.D); err != nil {
			return err
		}
	}
	var as []*Analysis
	for _, a := range st.Analyses {
		if a == nil || a.Key == "" {
			continue
		}
		if a.Addressed == nil {
			a.Addressed = map[string]Address{}
		}
		if a.Nodes == nil {
			a.Nodes = []Ref{}
		}
		as = append(as, a)
	}
	st.Analyses = as
	if st.Latest != "" && !seen[st.Latest] {
		st.Latest = ""
	}
	if st.Focus.Analysis != "" {
		found := false
		for _, a := range as {
			found = found || a.Key == st.Focus.Analysis
		}
		if !found {
			st.Focus.Analysis = ""
		}
	}
	return nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Snapshot is a deep copy of the board at one instant, for rendering and
// text dumps.
type Snapshot struct {
	Project    Project
	Evidence   []Evidence
	Claims     []Claim
	Decisions  []Decision
	Focus      Focus
	Analyses   []Analysis
	Tasks      []Task
	ActiveTask string
	// Latest is the evidence new claims and decisions link to.
	Latest string
	// View is the summary at the instant of the snapshot (its Next is the
	// hint for "status").
	View    View
	Rev     uint64
	Updated time.Time
}

// Snapshot copies the board.
func (b *Board) Snapshot() Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := Snapshot{
		Project:    b.st.Project,
		Evidence:   make([]Evidence, len(b.st.Evidence)),
		Claims:     append([]Claim{}, b.st.Claims...),
		Decisions:  append([]Decision{}, b.st.Decisions...),
		Focus:      b.st.Focus,
		Analyses:   make([]Analysis, len(b.st.Analyses)),
		Tasks:      cloneTasks(b.st.Tasks),
		ActiveTask: b.st.ActiveTask,
		Latest:     b.st.Latest,
		View:       b.view("status"),
		Rev:        b.st.Rev,
		Updated:    b.st.Updated,
	}
	if b.st.Project.Languages != nil {
		s.Project.Languages = copyMetrics(b.st.Project.Languages)
	}
	for i, e := range b.st.Evidence {
		e.Metrics = copyMetrics(e.Metrics)
		s.Evidence[i] = e
	}
	for i, a := range b.st.Analyses {
		s.Analyses[i] = *a.clone()
	}
	return s
}

// stateFile is the layout of .codecanvas/state.json (see the package
// documentation).
type stateFile struct {
	Schema     string          `json:"schema"`
	Summary    string          `json:"summary"`
	Project    Project         `json:"project"`
	Focus      Focus           `json:"focus"`
	Progress   *Progress       `json:"progress"`
	Evidence   []Evidence      `json:"evidence"`
	Claims     []Claim         `json:"claims"`
	Decisions  []Decision      `json:"decisions"`
	Analyses   []stateAnalysis `json:"analyses"`
	Tasks      []Task          `json:"tasks"`
	ActiveTask string          `json:"active_task,omitempty"`
	Latest     string          `json:"latest_evidence,omitempty"`
	Rev        uint64          `json:"rev"`
	Updated    time.Time       `json:"updated,omitzero"`
}

type stateAnalysis struct {
	Analysis
	Progress string `json:"progress"` // "d/t"
}

// WriteState writes the human-readable .codecanvas/state.json: indented
// JSON in the layout the package documentation describes.
func (b *Board) WriteState(w io.Writer) error {
	s := b.Snapshot()
	f := stateFile{Schema: StateSchema, Summary: s.View.Summary, Project: s.Project, Focus: s.Focus,
		Progress: s.View.Progress, Evidence: s.Evidence, Claims: s.Claims, Decisions: s.Decisions,
		Analyses: []stateAnalysis{}, Tasks: s.Tasks, ActiveTask: s.ActiveTask, Latest: s.Latest, Rev: s.Rev, Updated: s.Updated}
	for _, a := range s.Analyses {
		p := a.progress()
		f.Analyses = append(f.Analyses, stateAnalysis{Analysis: a, Progress: fmt.Sprintf("%d/%d", p.Done, p.Total)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("write state.json: %w", err)
	}
	return nil
}
