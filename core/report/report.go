// Package report turns graph analyses into the documents ccd hands out:
// JSON-able impact and symbol reports, their text rendering, and the
// not-found error with suggestions. The CLI (in-process) and the daemon
// build the same reports, so both print the same thing.
package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/words"
)

// Neighbor is one caller or callee in an impact report.
type Neighbor struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Line       int    `json:"line,omitempty"`
	Calls      int    `json:"calls"`
	Confidence string `json:"confidence"`
	Sites      []int  `json:"site_lines,omitempty"` // call-site lines in site_path
	SitePath   string `json:"site_path,omitempty"`  // the first file with call sites
	// AllSites lists the call sites of every file, when calls come from
	// several (a class whose methods live in several files).
	AllSites []Site `json:"sites,omitempty"`
}

// Site is where calls happen in one file.
type Site struct {
	Path  string `json:"path"`
	Lines []int  `json:"lines"`
}

// Hit is one transitive caller.
type Hit struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Path       string `json:"path"`
	Line       int    `json:"line,omitempty"`
	Depth      int    `json:"depth"`
	Via        string `json:"via"`
	Confidence string `json:"confidence"`
}

// Test is an affected test.
type Test struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Path  string `json:"path"`
	Line  int    `json:"line,omitempty"`
	// Via is "ran" for a test a recording of the test suite saw running
	// the target (`ccd tests record`), "interface" for a test that
	// reaches the target only through an interface method the target
	// implements, "value" for one that reaches it only where it is named
	// as a value (a callback, a table entry, a method the standard
	// library calls back).
	Via string `json:"via,omitempty"`
}

// Impact is the blast radius of one symbol.
type Impact struct {
	Target      graph.ExportNode `json:"target"`
	Callers     []Neighbor       `json:"callers"`
	Callees     []Neighbor       `json:"callees"`
	BlastRadius []Hit            `json:"blast_radius"`
	Files       []string         `json:"files"`
	Tests       []Test           `json:"tests"`
	// TestsComplete says the search for tests went through the target's
	// whole reverse call closure (false: it stopped at a budget, and a
	// missing test proves nothing). TestCommand runs the tests.
	TestsComplete bool `json:"tests_complete"`
	// TestsNotRun counts the tests the call graph reaches that a
	// recording of the test suite ran without them running the target:
	// left out of Tests.
	TestsNotRun int `json:"tests_not_run,omitempty"`
	// TestsRecorded says the tests come from a recording of the test
	// suite that knows the target (`ccd tests record`): the tests seen
	// running it, and those the recording did not run.
	TestsRecorded bool     `json:"tests_recorded,omitempty"`
	TestCommand   string   `json:"test_command,omitempty"`
	Depth         int      `json:"depth"`
	OtherMatches  []string `json:"other_matches"`
	// Precise names the SCIP index the precise edges of the report come
	// from, its tool and age; empty when none is precise.
	Precise string `json:"precise,omitempty"`
}

// HasPrecise reports whether a caller, callee or hop of the report holds
// through an edge of confidence precise.
func (r *Impact) HasPrecise() bool {
	p := graph.Precise.String()
	for _, nb := range r.Callers {
		if nb.Confidence == p {
			return true
		}
	}
	for _, nb := range r.Callees {
		if nb.Confidence == p {
			return true
		}
	}
	for _, h := range r.BlastRadius {
		if h.Confidence == p {
			return true
		}
	}
	return false
}

