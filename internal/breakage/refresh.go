package breakage

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

// Seed fixes the sample of functions mutated.
const Seed = 1605

// CrossCheckEvery is how often (one mutation in so many, the first
// included) the command-line checker runs too, to confirm the in-process
// one.
const CrossCheckEvery = 8

// candidate is a function that can be mutated.
type candidate struct {
	File  string // relative to the corpus root
	Line  int    // line of its name
	Name  string // for display: Type.Method, Class.method
	Short string // its bare name, as ccd's node names it
	// Calls are the calls the checker resolves to it (Go, TypeScript);
	// NameCalls counts the calls of its name elsewhere in the corpus
	// (Python, where the checker's resolution is not available).
	Calls     []Site
	NameCalls int
	Overloads int // TypeScript: its overload signatures
	Muts      []Mutation
	key       any // the backend's

	id      string // ccd's node, "" when none
	callers int    // ccd's callers of it
}

// backend is a language's checker, started on a corpus tree.
type backend interface {
	Checker() string
	Baseline() int
	// Candidates lists the functions that can be mutated, with their
	// mutations (edits against the unchanged tree).
	Candidates() []*candidate
	// Check checks the tree as it is on disk and returns the calls of c's
	// function with new errors and the other new errors.
	Check(ctx context.Context, c *candidate) ([]Site, []Diag, error)
	// Restored is called after a mutation is undone on disk.
	Restored(ctx context.Context) error
	// CrossCheck runs the language's command-line checker (go build and
	// go vet, tsc --noEmit, a fresh pyright) on the mutant Check just
	// checked and says how its errors differ from Check's ("" when they
	// agree).
	CrossCheck(ctx context.Context) (string, error)
	Close() error
}

