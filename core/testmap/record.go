package testmap

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
)

// Options bound a recording.
type Options struct {
	// Budget bounds the whole recording (0: 10 minutes); what it cuts is
	// listed in the recording's problems, and the tests not run keep the
	// graph's word.
	Budget time.Duration
	// PerTest bounds one test (0: 2 minutes).
	PerTest time.Duration
	// Jobs is how many Go packages record at once (0: the CPUs).
	Jobs int
	// Python is the interpreter for Python suites ("": python3 on PATH).
	Python string
}

func (o Options) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
	}
	return runtime.NumCPU()
}

func (o Options) perTest() time.Duration {
	if o.PerTest > 0 {
		return o.PerTest
	}
	return 2 * time.Minute
}

// Record runs the test suites of the workspace at root (whose graph is g)
// under the tracer and returns what they ran, named by g's ids. It runs
// the Go modules holding its Go files (each go.mod at or under root), and
// the unittest and plain pytest-style suites
// of the Python files when g has any; an error means nothing could be
// recorded.
func Record(ctx context.Context, root string, g *graph.Graph, opt Options) (*Recording, error) {
	budget := opt.Budget
	if budget <= 0 {
		budget = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	start := time.Now()
	b := &builder{loc: locator{g: g}, rec: &Recording{Funcs: map[string][]int{}}, test: map[int]int{}}
	langs := map[string]bool{}
	for _, n := range g.Nodes {
		langs[n.Lang] = true
	}
	tried := 0
	for _, mod := range goModules(root, g) {
		tried++
		if err := recordGo(ctx, root, mod, b, opt); err != nil {
			b.problem("%v", err)
		}
	}
	if langs["python"] {
		tried++
		if err := recordPython(ctx, root, b, opt); err != nil {
			b.problem("%v", err)
		}
	}
	if ctx.Err() != nil {
		b.problem("the time budget (%s) ran out: the tests not run keep the graph's word", budget)
	}
	if tried == 0 {
		return nil, fmt.Errorf("testmap: nothing to record in %s: ccd records Go modules (a go.mod at or under the root) and Python unittest and plain pytest-style suites", root)
	}
	r := b.rec
	if len(r.Tests) == 0 {
		return nil, fmt.Errorf("testmap: no test ran in %s: %v", root, r.Problems)
	}
	sort.Strings(r.Suites)
	for id, ts := range r.Funcs { // a test run once per subclass names its node again
		slices.Sort(ts)
		r.Funcs[id] = slices.Compact(ts)
	}
	r.Made = time.Now()
	r.Seconds = time.Since(start).Seconds()
	r.index()
	return r, nil
}

// builder collects a recording from concurrent suites.
type builder struct {
	loc  locator
	mu   sync.Mutex
	rec  *Recording
	test map[int]int // test node -> index in rec.Tests
}

// know marks the functions of files as known to the recording.
func (b *builder) know(files []string) {
	ids := b.loc.known(files)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range ids {
		if _, ok := b.rec.Funcs[id]; !ok {
			b.rec.Funcs[id] = []int{}
		}
	}
}

// ran adds that test node test ran the function nodes funcs.
func (b *builder) ran(test int, funcs []int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.test[test]
	if !ok {
		t = len(b.rec.Tests)
		b.test[test] = t
		b.rec.Tests = append(b.rec.Tests, b.loc.g.Nodes[test].ID)
	}
	for _, f := range funcs {
		n := b.loc.g.Nodes[f]
		if n.Test {
			continue
		}
		ts, known := b.rec.Funcs[n.ID]
		if !known {
			continue // outside the traced files: not for this recording to say
		}
		b.rec.Funcs[n.ID] = append(ts, t)
	}
}

func (b *builder) problem(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rec.Problems = append(b.rec.Problems, fmt.Sprintf(format, args...))
}

func (b *builder) suite(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rec.Suites = append(b.rec.Suites, fmt.Sprintf(format, args...))
}
