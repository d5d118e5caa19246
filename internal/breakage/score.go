package breakage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/daemon/hooks"
)

// ErrSourceMismatch is returned by Score when the fetched corpus is not
// the source the truth was computed from (another Python patch release).
var ErrSourceMismatch = errors.New("the corpus differs from the one the truth was computed on")

// ScoreOptions tunes Score.
type ScoreOptions struct {
	Work string // scratch directory (the corpus is fetched into it)
}

// Result is ccd's score on one corpus.
type Result struct {
	Corpus Corpus
	Truth  *Truth
	Muts   []MutResult
	// Unlocated lists the mutations whose function has no node in ccd's
	// graph (no card can be asked for).
	Unlocated []string
	Index     time.Duration // the first index
	Elapsed   time.Duration // everything, the fetch included
}

// MutResult is ccd's answer to one mutation, compared with the checker's.
type MutResult struct {
	M *Mutation
	// Located is false when ccd has no node for the function; Checked
	// is false when it has none or could not read the signatures (the card
	// then says "may break" for every caller).
	Located, Checked bool
	Sites            []hooks.SiteCheck
	// TP are ccd's "breaks" sites the checker confirms, FP those it does
	// not, FN the checker's broken calls ccd does not say break.
	TP, FP, FN []Ref
	Unknown    int // sites ccd cannot check ("may break")
	// self is the mutated function's line range (its own recursive calls
	// are in it); edges the confidence of ccd's call edge at each site.
	self  [3]int
	edges map[siteKey]string
}

// edgeConfidence maps the call sites of id to the confidence of ccd's
// edge there (the strongest of the caller's edges).
func edgeConfidence(g *graph.Graph, id string) map[siteKey]string {
	i, ok := g.Index(id)
	if !ok {
		return nil
	}
	out := map[siteKey]string{}
	for _, nb := range g.Neighbors(i, graph.In, graph.Filter{}) {
		for _, s := range nb.Sites {
			for _, l := range s.Lines {
				out[siteKey{s.Path, l}] = nb.Confidence.String()
			}
		}
	}
	return out
}

// Ref is a call site in a comparison, with why it landed there.
type Ref struct {
	File  string
	Line  int
	Edge  string // FP: the confidence of ccd's call edge there
	Cause string // FN: "fits", "unknown", "no edge", "unchecked", "no node"; FP: see fpCause
	Why   string // ccd's reason, or the checker's error
}

