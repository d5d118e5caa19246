package mutation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Truth is what running a corpus's test suite against each mutant found:
// facts about a pinned version, slow to compute, cached as
// testdata/mutation/<corpus>.json.
type Truth struct {
	Corpus  string `json:"corpus"`
	Lang    string `json:"lang"`
	Module  string `json:"module,omitempty"`
	Version string `json:"version,omitempty"` // Go module version, or the Python version
	// SourceHash is Tree.Hash of the source the truth was computed from.
	SourceHash string `json:"source_hash"`
	Toolchain  string `json:"toolchain"` // go version, or python version
	Seed       int64  `json:"seed"`
	// Seconds is how long the refresh took.
	Seconds float64 `json:"seconds"`
	// Tests are the tests the baseline suite runs (ids, see Test), with
	// where each is defined, so ccd's test nodes can be mapped to them.
	Tests []Test `json:"tests"`
	// BaselineFailing are tests that fail (or flake) without any mutant;
	// they are left out of every mutant's failing tests.
	BaselineFailing []string `json:"baseline_failing"`
	// Candidates is how many functions were eligible (not tests, not
	// generated, run by the baseline suite); Exported how many of them
	// are exported/public.
	Candidates int `json:"candidates"`
	Exported   int `json:"exported"`
	// Uncovered is how many functions the baseline suite never runs
	// (left out).
	Uncovered int      `json:"uncovered"`
	Mutants   []Mutant `json:"mutants"`
}

// Test is one test the suite runs. Id: Go "<pkg dir>::<TestName>" (top
// level; subtests collapse into it; "." is the module root), Python
// "<module>.<Class>.<method>" (unittest's id). File, Qual and Line say
// where its function is defined (for an inherited Python test method: in
// the base class).
type Test struct {
	ID   string `json:"id"`
	File string `json:"file"`
	Qual string `json:"qual"`
	Line int    `json:"line"`
}

// Mutant is one function made to fail on entry.
type Mutant struct {
	File     string `json:"file"` // relative to the corpus root
	Name     string `json:"name"` // qualified: "Mux.routeHTTP", "TextWrapper.wrap"
	Line     int    `json:"line"` // of the definition (`func`, `def`)
	Exported bool   `json:"exported"`
	// Failing are the tests that fail with the mutant (baseline failures
	// removed), sorted.
	Failing []string `json:"failing"`
	// Reached are tests that ran the mutated function but did not fail
	// (the failure was caught and swallowed), sorted.
	Reached []string `json:"reached,omitempty"`
	// Paths holds, for failing tests, one dynamic call path from the
	// mutated function to the test (innermost first, " < " between
	// frames; "file:line Func" inside the corpus, "~Func" outside it).
	Paths map[string]string `json:"paths,omitempty"`
	// Crash is "init" when the test binary or test module cannot even
	// start (the function runs at package or module initialisation, so
	// every test fails); such mutants are not scored.
	Crash string `json:"crash,omitempty"`
	// TimedOut: a run hit the time limit (the tests running then count as
	// failing).
	TimedOut bool    `json:"timed_out,omitempty"`
	Seconds  float64 `json:"seconds"`
}

// TruthPath is where corpus name's truth lives under the repository root.
func TruthPath(repo, name string) string {
	return filepath.Join(repo, "testdata", "mutation", name+".json")
}

// LoadTruth reads a truth file.
func LoadTruth(path string) (*Truth, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Truth
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

// Save writes the truth file (indented, stable; recorded paths without
// their recursion cycles).
func (t *Truth) Save(path string) error {
	for i := range t.Mutants {
		for id, p := range t.Mutants[i].Paths {
			t.Mutants[i].Paths[id] = compactPath(p)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(t); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
