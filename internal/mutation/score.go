package mutation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/testmap"
)

// Depths are the traversal depths scored: ccd's default and unlimited.
var Depths = []int{3, 0}

// ErrSourceMismatch: the fetched corpus is not the source the truth was
// computed from (another Python patch release, a changed module).
var ErrSourceMismatch = errors.New("source differs from the truth's")

// ScoreOptions control scoring.
type ScoreOptions struct {
	// Work is a scratch directory (default: a temporary one, removed).
	Work string
	// Recordings is the directory of the corpora's recordings of which
	// tests run which functions (<corpus>.tests.json, made by
	// core/testmap as `ccd tests record` makes them); "" scores without.
	// With Record, a fresh recording is made and saved there first.
	Recordings string
	Record     bool
}

// RecordingPath is where corpus name's recording lives in dir.
func RecordingPath(dir, name string) string { return filepath.Join(dir, name+".tests.json") }

// Result is ccd's score on one corpus.
type Result struct {
	Corpus Corpus
	Truth  *Truth
	// Elapsed is the whole scoring (fetch, index, queries); Index the
	// index alone.
	Elapsed, Index time.Duration
	Nodes          int
	// Unlocated are mutants whose function ccd's graph has no node for.
	Unlocated []string
	// Crashed are mutants left out: the function runs at initialisation.
	Crashed []string
	Depths  []*DepthScore
	// Recorded scores the default depth with the corpus's recording of
	// which tests run which functions (nil without one); Recording is
	// that recording.
	Recorded  *DepthScore
	Recording *testmap.Recording
}

// WayCount counts named (mutant, test) pairs that hold (TP) and that do
// not (FP).
type WayCount struct{ TP, FP int }

// DepthScore is the score at one depth (0: unlimited).
type DepthScore struct {
	Depth   int
	Mutants int // scored
	// WithFailing: mutants at least one test fails for.
	WithFailing int
	// TP, FP, FN count (mutant, test) pairs.
	TP, FP, FN int
	// FPReached: false positives whose test did run the function (the
	// failure was caught somewhere: ccd was right that the test reaches
	// it).
	FPReached int
	// ByWay counts named pairs by how ccd found the test: "direct" (a
	// chain of calls and references), "interface" (only through an
	// interface method the function implements), "value" (only through a
	// reference: a function value, a table).
	ByWay map[string]*WayCount
	// FPByConf counts false positives by the weakest edge confidence on
	// the shortest call path from the test to the function.
	FPByConf                    map[string]int
	Precision, Recall           float64 // micro, over all pairs
	MacroPrecision, MacroRecall float64 // mean over mutants (that name tests / that have failing tests)
	macroPN, macroRN            int
	Silent                      int // mutants with failing tests where ccd names none
	NamedNoneFail               int // ccd names tests, none fails
	BothEmpty                   int // no test fails, ccd names none
	Unmapped                    int // named test nodes that are not tests the suite ran
	Causes                      []*Cause
	causeOf                     map[string]*Cause
	runs                        graph.TestRuns // the recording this score reads, if any
	PerMutant                   []MutantScore
	hops                        map[int]int // beyond-depth misses by hops needed
}

// newDepthScore is an empty score at depth, reading the recording runs
// (nil: the graph alone).
func newDepthScore(depth int, runs graph.TestRuns) *DepthScore {
	return &DepthScore{Depth: depth, causeOf: map[string]*Cause{}, hops: map[int]int{}, FPByConf: map[string]int{},
		ByWay: map[string]*WayCount{}, runs: runs}
}

// MutantScore is one mutant's row.
type MutantScore struct {
	Mutant          *Mutant
	Node            string // ccd's node id
	Named, Failing  int
	TP              int
	UnmappedNamed   int
	MissedBecauseOf map[string]int
}

// Cause is one reason ccd missed failing tests.
type Cause struct {
	Name     string
	Pairs    int
	mutants  map[string]bool
	Mutants  int
	Examples []Example
}

// Example is one missed (function, test) pair.
type Example struct {
	Function, Test, Detail string
}