// NewImpact builds the report of im; others are further candidates the
// query matched.
func NewImpact(g *graph.Graph, im graph.Impact, others []int) *Impact {
	nbs := func(in []graph.Neighbor) []Neighbor {
		out := []Neighbor{}
		for _, nb := range in {
			n := g.Nodes[nb.Node]
			rn := Neighbor{ID: n.ID, Label: Label(n), Kind: n.Kind.String(), Path: n.Path, Line: n.StartLine,
				Calls: nb.Calls, Confidence: nb.Confidence.String(), Sites: nb.Lines, SitePath: nb.Path}
			if len(nb.Sites) > 1 {
				for _, s := range nb.Sites {
					rn.AllSites = append(rn.AllSites, Site{Path: s.Path, Lines: s.Lines})
				}
			}
			out = append(out, rn)
		}
		return out
	}
	r := &Impact{Target: g.ExportNode(im.Target), Callers: nbs(im.Callers), Callees: nbs(im.Callees),
		BlastRadius: []Hit{}, Files: []string{}, Tests: []Test{}, Depth: im.Depth, OtherMatches: []string{}}
	for _, h := range im.Upstream {
		n := g.Nodes[h.Node]
		r.BlastRadius = append(r.BlastRadius, Hit{ID: n.ID, Label: Label(n), Path: n.Path, Line: n.StartLine,
			Depth: h.Depth, Via: g.Nodes[h.Via].ID, Confidence: g.Edge(h.Edge).Confidence.String()})
	}
	r.Files = append(r.Files, im.Files(g)...)
	for _, t := range im.Tests {
		n := g.Nodes[t]
		tt := Test{ID: n.ID, Label: Label(n), Path: n.Path, Line: n.StartLine}
		switch {
		case im.Ran[t]:
			tt.Via = "ran"
		case im.Dispatch[t]:
			tt.Via = "interface"
		case im.Value[t]:
			tt.Via = "value"
		}
		r.Tests = append(r.Tests, tt)
	}
	r.TestsComplete = im.TestsComplete
	r.TestsNotRun = im.Unrun
	r.TestsRecorded = im.Ran != nil
	r.TestCommand = TestCommand(g, im.Tests)
	for _, o := range others {
		r.OtherMatches = append(r.OtherMatches, g.Nodes[o].ID)
	}
	return r
}

// Target resolves a symbol as every answer does (a node id, a qualified
// or bare name, a file, path:line): the best match and the other
// candidates, or a *NotFoundError with suggestions.
func Target(g *graph.Graph, sym string) (node int, others []int, err error) {
	cands := g.Find(sym)
	if len(cands) == 0 {
		return -1, nil, NotFound(g, sym)
	}
	return cands[0], cands[1:], nil
}

// ImpactOf is the impact report of sym in g (see Target), up to depth
// hops of callers through edges f lets through, and the analysis it was
// made from. precise names the precise index g's edges came from (""
// for none): the report carries it when it holds one of those edges.
func ImpactOf(g *graph.Graph, sym string, depth int, f graph.Filter, precise string) (*Impact, graph.Impact, error) {
	node, others, err := Target(g, sym)
	if err != nil {
		return nil, graph.Impact{}, err
	}
	im := g.Impact(node, depth, f)
	r := NewImpact(g, im, others)
	if r.HasPrecise() {
		r.Precise = precise
	}
	return r, im, nil
}

// Label is how a node is named in reports: its qualified name, or its path
// for a module.
func Label(n *graph.Node) string {
	if n.Qual != "" {
		return n.Qual
	}
	return n.Path
}

func loc(path string, line int) string {
	if line == 0 {
		return path
	}
	return fmt.Sprintf("%s:%d", path, line)
}

// siteLoc lists a caller's call sites: "a.go:12,40" for one file,
// "a.go:12; b.go:7,9" for several, at most maxSites lines with an honest
// "+N more" after them.
func siteLoc(nb Neighbor) string {
	files := nb.AllSites
	if len(files) == 0 {
		files = []Site{{Path: nb.SitePath, Lines: nb.Sites}}
	}
	var parts []string
	shown, total := 0, 0
	for _, f := range files {
		total += len(f.Lines)
	}
	for _, f := range files {
		if shown >= maxSites {
			break
		}
		part := f.Path
		var ls []string
		for _, l := range f.Lines {
			if shown == maxSites {
				break
			}
			ls = append(ls, fmt.Sprint(l))
			shown++
		}
		if len(ls) > 0 {
			part += ":" + strings.Join(ls, ",")
		}
		parts = append(parts, part)
	}
	out := strings.Join(parts, "; ")
	if total > shown {
		out += fmt.Sprintf(" +%d more", total-shown)
	}
	return out
}

