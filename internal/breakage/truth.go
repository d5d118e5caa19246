package breakage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Mutation kinds.
const (
	AddRequired = "add-required" // a new required parameter (Python: keyword-only when defaults or *args come first)
	AddOptional = "add-optional" // Python `x=None`, TypeScript `x?: number`, Go a trailing variadic `...int`
	RemoveLast  = "remove-last"  // the last parameter removed
	Reorder     = "reorder"      // two adjacent parameters swapped
	Rename      = "rename"       // Python: a parameter renamed (calls passing it by keyword break)
	AddResult   = "add-result"   // Go: an `error` result added (returns get `, nil`)
	DropResult  = "drop-result"  // Go: the last result removed (and the last value of every return)
)

// Kinds lists the mutation kinds in report order.
var Kinds = []string{AddRequired, AddOptional, RemoveLast, Reorder, Rename, AddResult, DropResult}

// Compatible reports whether a kind of change keeps every call that
// compiled compiling (the card must not say "will break" for it).
func Compatible(kind string) bool { return kind == AddOptional }

// Edit replaces Old, at byte offset Off of File, with New. Edits never
// add or remove lines, so that line numbers stay put across a mutation.
type Edit struct {
	File string `json:"file"`
	Off  int    `json:"off"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// Site is one call of the mutated function, as the checker sees it.
type Site struct {
	File string `json:"file"`
	Line int    `json:"line"` // where the call expression starts
	// NameLine is the line of the callee's name when it differs (a call
	// spread over lines: `x.\n\tf(...)`).
	NameLine int `json:"name_line,omitempty"`
	// Via names the callee when the call is not of the function's own
	// name (Python: an alias of it, a subclass inheriting it).
	Via string `json:"via,omitempty"`
	// Errors are the checker's messages located at this call.
	Errors []string `json:"errors,omitempty"`
}

// Diag is an error the checker reports for a mutant that is not at a
// call of the mutated function: in the function itself, at a use of it as
// a value, at an interface it no longer satisfies, ...
type Diag struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Where: "definition" (inside the mutated function, its own body and
	// signature), "value" (a use of the function as a value, not called),
	// "call" (at a call of another function named the same, Python), or
	// "elsewhere".
	Where string `json:"where"`
}

// Mutation is one signature change and what the checker says of it.
type Mutation struct {
	ID   string `json:"id"`   // "<corpus>-<n>"
	Func string `json:"func"` // ccd's node id, "" when ccd has no node for it
	File string `json:"file"`
	Line int    `json:"line"` // line of the function's name
	Name string `json:"name"` // its name (Python/TypeScript: Class.method)
	Kind string `json:"kind"`
	// Before and After are the definition's first line before and after.
	Before string `json:"before"`
	After  string `json:"after"`
	Edits  []Edit `json:"edits"`
	// Calls are all the calls of the function the checker resolves (Go
	// and TypeScript; the same for every mutation of a function), Breaks
	// the ones it rejects after the change, Other its other new errors.
	Calls  []Site `json:"calls,omitempty"`
	Breaks []Site `json:"breaks"`
	Other  []Diag `json:"other,omitempty"`
	// Overloads counts the function's overload signatures (TypeScript):
	// its callers see them, not the implementation's.
	Overloads int `json:"overloads,omitempty"`
	// CheckMS is how long the checker took.
	CheckMS int64 `json:"check_ms"`
}

// Truth is one corpus's cached checker answers.
type Truth struct {
	Corpus  string `json:"corpus"`
	Lang    string `json:"lang"`
	Source  string `json:"source"`
	Hash    string `json:"hash"`
	Checker string `json:"checker"`
	// Baseline is how many errors the checker reports for the unchanged
	// corpus (a mutant's errors are those it adds).
	Baseline int `json:"baseline_errors"`
	// Candidates is how many functions could be mutated (they have calls,
	// by ccd's graph or the checker), Functions how many were.
	Candidates int   `json:"candidates"`
	Functions  int   `json:"functions"`
	Seed       int64 `json:"seed"`
	// CrossChecks counts the mutants also checked with the command-line
	// checker; CrossMismatches lists where the two disagreed.
	CrossChecks     int        `json:"cross_checks"`
	CrossMismatches []string   `json:"cross_mismatches"`
	Mutations       []Mutation `json:"mutations"`
	// RefreshSeconds is how long computing this file took.
	RefreshSeconds float64 `json:"refresh_seconds"`
}

// TruthPath is where corpus name's truth lives in the repository.
func TruthPath(repo, name string) string {
	return filepath.Join(repo, "testdata", "breakage", name+".json")
}

// LoadTruth reads a truth file.
func LoadTruth(path string) (*Truth, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Truth
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &t, nil
}

// Save writes t, indented, one mutation's fields together.
func (t *Truth) Save(path string) error {
	for i := range t.Mutations {
		m := &t.Mutations[i]
		sortSites(m.Calls)
		sortSites(m.Breaks)
		sort.Slice(m.Other, func(a, b int) bool {
			x, y := m.Other[a], m.Other[b]
			if x.File != y.File {
				return x.File < y.File
			}
			if x.Line != y.Line {
				return x.Line < y.Line
			}
			return x.Message < y.Message
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func sortSites(s []Site) {
	sort.Slice(s, func(a, b int) bool {
		if s[a].File != s[b].File {
			return s[a].File < s[b].File
		}
		return s[a].Line < s[b].Line
	})
}

// applyEdits applies a mutation's edits to the files under root and
// returns a function that restores them. It fails, touching nothing, when
// an edit's old text is not where it says.
func applyEdits(root string, edits []Edit) (restore func() error, err error) {
	byFile := map[string][]Edit{}
	var files []string
	for _, e := range edits {
		if _, ok := byFile[e.File]; !ok {
			files = append(files, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	orig := map[string][]byte{}
	next := map[string][]byte{}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out, err := spliceEdits(b, byFile[f])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		orig[f], next[f] = b, out
	}
	write := func(m map[string][]byte) error {
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(f)), m[f], 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	if err := write(next); err != nil {
		write(orig)
		return nil, err
	}
	return func() error { return write(orig) }, nil
}

// spliceEdits applies edits (of one file, not overlapping) to src.
func spliceEdits(src []byte, edits []Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.Slice(es, func(a, b int) bool { return es[a].Off > es[b].Off })
	out := append([]byte(nil), src...)
	end := len(out) + 1
	for _, e := range es {
		if e.Off < 0 || e.Off+len(e.Old) > len(out) || string(out[e.Off:e.Off+len(e.Old)]) != e.Old {
			return nil, fmt.Errorf("edit at %d: %q is not there", e.Off, e.Old)
		}
		if e.Off+len(e.Old) > end {
			return nil, fmt.Errorf("edit at %d overlaps the next one", e.Off)
		}
		if strings.Count(e.Old, "\n") != strings.Count(e.New, "\n") {
			return nil, fmt.Errorf("edit at %d adds or removes lines", e.Off)
		}
		out = append(out[:e.Off], append([]byte(e.New), out[e.Off+len(e.Old):]...)...)
		end = e.Off
	}
	return out, nil
}

// signatureAt returns the definition starting on line n of src on one
// line: its lines up to the one that opens the body (ends with "{", or
// ":" in Python, or holds "=>"), at most twelve, spaces collapsed.
func signatureAt(src []byte, n int) string {
	var parts []string
	for i := n; i < n+12; i++ {
		l := lineAt(src, i)
		parts = append(parts, l)
		if strings.HasSuffix(l, "{") || strings.HasSuffix(l, ":") || strings.Contains(l, "=>") || l == "" && i > n {
			break
		}
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// lineAt returns the 1-based line n of src, without its newline.
func lineAt(src []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSpace(string(src))
}