// Score asks ccd, for every mutant of the truth, for the affected tests of
// the mutated function (in-process, as `ccd impact` does without a
// daemon: index.Build, graph.Impact, report.NewImpact) at each of Depths,
// and compares them with the tests that failed.
func Score(ctx context.Context, c Corpus, tr *Truth, opt ScoreOptions) (*Result, error) {
	start := time.Now()
	work := opt.Work
	if work == "" {
		var err error
		work, err = os.MkdirTemp("", "ccd-mutation-score-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	tree, err := Fetch(ctx, c, filepath.Join(work, c.Name))
	if err != nil {
		return nil, err
	}
	if tree.Hash != tr.SourceHash {
		return nil, fmt.Errorf("%s: %w (fetched %s, truth %s; Python %s): refresh the truth", c.Name, ErrSourceMismatch, tree.Hash, tr.SourceHash, tree.PyVersion)
	}
	cfg, err := config.Load()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	res, err := index.Build(tree.Root, cfg)
	if err != nil {
		return nil, err
	}
	r := &Result{Corpus: c, Truth: tr, Index: time.Since(t0), Nodes: len(res.Graph.Nodes)}
	s := newScorer(res.Graph, tree, tr)
	for _, d := range Depths {
		r.Depths = append(r.Depths, newDepthScore(d, nil))
	}
	if opt.Recordings != "" {
		path := RecordingPath(opt.Recordings, c.Name)
		if opt.Record {
			rec, err := testmap.Record(ctx, tree.Root, res.Graph, testmap.Options{})
			if err != nil {
				return nil, fmt.Errorf("%s: record the tests: %w", c.Name, err)
			}
			if err := testmap.SaveFile(path, rec); err != nil {
				return nil, err
			}
		}
		rec, err := testmap.LoadFile(path)
		if err != nil {
			return nil, err
		}
		if rec != nil {
			r.Recording = rec
			r.Recorded = newDepthScore(Depths[0], rec)
		}
	}
	scores := r.Depths
	if r.Recorded != nil {
		scores = append(scores[:len(scores):len(scores)], r.Recorded)
	}
	for i := range tr.Mutants {
		m := &tr.Mutants[i]
		if m.Crash != "" {
			r.Crashed = append(r.Crashed, m.File+":"+strconv.Itoa(m.Line)+" "+m.Name)
			continue
		}
		n := s.locate(m.File, m.Name, m.Line)
		if n < 0 {
			r.Unlocated = append(r.Unlocated, m.File+":"+strconv.Itoa(m.Line)+" "+m.Name)
			continue
		}
		for _, ds := range scores {
			s.scoreMutant(ds, m, n)
		}
	}
	for _, ds := range scores {
		ds.finish()
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

type scorer struct {
	g    *graph.Graph
	tree *Tree
	tr   *Truth
	// testNode maps a test id to the ccd node of its function (-1: none).
	testNode map[string]int
	byFile   map[string][]string // test ids by defining file
	testDef  map[string]Test
	lines    map[string][]string // source lines by file, read lazily
	failing  map[string]bool     // scratch
}

func newScorer(g *graph.Graph, tree *Tree, tr *Truth) *scorer {
	s := &scorer{g: g, tree: tree, tr: tr, testNode: map[string]int{}, byFile: map[string][]string{},
		testDef: map[string]Test{}, lines: map[string][]string{}}
	for _, t := range tr.Tests {
		s.testDef[t.ID] = t
		s.byFile[t.File] = append(s.byFile[t.File], t.ID)
		s.testNode[t.ID] = s.locate(t.File, t.Qual, t.Line)
	}
	return s
}

// locate finds the function node for a definition: in file, whose
// qualified name is name (or whose label is its last part) and whose range
// holds line; the innermost such node, else the nearest one by start line.
func (s *scorer) locate(file, name string, line int) int {
	if file == "" || strings.HasPrefix(file, "~") {
		return -1
	}
	label := name[strings.LastIndex(name, ".")+1:]
	best, bestScore := -1, 1<<30
	for _, i := range s.g.InFile(file) {
		n := s.g.Nodes[i]
		if n.Kind != graph.Func || (n.Qual != name && n.Name != label) {
			continue
		}
		score := 0
		if n.Qual != name {
			score += 1 << 20
		}
		if line >= n.StartLine && line <= n.EndLine {
			score += n.EndLine - n.StartLine
		} else {
			score += 1<<10 + abs(n.StartLine-line)
		}
		if score < bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// testsOf maps one of ccd's test nodes to the suite's test ids: a function
// to the tests defined by it (an inherited method: one per subclass), a
// test module to every test defined in it.
func (s *scorer) testsOf(n int) []string {
	node := s.g.Nodes[n]
	if node.Kind == graph.Module {
		return s.byFile[node.Path]
	}
	var out []string
	for _, id := range s.byFile[node.Path] {
		if s.testNode[id] == n {
			out = append(out, id)
		}
	}
	return out
}

func (s *scorer) scoreMutant(ds *DepthScore, m *Mutant, n int) {
	ds.Mutants++
	failing := map[string]bool{}
	for _, id := range m.Failing {
		failing[id] = true
	}
	reached := map[string]bool{}
	for _, id := range m.Reached {
		reached[id] = true
	}
	named, way := map[string]bool{}, map[string]string{}
	ms := MutantScore{Mutant: m, Node: s.g.Nodes[n].ID, Failing: len(failing), MissedBecauseOf: map[string]int{}}
	// What `ccd impact --depth D --json` lists under "tests", built the
	// way the CLI builds it in-process.
	rep := report.NewImpact(s.g, s.g.Impact(n, ds.Depth, graph.Filter{MinConfidence: graph.NameMatch, Runs: ds.runs}), nil)
	for _, rt := range rep.Tests {
		t, ok := s.g.Index(rt.ID)
		if !ok {
			ms.UnmappedNamed++
			ds.Unmapped++
			continue
		}
		ids := s.testsOf(t)
		if len(ids) == 0 {
			ms.UnmappedNamed++
			ds.Unmapped++
		}
		for _, id := range ids {
			named[id] = true
			if w := rt.Via; w != "" || way[id] == "" {
				if w == "" {
					w = "direct"
				}
				if way[id] != "direct" {
					way[id] = w
				}
			}
		}
	}
	ms.Named = len(named)
	var hits map[int]graph.Hit // the unlimited call slice, by node
	sliceOf := func() map[int]graph.Hit {
		if hits == nil {
			hits = map[int]graph.Hit{}
			for _, h := range s.g.Slice(n, graph.In, 0, graph.Filter{Refs: true}) {
				hits[h.Node] = h
			}
		}
		return hits
	}
	for id := range named {
		wc := ds.ByWay[way[id]]
		if wc == nil {
			wc = &WayCount{}
			ds.ByWay[way[id]] = wc
		}
		if failing[id] {
			ms.TP++
			wc.TP++
			continue
		}
		ds.FP++
		wc.FP++
		if reached[id] {
			ds.FPReached++
		}
		ds.FPByConf[s.weakest(sliceOf(), s.testNode[id])]++
	}
	ds.TP += ms.TP
	ds.FN += len(failing) - ms.TP
	if len(failing) > 0 {
		ds.WithFailing++
		ds.MacroRecall += float64(ms.TP) / float64(len(failing))
		ds.macroRN++
		if len(named) == 0 {
			ds.Silent++
		}
	}
	if len(named) > 0 {
		ds.MacroPrecision += float64(ms.TP) / float64(len(named))
		ds.macroPN++
		if len(failing) == 0 {
			ds.NamedNoneFail++
		}
	}
	if len(named) == 0 && len(failing) == 0 {
		ds.BothEmpty++
	}
	if len(failing) > ms.TP {
		for _, id := range m.Failing {
			if named[id] {
				continue
			}
			cause, detail := s.classify(ds, m, n, id, sliceOf())
			ms.MissedBecauseOf[cause]++
			ds.addCause(cause, m, id, detail)
		}
	}
	ds.PerMutant = append(ds.PerMutant, ms)
}

// Cause names, most specific first.
const (
	causeOutsideDef  = "test defined outside the corpus (a base class in the stdlib's test package)"
	causeNoTestNode  = "the test's function is not in the graph"
	causeNotTest     = "test function not recognised as a test"
	causeDepth       = "beyond the depth limit"
	causeCallback    = "called through the standard library (it calls back into the corpus: http.Handler, sort.Interface, callbacks)"
	causeOtherDef    = "call bound to another definition of the same name (an interface method, another type)"
	causeCallResult  = "method called on a call result (f(x).M())"
	causeMethodCall  = "method call not bound (receiver of unknown type: interface, field, parameter)"
	causeDirect      = "direct call not bound"
	causeValue       = "function or method used as a value (passed, stored, wrapped), called later"
	causeDynamic     = "dynamic call (the callee's name is not at the call site: interface, function value, dispatch table)"
	causeProperty    = "property access (attribute syntax runs a function)"
	causeDunder      = "implicit call of a special method (constructor, operator, protocol, repr)"
	causeFixture     = "reached through a fixture (setUp, setUpClass, TestMain)"
	causeNoPath      = "no call path recorded (the test failed without running the function on its own goroutine or thread)"
	causeGoroutine   = "the path begins on a goroutine: the link from the test to the code that started it is missing"
	causePathInGraph = "every edge of the recorded path is in the graph (node mapping differs)"
)

// classify says why ccd missed failing test id of mutant m (node n), with
// a detail for the examples.
func (s *scorer) classify(ds *DepthScore, m *Mutant, n int, id string, slice map[int]graph.Hit) (string, string) {
	def := s.testDef[id]
	t := s.testNode[id]
	switch {
	case def.File == "" || strings.HasPrefix(def.File, "~"):
		return causeOutsideDef, def.File
	case t < 0:
		return causeNoTestNode, def.File + " " + def.Qual
	case !s.g.Nodes[t].Test:
		// Recognising the test would find it only if the graph reaches it;
		// otherwise the path says why not, and the detail says both.
		if hit, ok := slice[t]; ok {
			h := hit.Depth
			if ds.Depth > 0 && h > ds.Depth {
				ds.hops[h]++
			}
			return causeNotTest, fmt.Sprintf("%s, %d hops away in the graph", s.g.Nodes[t].ID, h)
		}
		cause, detail := s.classifyPath(m, id)
		return cause, detail + " [and " + s.g.Nodes[t].ID + " is not recognised as a test]"
	}
	if hit, ok := slice[t]; ok && ds.Depth > 0 {
		h := hit.Depth
		ds.hops[h]++
		return causeDepth, fmt.Sprintf("%d hops", h)
	}
	return s.classifyPath(m, id)
}

// classifyPath finds where the recorded call path from the mutated
// function to test id leaves ccd's graph.
func (s *scorer) classifyPath(m *Mutant, id string) (string, string) {
	path := m.Paths[id]
	if path == "" {
		return causeNoPath, ""
	}
	frames := strings.Split(path, pathSep)
	// The test's own frames: a failure reached through setUp or
	// setUpClass, which ccd cannot see the test calling.
	last := frames[len(frames)-1]
	if _, fun, ok := strings.Cut(last, " "); ok {
		base := fun[strings.LastIndex(fun, ".")+1:]
		switch base {
		case "setUp", "setUpClass", "tearDown", "tearDownClass", "setUpModule", "TestMain", "asyncSetUp":
			return causeFixture, fmt.Sprintf("%s (path: %s)", fun, shorten(path))
		}
	}
	callee := s.frameNode(frames[0])
	for i := 1; i < len(frames); i++ {
		fr := frames[i]
		if strings.HasPrefix(fr, "~") {
			name := "?"
			if callee >= 0 {
				name = s.g.Nodes[callee].Qual
			}
			from := "a goroutine started there"
			if i+1 < len(frames) {
				from = frameFunc(frames[i+1])
			}
			return causeCallback, fmt.Sprintf("%s → %s → %s", from, fr[1:], name)
		}
		caller := s.frameNode(fr)
		if caller < 0 || callee < 0 || caller == callee || s.hasCall(caller, callee) {
			callee = caller
			continue
		}
		return s.classifySite(fr, caller, callee)
	}
	// Every link is in the graph, yet the test does not reach the
	// function: the path does not go down to the test, it began on a
	// goroutine the test (or its helpers) started.
	if last := frames[len(frames)-1]; !strings.HasPrefix(last, s.testDef[id].File+":") {
		return causeGoroutine, fmt.Sprintf("the path begins at %s", frameFunc(last))
	}
	return causePathInGraph, shorten(path)
}

// frameFunc is the function of a frame "file:line Func" (with its file).
func frameFunc(fr string) string {
	loc, fun, ok := strings.Cut(fr, " ")
	if !ok {
		return fr
	}
	return fun + " (" + loc + ")"
}

// weakest is the weakest confidence on the shortest call path from test
// node t to the slice's seed, or "not in the call slice" (found another
// way: through an interface method).
func (s *scorer) weakest(slice map[int]graph.Hit, t int) string {
	h, ok := slice[t]
	if !ok {
		return "not on a call path (interface dispatch, a class's table)"
	}
	weakest, ref := graph.Precise, false
	for steps := 0; ok && steps < 1000; steps++ {
		e := s.g.Edge(h.Edge)
		if e.Confidence < weakest {
			weakest = e.Confidence
		}
		ref = ref || e.Type == graph.Ref
		h, ok = slice[h.Via]
	}
	if ref {
		return "through a reference (function value)"
	}
	return weakest.String()
}

// frameNode maps "file:line Func" to the innermost function node holding
// the line (the module when none does).
func (s *scorer) frameNode(fr string) int {
	loc, fun, _ := strings.Cut(fr, " ")
	file, ln, ok := strings.Cut(loc, ":")
	if !ok {
		return -1
	}
	line, _ := strconv.Atoi(ln)
	want := frameQual(fun)
	best, size, named := -1, 1<<30, false
	for _, i := range s.g.InFile(file) {
		n := s.g.Nodes[i]
		if n.Kind == graph.Module && best < 0 {
			best = i
		}
		if n.Kind != graph.Func || line < n.StartLine || line > n.EndLine {
			continue
		}
		// The function the frame names wins over anything nested in it
		// on the same line (an interface literal's method, a lambda).
		match := n.Qual == want
		if named && !match {
			continue
		}
		if match && !named || n.EndLine-n.StartLine < size {
			best, size, named = i, n.EndLine-n.StartLine, match
		}
	}
	return best
}

// frameQual turns a frame's function into a qualified name as ccd writes
// it: Go "(*Mux).routeHTTP.func1" -> "Mux.routeHTTP", "List[...].Len" ->
// "List.Len"; Python "C.m.<locals>.inner" -> "C.m".
func frameQual(fun string) string {
	if i := strings.Index(fun, ".<locals>"); i >= 0 {
		fun = fun[:i]
	}
	fun = strings.NewReplacer("(*", "", "(", "", ")", "", "[...]", "").Replace(fun)
	parts := strings.Split(fun, ".")
	for len(parts) > 1 {
		last := parts[len(parts)-1]
		if strings.HasPrefix(last, "func") || strings.Trim(last, "0123456789") == "" {
			parts = parts[:len(parts)-1]
			continue
		}
		break
	}
	return strings.Join(parts, ".")
}

func (s *scorer) hasCall(from, to int) bool {
	for _, ei := range s.g.Out(from) {
		if f, t, typ := s.g.EdgeEnds(ei); f == from && t == to && typ == graph.Call {
			return true
		}
	}
	return false
}

// classifySite looks at the call site where the recorded path leaves the
// graph: caller frame fr calls callee, and ccd has no such edge.
func (s *scorer) classifySite(fr string, caller, callee int) (string, string) {
	loc, _, _ := strings.Cut(fr, " ")
	file, ln, _ := strings.Cut(loc, ":")
	line, _ := strconv.Atoi(ln)
	text := strings.TrimSpace(s.line(file, line))
	cn := s.g.Nodes[callee]
	name := cn.Name
	detail := fmt.Sprintf("%s → %s at %s: `%s`", s.g.Nodes[caller].Qual, cn.Qual, loc, clip(text, 90))
	// An edge from the caller to something else of that name: bound, but
	// not to the function that ran.
	for _, ei := range s.g.Out(caller) {
		if _, t, typ := s.g.EdgeEnds(ei); typ == graph.Call && t != callee && s.g.Nodes[t].Name == name {
			return causeOtherDef, detail + " (bound to " + s.g.Nodes[t].ID + ")"
		}
	}
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return causeDunder, detail
	}
	idx := identIndex(text, name)
	if idx > 0 && text[idx-1] == '.' && s.isProperty(callee) {
		return causeProperty, detail
	}
	switch {
	case idx < 0:
		return causeDynamic, detail
	case !strings.HasPrefix(strings.TrimLeft(text[idx+len(name):], " "), "(") &&
		!strings.HasPrefix(strings.TrimLeft(text[idx+len(name):], " "), "["):
		return causeValue, detail
	case idx > 0 && text[idx-1] == '.':
		if idx > 1 && (text[idx-2] == ')' || text[idx-2] == ']') {
			return causeCallResult, detail
		}
		return causeMethodCall, detail
	}
	return causeDirect, detail
}

// isProperty: a Python function decorated as a property (attribute
// syntax runs it).
func (s *scorer) isProperty(n int) bool {
	node := s.g.Nodes[n]
	if node.Lang != "python" {
		return false
	}
	for l := node.StartLine - 1; l >= node.StartLine-3 && l > 0; l-- {
		t := strings.TrimSpace(s.line(node.Path, l))
		if !strings.HasPrefix(t, "@") {
			break
		}
		if strings.Contains(t, "property") || strings.HasSuffix(t, ".setter") || strings.HasSuffix(t, ".getter") {
			return true
		}
	}
	return false
}

// identIndex finds name as a whole identifier in text (-1: absent).
func identIndex(text, name string) int {
	isIdent := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for off := 0; ; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isIdent(text[i-1])) && (end == len(text) || !isIdent(text[end])) {
			return i
		}
		off = i + 1
	}
}

func (s *scorer) line(file string, n int) string {
	ls, ok := s.lines[file]
	if !ok {
		b, _ := os.ReadFile(filepath.Join(s.tree.Root, filepath.FromSlash(file)))
		ls = strings.Split(string(b), "\n")
		s.lines[file] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// shorten keeps the first three frames of a path.
func shorten(path string) string {
	fr := strings.Split(path, pathSep)
	if len(fr) > 4 {
		fr = append(fr[:3], "…", fr[len(fr)-1])
	}
	return strings.Join(fr, pathSep)
}

func (ds *DepthScore) addCause(name string, m *Mutant, test, detail string) {
	c := ds.causeOf[name]
	if c == nil {
		c = &Cause{Name: name, mutants: map[string]bool{}}
		ds.causeOf[name] = c
		ds.Causes = append(ds.Causes, c)
	}
	c.Pairs++
	key := m.File + ":" + m.Name
	if !c.mutants[key] {
		c.mutants[key] = true
		c.Mutants++
		// One example per function, the first few functions.
		if len(c.Examples) < 6 {
			c.Examples = append(c.Examples, Example{Function: m.Name + " (" + m.File + ":" + strconv.Itoa(m.Line) + ")", Test: test, Detail: detail})
		}
	}
}

func (ds *DepthScore) finish() {
	if ds.TP+ds.FP > 0 {
		ds.Precision = float64(ds.TP) / float64(ds.TP+ds.FP)
	}
	if ds.TP+ds.FN > 0 {
		ds.Recall = float64(ds.TP) / float64(ds.TP+ds.FN)
	}
	if ds.macroPN > 0 {
		ds.MacroPrecision /= float64(ds.macroPN)
	}
	if ds.macroRN > 0 {
		ds.MacroRecall /= float64(ds.macroRN)
	}
	sort.SliceStable(ds.Causes, func(a, b int) bool { return ds.Causes[a].Pairs > ds.Causes[b].Pairs })
}