// maxSites is how many call-site lines a caller's entry lists.
const maxSites = 8

// ListLimit is how many entries each text section shows.
const ListLimit = 20

// WriteText renders the report for people: each section says what its
// lines are, and its columns have headers.
func (r *Impact) WriteText(w io.Writer) {
	t := r.Target
	name := t.Qual
	if name == "" {
		name = t.Path
	}
	fmt.Fprintf(w, "Impact of %s (%s) %s\n", name, t.Kind, loc(t.Path, t.StartLine))
	if t.Signature != "" {
		fmt.Fprintf(w, "  %s\n", t.Signature)
	}
	if len(r.OtherMatches) > 0 {
		fmt.Fprintf(w, "  (%d other matches, e.g. %s)\n", len(r.OtherMatches), r.OtherMatches[0])
	}
	// section prints a headed table of at most ListLimit rows.
	section := func(title string, header []string, n int, row func(i int) []string) {
		fmt.Fprintf(w, "\n%s\n", title)
		if n == 0 {
			return
		}
		rows := [][]string{header}
		for i := 0; i < n && i < ListLimit; i++ {
			rows = append(rows, row(i))
		}
		writeTable(w, "  ", rows)
		if n > ListLimit {
			fmt.Fprintf(w, "  … %d more\n", n-ListLimit)
		}
	}
	section(fmt.Sprintf("Callers (%d): who calls %s, at which lines", len(r.Callers), name),
		[]string{"CALLER", "CALL SITES", "CONFIDENCE"}, len(r.Callers), func(i int) []string {
			nb := r.Callers[i]
			return []string{nb.Label, siteLoc(nb), nb.Confidence}
		})
	section(fmt.Sprintf("Callees (%d): what %s calls, where each is defined", len(r.Callees), name),
		[]string{"CALLEE", "DEFINED AT", "CONFIDENCE"}, len(r.Callees), func(i int) []string {
			nb := r.Callees[i]
			return []string{nb.Label, loc(nb.Path, nb.Line), nb.Confidence}
		})
	depth := fmt.Sprint(r.Depth)
	if r.Depth == 0 {
		depth = "unlimited"
	}
	section(fmt.Sprintf("Blast radius (depth %s): %d symbols in %d files that reach %s through calls, nearest first",
		depth, len(r.BlastRadius), len(r.Files), name),
		[]string{"HOPS", "SYMBOL", "DEFINED AT", "CONFIDENCE"}, len(r.BlastRadius), func(i int) []string {
			h := r.BlastRadius[i]
			return []string{fmt.Sprint(h.Depth), h.Label, loc(h.Path, h.Line), h.Confidence}
		})
	testsHead := fmt.Sprintf("Affected tests (%d): tests that reach %s through its callers, at any depth", len(r.Tests), name)
	switch {
	case !r.TestsComplete:
		testsHead += fmt.Sprintf(" (the search stopped after %d symbols: there may be more)", graph.TestBudget)
	case r.TestsRecorded && len(r.Tests) == 0:
		testsHead = fmt.Sprintf("Affected tests (0): no test ran %s when the suite was recorded (ccd tests record)", name)
	case r.TestsRecorded:
		testsHead = fmt.Sprintf("Affected tests (%d): tests seen running %s when the suite was recorded (ccd tests record)", len(r.Tests), name)
	case len(r.Tests) == 0:
		testsHead = fmt.Sprintf("Affected tests (0): no test reaches %s through its callers", name)
	}
	if r.TestsNotRun > 0 {
		testsHead += fmt.Sprintf("; %d more reach it in the call graph but did not run it", r.TestsNotRun)
	}
	section(testsHead, []string{"TEST", "DEFINED AT", "VIA"}, len(r.Tests), func(i int) []string {
		via := "calls"
		if r.Tests[i].Via != "" {
			via = r.Tests[i].Via
		}
		return []string{r.Tests[i].Label, loc(r.Tests[i].Path, r.Tests[i].Line), via}
	})
	if r.TestCommand != "" {
		fmt.Fprintf(w, "  run: %s\n", r.TestCommand)
	}
	if !r.TestsRecorded {
		value := 0
		for _, t := range r.Tests {
			if t.Via == "value" || t.Via == "interface" {
				value++
			}
		}
		if value > 0 {
			fmt.Fprintf(w, "  %s reached only through a function value or an interface may not run it: `ccd tests record` runs the suite once and tells\n", words.Count(value, "test", "tests"))
		}
	}
	if r.Precise != "" {
		fmt.Fprintf(w, "\n%s\n", r.Precise)
	}
}

