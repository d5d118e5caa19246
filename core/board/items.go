package board

import (
	"fmt"
	"strings"
	"time"
)

// EvidenceKind says what produced a piece of evidence.
type EvidenceKind string

// Evidence kinds.
const (
	// Architecture is the overview recorded by init.
	Architecture EvidenceKind = "architecture"
	// Impact is the blast radius of one symbol.
	Impact EvidenceKind = "impact"
)

// ClaimKind is what a claim asserts.
type ClaimKind string

// Claim kinds.
const (
	Hypothesis ClaimKind = "hypothesis" // "changing X may break Y"
	Finding    ClaimKind = "finding"    // "X depends on Y via Z"
	Question   ClaimKind = "question"   // "does X handle nil?"
)

// ClaimKinds lists the claim kinds in the order help texts name them.
var ClaimKinds = []ClaimKind{Hypothesis, Finding, Question}

// ClaimStatus is where a claim stands.
type ClaimStatus string

// Claim statuses. Every claim starts Open; hypotheses and findings end
// Confirmed or Refuted, questions end Answered.
const (
	Open      ClaimStatus = "open"
	Confirmed ClaimStatus = "confirmed"
	Refuted   ClaimStatus = "refuted"
	Answered  ClaimStatus = "answered"
)

// DecisionKind is what a decision commits to.
type DecisionKind string

// Decision kinds. Plan, Test and Edit come from decide; Mark and Skip from
// the mark and skip actions, which also address a node of an analysis.
const (
	Plan DecisionKind = "plan" // "will refactor X, then update Y's tests"
	Test DecisionKind = "test" // "verify X with unit tests"
	Edit DecisionKind = "edit" // "change X's signature from A to B"
	Mark DecisionKind = "mark" // "X verified via tests"
	Skip DecisionKind = "skip" // "X out of scope"
)

// DecideKinds lists the kinds decide accepts.
var DecideKinds = []DecisionKind{Plan, Test, Edit}

// ParseClaimKind reads a claim kind; "" means Hypothesis.
func ParseClaimKind(s string) (ClaimKind, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Hypothesis, nil
	}
	for _, k := range ClaimKinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", &Error{Code: CodeBadKind, Message: fmt.Sprintf("unknown claim kind %q", s),
		Hint: `use kind=hypothesis, finding or question (or confirmed, refuted, answered with text="C1: why" to settle claim C1)`}
}

// ParseClaimStatus reads a final claim status (confirmed, refuted,
// answered). It reports false for anything else.
func ParseClaimStatus(s string) (ClaimStatus, bool) {
	switch st := ClaimStatus(strings.ToLower(strings.TrimSpace(s))); st {
	case Confirmed, Refuted, Answered:
		return st, true
	}
	return "", false
}

// ParseDecideKind reads a decision kind for decide; "" means Plan.
func ParseDecideKind(s string) (DecisionKind, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch DecisionKind(s) {
	case "":
		return Plan, nil
	case Plan, Test, Edit:
		return DecisionKind(s), nil
	case Mark, Skip:
		return "", &Error{Code: CodeBadKind, Message: fmt.Sprintf("decide does not take kind=%s", s),
			Hint: fmt.Sprintf(`use canvas(action=%q, symbol="...", text="...") to %s a symbol`, s, s)}
	}
	return "", &Error{Code: CodeBadKind, Message: fmt.Sprintf("unknown decision kind %q", s),
		Hint: "use kind=plan, test or edit"}
}

// Ref names a graph node: its id and the label people read.
type Ref struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Evidence is an analysis artefact: the architecture overview of init, or
// the blast radius of one symbol.
type Evidence struct {
	ID   string       `json:"id"` // E1, E2, ...
	Kind EvidenceKind `json:"kind"`
	// Symbol is the label of the analysed node (impact only).
	Symbol string `json:"symbol,omitempty"`
	// Node is the id of the analysed node (impact only).
	Node string `json:"node,omitempty"`
	// Metrics are the figures of the view: see the package documentation
	// for the keys each kind uses.
	Metrics map[string]int `json:"metrics"`
	// Generation is the graph generation the evidence reflects.
	Generation uint64 `json:"generation"`
	// Image is the file name of the rendered picture under .codecanvas/,
	// when whoever saves pictures has recorded it (SetImage).
	Image   string    `json:"image,omitempty"`
	Created time.Time `json:"created"`
}

// Claim is an assertion of the agent, linked to the evidence that was
// latest when it was made.
type Claim struct {
	ID       string      `json:"id"` // C1, C2, ...
	Kind     ClaimKind   `json:"kind"`
	Text     string      `json:"text"`
	Status   ClaimStatus `json:"status"`
	Evidence string      `json:"evidence,omitempty"`
	// Focus is the focus label when the claim was made.
	Focus string `json:"focus,omitempty"`
	// Resolution explains the final status.
	Resolution string    `json:"resolution,omitempty"`
	Created    time.Time `json:"created"`
	Resolved   time.Time `json:"resolved,omitzero"`
}

// Decision is a commitment (plan, test, edit) or an outcome for one node
// (mark, skip), linked to evidence.
type Decision struct {
	ID   string       `json:"id"` // D1, D2, ...
	Kind DecisionKind `json:"kind"`
	Text string       `json:"text,omitempty"`
	// Symbol and Node name the node a decision is about (always for mark
	// and skip; optional for the others).
	Symbol   string    `json:"symbol,omitempty"`
	Node     string    `json:"node,omitempty"`
	Evidence string    `json:"evidence,omitempty"`
	Created  time.Time `json:"created"`
}

// Focus is what the agent is working on: the project after init, a
// symbol after impact (or mark), a task after task_select.
type Focus struct {
	Kind  string `json:"kind"` // "project", "symbol" or "task"
	Label string `json:"label"`
	Node  string `json:"node,omitempty"` // symbol: its node id
	// Analysis is the key of the analysis whose progress the summary shows.
	Analysis string `json:"analysis,omitempty"`
}

// Focus kinds.
const (
	FocusProject = "project"
	FocusSymbol  = "symbol"
	FocusTask    = "task"
)

// Task is one entry of tasks.yaml.
type Task struct {
	ID          string   `json:"id" yaml:"id"`
	Title       string   `json:"title" yaml:"title"`
	Description string   `json:"description,omitempty" yaml:"description"`
	Symbols     []string `json:"symbols,omitempty" yaml:"symbols"`
	Files       []string `json:"files,omitempty" yaml:"files"`
}

// Project describes the workspace as init saw it.
type Project struct {
	Root       string         `json:"root"`
	Name       string         `json:"name"`
	Generation uint64         `json:"generation"`
	Head       string         `json:"head,omitempty"`
	Files      int            `json:"files"`  // source files found
	Parsed     int            `json:"parsed"` // files parsed
	Languages  map[string]int `json:"languages,omitempty"`
	InitAt     time.Time      `json:"init_at,omitzero"`
}

// MaxText is the longest claim or decision text accepted, in characters.
const MaxText = 2000

// cleanText trims a claim or decision text and checks its length.
func cleanText(what, s string, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" && required {
		return "", &Error{Code: CodeMissingText, Message: what + " needs text",
			Hint: fmt.Sprintf(`pass text="..." with the %s in a sentence or two`, what)}
	}
	if n := len([]rune(s)); n > MaxText {
		return "", &Error{Code: CodeTextTooLong, Message: fmt.Sprintf("%s text is %d characters; the limit is %d", what, n, MaxText),
			Hint: "keep it to a sentence or two; split long notes into several claims"}
	}
	return s, nil
}