func newBackend(ctx context.Context, t *Tree, repo string, log func(string, ...any)) (backend, error) {
	switch t.Corpus.Lang {
	case "go":
		b, err := newGoChecker(ctx, t.Root)
		if err != nil {
			return nil, err
		}
		return b, nil
	case "python":
		b, err := newPyChecker(ctx, t, repo, log)
		if err != nil {
			return nil, err
		}
		return b, nil
	case "typescript":
		b, err := newTSChecker(ctx, t, repo, log)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	return nil, fmt.Errorf("no checker for %s", t.Corpus.Lang)
}

// RefreshOptions tunes Refresh.
type RefreshOptions struct {
	Work  string // scratch directory (the corpus is fetched into it)
	Repo  string // the ccd repository (pyright and TypeScript are under .tools/)
	Limit int    // mutate at most this many functions (0: the corpus's target)
	Log   func(format string, args ...any)
}

// Refresh computes corpus c's truth: fetch it, index it (ccd's graph
// helps choose functions that have callers), list the functions the
// checker can mutate, sample them, and run the checker on every mutation
// of each, one at a time.
func Refresh(ctx context.Context, c Corpus, opt RefreshOptions) (*Truth, error) {
	start := time.Now()
	log := opt.Log
	if log == nil {
		log = func(string, ...any) {}
	}
	dir := filepath.Join(opt.Work, c.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	t, err := Fetch(ctx, c, dir)
	if err != nil {
		return nil, err
	}
	if c.Lang == "python" && t.PyVersion != c.Python {
		return nil, fmt.Errorf("%s: python3 is %s, the corpus pins %s", c.Name, t.PyVersion, c.Python)
	}
	res, err := index.Build(t.Root, config.Default())
	if err != nil {
		return nil, err
	}
	log("%s: %d files, indexed; starting the checker", c.Name, len(t.Files))
	be, err := newBackend(ctx, t, opt.Repo, log)
	if err != nil {
		return nil, err
	}
	defer be.Close()
	tr := &Truth{Corpus: c.Name, Lang: c.Lang, Source: c.Source(), Hash: t.Hash, Checker: be.Checker(),
		Baseline: be.Baseline(), Seed: Seed}

	var eligible []*candidate
	for _, cd := range be.Candidates() {
		cd.id, cd.callers = locate(res.Graph, cd.File, cd.Line, cd.Short)
		if len(cd.Muts) > 0 && (cd.callers > 0 || len(cd.Calls) > 0 || cd.NameCalls > 0) {
			eligible = append(eligible, cd)
		}
	}
	tr.Candidates = len(eligible)
	rng := rand.New(rand.NewSource(Seed))
	rng.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
	n := c.Target
	if opt.Limit > 0 && opt.Limit < n {
		n = opt.Limit
	}
	if n > len(eligible) {
		n = len(eligible)
	}
	chosen := eligible[:n]
	sort.Slice(chosen, func(i, j int) bool {
		if chosen[i].File != chosen[j].File {
			return chosen[i].File < chosen[j].File
		}
		return chosen[i].Line < chosen[j].Line
	})
	tr.Functions = len(chosen)
	log("%s: %d errors at baseline; %d candidate functions, mutating %d", c.Name, tr.Baseline, len(eligible), n)
	for fi, cd := range chosen {
		src, err := os.ReadFile(filepath.Join(t.Root, filepath.FromSlash(cd.File)))
		if err != nil {
			return nil, err
		}
		for _, m := range cd.Muts {
			m.ID = fmt.Sprintf("%s-%03d", c.Name, len(tr.Mutations)+1)
			m.Func, m.File, m.Line, m.Name = cd.id, cd.File, cd.Line, cd.Name
			m.Calls, m.Overloads = cd.Calls, cd.Overloads
			m.Before = signatureAt(src, cd.Line)
			after, err := spliceEdits(src, editsIn(m.Edits, cd.File))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", m.ID, err)
			}
			m.After = signatureAt(after, cd.Line)
			restore, err := applyEdits(t.Root, m.Edits)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", m.ID, err)
			}
			t0 := time.Now()
			breaks, other, cerr := be.Check(ctx, cd)
			m.CheckMS = time.Since(t0).Milliseconds()
			if cerr == nil && len(tr.Mutations)%CrossCheckEvery == 0 {
				diff, err := be.CrossCheck(ctx)
				if err != nil {
					restore()
					return nil, fmt.Errorf("%s: cross-check: %v", m.ID, err)
				}
				tr.CrossChecks++
				if diff != "" {
					tr.CrossMismatches = append(tr.CrossMismatches, m.ID+": "+diff)
					log("%s: cross-check: %s", m.ID, diff)
				}
			}
			if err := restore(); err != nil {
				return nil, err
			}
			if cerr != nil {
				return nil, fmt.Errorf("%s (%s %s): %v", m.ID, m.Kind, m.Name, cerr)
			}
			if err := be.Restored(ctx); err != nil {
				return nil, fmt.Errorf("after %s: %v", m.ID, err)
			}
			m.Breaks, m.Other = breaks, other
			if m.Breaks == nil {
				m.Breaks = []Site{}
			}
			tr.Mutations = append(tr.Mutations, m)
			log("%s %s [%d/%d] %s %s: %d of %d calls break, %d other errors (%dms)", m.ID, c.Name, fi+1, len(chosen), m.Kind, m.Name,
				len(m.Breaks), max(len(m.Calls), len(m.Breaks)), len(m.Other), m.CheckMS)
		}
	}
	tr.RefreshSeconds = time.Since(start).Round(time.Second).Seconds()
	return tr, nil
}

func editsIn(es []Edit, file string) []Edit {
	var out []Edit
	for _, e := range es {
		if e.File == file {
			out = append(out, e)
		}
	}
	return out
}

// locate finds ccd's node for the function whose name is on line of file:
// the innermost function node named short that spans the line. It
// returns the node's id and how many callers ccd's graph gives it.
func locate(g *graph.Graph, file string, line int, short string) (string, int) {
	best := -1
	for _, i := range g.InFile(file) {
		n := g.Nodes[i]
		if n.Kind != graph.Func || n.Name != short || n.StartLine > line || n.EndLine < line {
			continue
		}
		if best < 0 || n.EndLine-n.StartLine < g.Nodes[best].EndLine-g.Nodes[best].StartLine {
			best = i
		}
	}
	if best < 0 {
		return "", 0
	}
	return g.Nodes[best].ID, len(g.Neighbors(best, graph.In, graph.Filter{}))
}