// writeTable prints rows as columns two spaces apart, each as wide as its
// widest cell (up to maxColumn; a longer cell pushes its row's next
// column out rather than being cut); the last column is not padded.
func writeTable(w io.Writer, indent string, rows [][]string) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], min(utf8.RuneCountInString(c), maxColumn))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", max(width[i]-utf8.RuneCountInString(c), 0)+2))
			}
		}
		fmt.Fprintln(w, b.String())
	}
}

// maxColumn caps a column's width in text tables.
const maxColumn = 48

// NotFoundError is an unknown symbol, with suggestions.
type NotFoundError struct {
	Query       string
	Suggestions []graph.ExportNode
}

func (e *NotFoundError) Error() string { return e.Message() + "\nHint: " + e.Hint() }

// Message is the first part of the error: what was not found and what
// resembles it.
func (e *NotFoundError) Message() string {
	var b strings.Builder
	fmt.Fprintf(&b, "symbol not found: %q", e.Query)
	if len(e.Suggestions) > 0 {
		b.WriteString("\nSimilar symbols:")
		for _, s := range e.Suggestions {
			fmt.Fprintf(&b, "\n  • %s (%s in %s)", s.Qual, s.Kind, loc(s.Path, s.StartLine))
		}
	}
	return b.String()
}

// Hint says what to do next.
func (e *NotFoundError) Hint() string {
	if len(e.Suggestions) > 0 {
		return "use one of the names above, or a node id like path/to/file.py::Class.method"
	}
	return "check the spelling, or run `ccd symbols QUERY` to search; the graph holds functions, classes and files"
}

// NotFound explains an unknown symbol with up to five suggestions.
func NotFound(g *graph.Graph, q string) *NotFoundError {
	e := &NotFoundError{Query: q}
	for _, s := range g.Similar(q, 5) {
		e.Suggestions = append(e.Suggestions, g.ExportNode(s.Node))
	}
	return e
}

// Symbols finds up to limit symbols for a query: exact matches first, then
// fuzzy ones.
func Symbols(g *graph.Graph, q string, limit int) []graph.ExportNode {
	seen := map[int]bool{}
	var hits []int
	for _, i := range g.Find(q) {
		seen[i] = true
		hits = append(hits, i)
	}
	for _, s := range g.Similar(q, limit) {
		if !seen[s.Node] {
			seen[s.Node] = true
			hits = append(hits, s.Node)
		}
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := []graph.ExportNode{}
	for _, i := range hits {
		out = append(out, g.ExportNode(i))
	}
	return out
}

// WriteSymbols renders a symbol list for people.
func WriteSymbols(w io.Writer, syms []graph.ExportNode) {
	for _, n := range syms {
		name := n.Qual
		if name == "" {
			name = n.Path
		}
		fmt.Fprintf(w, "%-6s %-40s %s\n", n.Kind, name, loc(n.Path, n.StartLine))
	}
}