func (r Ref) String() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// Score answers every mutation of tr the way the edit card does and
// compares: fetch the corpus again, index it in-process, and for each
// mutation apply its edits on disk, update the index, call
// hooks.CheckSignatureChange, and undo.
func Score(ctx context.Context, c Corpus, tr *Truth, opt ScoreOptions) (*Result, error) {
	start := time.Now()
	dir := filepath.Join(opt.Work, c.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	t, err := Fetch(ctx, c, dir)
	if err != nil {
		return nil, err
	}
	if t.Hash != tr.Hash {
		return nil, fmt.Errorf("%w: %s hashes to %s, the truth to %s (%s)", ErrSourceMismatch, c.Name, t.Hash, tr.Hash, tr.Source)
	}
	t0 := time.Now()
	cur, err := index.Build(t.Root, config.Default())
	if err != nil {
		return nil, err
	}
	r := &Result{Corpus: c, Truth: tr, Index: time.Since(t0)}
	// The checkers resolve calls (Go, TypeScript; Python: see pyCalls): a
	// site ccd says breaks that is none of the function's calls is a call
	// of something else, or one the checker cannot resolve.
	resolved := true
	if c.Lang == "python" {
		pyCalls(tr)
	}
	for i := range tr.Mutations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := &tr.Mutations[i]
		mr := MutResult{M: m}
		if _, ok := cur.Graph.Index(m.Func); m.Func == "" || !ok {
			r.Unlocated = append(r.Unlocated, m.ID)
			mr.compare(nil, "no node", resolved)
			r.Muts = append(r.Muts, mr)
			continue
		}
		n := cur.Graph.Node(m.Func)
		mr.self = [3]int{0, n.StartLine, n.EndLine}
		restore, err := applyEdits(t.Root, m.Edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m.ID, err)
		}
		var files []string
		for _, e := range m.Edits {
			files = append(files, e.File)
		}
		after, _, err := cur.Update(files)
		if err != nil {
			restore()
			return nil, err
		}
		checks, ok := hooks.CheckSignatureChange(t.Root, cur.Graph, after.Graph, m.Func)
		if !ok {
			checks = unchecked(after.Graph, m.Func)
		}
		if err := restore(); err != nil {
			return nil, err
		}
		if cur, _, err = after.Update(files); err != nil {
			return nil, err
		}
		mr.Located, mr.Checked = true, ok
		mr.Sites = checks
		mr.edges = edgeConfidence(after.Graph, m.Func)
		cause := ""
		if !ok {
			cause = "unchecked"
		}
		mr.compare(checks, cause, resolved)
		r.Muts = append(r.Muts, mr)
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// pyCalls gives each Python mutation the calls pyright resolves to its
// function, which its report does not list: the calls it rejects when the
// function gets a new required parameter (the add-required mutation of
// the same function: every call it resolves then lacks an argument, but
// one that unpacks **kwargs).
func pyCalls(tr *Truth) {
	type fn struct {
		file string
		line int
	}
	calls := map[fn][]Site{}
	for _, m := range tr.Mutations {
		if m.Kind == AddRequired {
			for _, s := range m.Breaks {
				calls[fn{m.File, m.Line}] = append(calls[fn{m.File, m.Line}], Site{File: s.File, Line: s.Line, NameLine: s.NameLine})
			}
		}
	}
	for i := range tr.Mutations {
		m := &tr.Mutations[i]
		if len(m.Calls) == 0 {
			m.Calls = calls[fn{m.File, m.Line}]
		}
	}
}

// unchecked lists the callers of id as the card does when it cannot read
// the signatures: every call site "unknown".
func unchecked(g *graph.Graph, id string) []hooks.SiteCheck {
	i, ok := g.Index(id)
	if !ok {
		return nil
	}
	var out []hooks.SiteCheck
	for _, nb := range g.Neighbors(i, graph.In, graph.Filter{}) {
		n := g.Nodes[nb.Node]
		for _, l := range nb.Lines {
			out = append(out, hooks.SiteCheck{Path: nb.Path, Line: l, Caller: n.Qual, Verdict: "unknown", Why: "signature not read"})
		}
	}
	return out
}

type siteKey struct {
	file string
	line int
}

// compare fills TP, FP, FN from ccd's checks; noCard is the cause of every
// miss when ccd gave no verdicts ("no node", "unchecked").
func (mr *MutResult) compare(checks []hooks.SiteCheck, noCard string, resolved bool) {
	m := mr.M
	// A call is known by the line it starts on; ccd may name the line of
	// the callee's name instead.
	alias := map[siteKey]siteKey{}
	for _, ss := range [][]Site{m.Calls, m.Breaks} {
		for _, s := range ss {
			k := siteKey{s.File, s.Line}
			alias[k] = k
			if s.NameLine > 0 {
				if _, taken := alias[siteKey{s.File, s.NameLine}]; !taken {
					alias[siteKey{s.File, s.NameLine}] = k
				}
			}
		}
	}
	norm := func(k siteKey) siteKey {
		if a, ok := alias[k]; ok {
			return a
		}
		return k
	}
	truth := map[siteKey]Site{}
	for _, s := range m.Breaks {
		truth[siteKey{s.File, s.Line}] = s
	}
	calls := map[siteKey]bool{}
	for _, s := range m.Calls {
		calls[siteKey{s.File, s.Line}] = true
	}
	verdict := map[siteKey]hooks.SiteCheck{}
	for _, c := range checks {
		k := norm(siteKey{c.Path, c.Line})
		if old, ok := verdict[k]; ok && rank(old.Verdict) >= rank(c.Verdict) {
			continue
		}
		verdict[k] = c
	}
	for k, c := range verdict {
		switch c.Verdict {
		case "unknown":
			mr.Unknown++
		case "breaks":
			if _, ok := truth[k]; ok {
				mr.TP = append(mr.TP, Ref{File: k.file, Line: k.line, Why: c.Why})
			} else {
				mr.FP = append(mr.FP, Ref{File: k.file, Line: k.line, Cause: fpCause(m, k, calls, resolved), Why: c.Why, Edge: mr.edges[siteKey{c.Path, c.Line}]})
			}
		}
	}
	for k, s := range truth {
		c, ok := verdict[k]
		cause := noCard
		switch {
		case cause != "":
		case !ok && k.file == m.File && mr.self[1] <= k.line && k.line <= mr.self[2]:
			cause = "self"
		case !ok:
			cause = "no edge"
		case c.Verdict == "breaks":
			continue
		default:
			cause = c.Verdict
		}
		why := ""
		if len(s.Errors) > 0 {
			why = s.Errors[0]
		}
		if s.Via != "" {
			why += " (at a call of `" + s.Via + "`)"
		}
		if ok && c.Why != "" {
			why = c.Why + " — checker: " + why
		}
		mr.FN = append(mr.FN, Ref{File: k.file, Line: k.line, Cause: cause, Why: why})
	}
	for _, rs := range [][]Ref{mr.TP, mr.FP, mr.FN} {
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].File != rs[j].File {
				return rs[i].File < rs[j].File
			}
			return rs[i].Line < rs[j].Line
		})
	}
}

// fpCause says why a site ccd says breaks has no checker error: the
// checker reports another error there, it is not a call of the function
// as the checker resolves it, or the call still fits.
func fpCause(m *Mutation, k siteKey, calls map[siteKey]bool, resolved bool) string {
	for _, d := range m.Other {
		if d.File == k.file && d.Line == k.line {
			return "checker: " + d.Where + " error"
		}
	}
	if !resolved {
		return "no checker error"
	}
	if !calls[k] {
		return "not a call of it"
	}
	if m.Overloads > 0 {
		return "overloads"
	}
	return "call fits"
}

func rank(v string) int {
	switch v {
	case "breaks":
		return 2
	case "unknown":
		return 1
	}
	return 0
}
