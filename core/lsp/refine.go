package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// RefineOptions bound a refinement. Zero values mean the defaults.
type RefineOptions struct {
	// MaxRequests caps the requests sent (definition + implementation);
	// default 2000.
	MaxRequests int
	// Budget caps the whole refinement, server start-up included; default
	// 2 minutes. The caller's context can end it sooner.
	Budget time.Duration
	// Concurrency is the number of requests in flight; default 4.
	Concurrency int
	// Confirm also asks about call sites the resolver bound with
	// confidence resolved, to raise them to lsp.
	Confirm bool
	// Languages restricts the refinement to these server languages
	// (ServerSpec.Language); nil means every language with a server.
	Languages []string
	// Progress, when set, is called after every call site (done of total).
	Progress func(done, total int)
}

func (o RefineOptions) withDefaults() RefineOptions {
	if o.MaxRequests <= 0 {
		o.MaxRequests = 2000
	}
	if o.Budget <= 0 {
		o.Budget = 2 * time.Minute
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	return o
}

// Stats count what a refinement did.
type Stats struct {
	// Candidates are the call sites worth asking about: unresolved, weak
	// (name-match, inferred), calls of interface methods (and resolved
	// ones with Confirm).
	Candidates int `json:"candidates"`
	Asked      int `json:"asked"`    // requests sent
	Answered   int `json:"answered"` // requests answered without error
	Failed     int `json:"failed"`   // requests that failed or timed out
	// Skipped are candidates not asked: over MaxRequests or Budget, no
	// usable server, or the callee name not found on the call's line.
	Skipped int `json:"skipped"`
	// External answers pointed only outside the workspace (standard
	// library, dependencies); Unmapped ones inside it, but at no graph
	// function or class (a local variable, a field).
	External int `json:"external"`
	Unmapped int `json:"unmapped"`
	// Added are new call edges (caller, callee); Upgraded existing ones
	// raised to lsp; Stale weak edges the server contradicted.
	Added    int `json:"added"`
	Upgraded int `json:"upgraded"`
	Stale    int `json:"stale"`
	// Duration is the refinement's wall time; FirstAnswer the time until
	// the first answered request (server start-up included).
	Duration    time.Duration `json:"duration"`
	FirstAnswer time.Duration `json:"first_answer"`
	// Servers maps each language met to the server used, or to why none
	// was ("not found", "failed to start ...").
	Servers map[string]string `json:"servers"`
	// Errors holds the first few request errors.
	Errors []string `json:"errors,omitempty"`
}

// Refinement is what Refine learned: call edges to add (new, or raising
// an existing edge to lsp) and weak edges the servers contradicted.
type Refinement struct {
	// Edges are call edges with Confidence graph.LSP, one per call site.
	Edges []graph.EdgeSpec
	// Stale are name-match or inferred call edges (with the confidence
	// they had) at call sites where the server named another callee.
	Stale []graph.EdgeSpec
	Stats Stats
}

// candidate kinds, in the order they are asked about.
const (
	tierWeak     = iota // an edge at the site is name-match or inferred
	tierDispatch        // the site calls an interface method
	tierLikely          // no edge; the callee's name exists in the workspace
	tierRest            // no edge; probably a library call
	tierConfirm         // resolved edge, asked only with Confirm
)

// candidate is one call site to ask about.
type candidate struct {
	file   *facts.File
	lang   string
	call   facts.Call
	caller int   // node index
	tier   int   // tierWeak ...
	weak   []int // edge indexes of the weak edges at the site
	target int   // tierDispatch: the interface method's node
}

// interfaceSig recognises the signature of a class-like node whose
// methods are dispatched dynamically.
var interfaceSig = regexp.MustCompile(`\b(interface|trait|protocol|abstract)\b`)

// ctorNames are the names of constructors in the graph's conventions.
var ctorNames = map[string]bool{"__init__": true, "constructor": true, "initialize": true, "new": true}

// Refine asks language servers about the call sites of files that the
// resolver left unresolved or weak, and about calls of interface methods
// (whose implementations it adds), and returns LSP call edges for g. root
// is the workspace root the graph's paths are relative to; files are the
// parse facts g was built from. It stays within opt's budget and the
// caller's context; servers that are missing, crash or hang only cost
// their candidates (see Stats.Servers). The error is non-nil only for bad
// arguments.
func Refine(ctx context.Context, m *Manager, root string, g *graph.Graph, files []*facts.File, opt RefineOptions) (*Refinement, error) {
	if m == nil || g == nil {
		return nil, fmt.Errorf("lsp refine: need a manager and a graph")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("lsp refine %s: %w", root, err)
	}
	opt = opt.withDefaults()
	r := &refiner{m: m, root: abs, g: g, opt: opt, t0: time.Now(),
		texts: map[string][][]byte{}, dispatch: map[int]*dispatchEntry{}, edges: map[edgeKey]bool{},
		stale: map[edgeKey]graph.Confidence{}, opened: map[*Session]map[string]bool{}}
	r.realRoot, _ = filepath.EvalSymlinks(abs)
	r.stats.Servers = map[string]string{}
	ctx, cancel := context.WithTimeout(ctx, opt.Budget)
	defer cancel()

	cands := r.candidates(files)
	r.stats.Candidates = len(cands)
	cands = r.startSessions(ctx, cands)
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := &cands[i], &cands[j]
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.file.Path != b.file.Path {
			return a.file.Path < b.file.Path
		}
		return a.call.Line < b.call.Line
	})
	r.run(ctx, cands)
	r.closeDocs()
	return r.result(), nil
}

// refiner is the state of one Refine call.
type refiner struct {
	m        *Manager
	root     string
	realRoot string
	g        *graph.Graph
	opt      RefineOptions
	t0       time.Time
	sessions map[string]*Session
	names    map[string]bool // names of the graph's functions and classes

	asked atomic.Int64
	done  atomic.Int64
	total int

	mu       sync.Mutex
	stats    Stats
	texts    map[string][][]byte // rel path → lines
	dispatch map[int]*dispatchEntry
	edges    map[edgeKey]bool
	stale    map[edgeKey]graph.Confidence
	opened   map[*Session]map[string]bool
}

type edgeKey struct{ from, to, line int }

type dispatchEntry struct {
	done  chan struct{}
	impls []int
}

// candidates lists the call sites worth asking about.
func (r *refiner) candidates(files []*facts.File) []candidate {
	g := r.g
	want := map[string]bool{}
	for _, l := range r.opt.Languages {
		want[l] = true
	}
	r.names = map[string]bool{}
	for _, n := range g.Nodes {
		if n.Kind != graph.Module {
			r.names[n.Name] = true
		}
	}
	var out []candidate
	for _, f := range files {
		if f == nil || len(f.Calls) == 0 {
			continue
		}
		lang := r.m.LanguageFor(f.Path)
		if lang == "" || (len(want) > 0 && !want[lang]) {
			continue
		}
		nodes := g.InFile(f.Path)
		if len(nodes) == 0 {
			continue
		}
		defNode := make([]int, len(f.Defs))
		module := -1
		for i := range defNode {
			defNode[i] = -1
		}
		byQual := map[string][]int{}
		for _, ni := range nodes {
			n := g.Nodes[ni]
			if n.Kind == graph.Module {
				module = ni
				continue
			}
			byQual[n.Qual] = append(byQual[n.Qual], ni)
		}
		for di, d := range f.Defs {
			for _, ni := range byQual[d.Qual] {
				if g.Nodes[ni].StartLine == d.StartLine {
					defNode[di] = ni
				}
			}
		}
		for _, c := range f.Calls {
			caller := module
			if c.Caller >= 0 && c.Caller < len(defNode) {
				caller = defNode[c.Caller]
			}
			if caller < 0 || c.Name == "" {
				continue
			}
			cd := candidate{file: f, lang: lang, call: c, caller: caller, target: -1}
			best := graph.Confidence(0)
			for _, ei := range g.Out(caller) {
				e := &g.Edges[ei]
				if e.Type != graph.Call || !hasLine(e.Lines, c.Line) || !r.callee(e.To, c.Name) {
					continue
				}
				if e.Confidence > best {
					best = e.Confidence
				}
				if e.Confidence <= graph.Inferred {
					cd.weak = append(cd.weak, ei)
				}
				if e.Confidence == graph.Resolved && r.isInterfaceMethod(e.To) {
					cd.target = e.To
				}
			}
			switch {
			case best == graph.LSP:
				continue
			case best == graph.Resolved && cd.target >= 0:
				cd.tier = tierDispatch
			case best == graph.Resolved:
				if !r.opt.Confirm {
					continue
				}
				cd.tier = tierConfirm
			case best > 0:
				cd.tier = tierWeak
			case r.names[c.Name]:
				cd.tier = tierLikely
			default:
				cd.tier = tierRest
			}
			out = append(out, cd)
		}
	}
	return out
}

func hasLine(lines []int, l int) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// callee reports whether node i can be what a call of name reaches: the
// function or class of that name, or the constructor of that class.
func (r *refiner) callee(i int, name string) bool {
	n := r.g.Nodes[i]
	if n.Name == name {
		return true
	}
	if n.Kind == graph.Func && ctorNames[n.Name] {
		if p := r.class(i); p >= 0 && r.g.Nodes[p].Name == name {
			return true
		}
	}
	return false
}

// class returns the class a function belongs to (its syntactic parent or
// its Owner), or -1.
func (r *refiner) class(i int) int {
	if p := r.g.Parent(i); p >= 0 && r.g.Nodes[p].Kind == graph.Class {
		return p
	}
	if o := r.g.Nodes[i].Owner; o != "" {
		if j, ok := r.g.Index(o); ok {
			return j
		}
	}
	return -1
}

// isInterfaceMethod reports whether node i is a method declared in an
// interface (trait, protocol, abstract class).
func (r *refiner) isInterfaceMethod(i int) bool {
	n := r.g.Nodes[i]
	if n.Kind != graph.Func {
		return false
	}
	p := r.g.Parent(i)
	return p >= 0 && r.g.Nodes[p].Kind == graph.Class && interfaceSig.MatchString(r.g.Nodes[p].Signature)
}

// startSessions starts the servers the candidates need, in parallel and
// within ctx, and drops the candidates of languages without a usable
// server.
func (r *refiner) startSessions(ctx context.Context, cands []candidate) []candidate {
	need := map[string]int{}
	for _, c := range cands {
		need[c.lang]++
	}
	r.sessions = map[string]*Session{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for lang := range need {
		s, err := r.m.Session(lang, r.root)
		if err != nil {
			r.stats.Servers[lang] = err.Error()
			continue
		}
		wg.Add(1)
		go func(lang string, s *Session) {
			defer wg.Done()
			err := s.Start(ctx)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				r.stats.Servers[lang] = err.Error()
				return
			}
			r.stats.Servers[lang] = s.spec.DisplayName()
			r.sessions[lang] = s
		}(lang, s)
	}
	wg.Wait()
	kept := cands[:0]
	for _, c := range cands {
		if r.sessions[c.lang] != nil {
			kept = append(kept, c)
		} else {
			r.stats.Skipped++
		}
	}
	return kept
}

// run asks about the candidates with a bounded number of workers.
func (r *refiner) run(ctx context.Context, cands []candidate) {
	r.total = r.stats.Candidates
	r.done.Store(int64(r.stats.Skipped))
	ch := make(chan *candidate)
	var wg sync.WaitGroup
	for w := 0; w < r.opt.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range ch {
				r.ask(ctx, c)
				r.progress()
			}
		}()
	}
	fed := 0
feed:
	for i := range cands {
		if r.asked.Load() >= int64(r.opt.MaxRequests) {
			break
		}
		select {
		case ch <- &cands[i]:
			fed++
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	r.mu.Lock()
	r.stats.Skipped += len(cands) - fed
	r.mu.Unlock()
}

func (r *refiner) progress() {
	d := r.done.Add(1)
	if r.opt.Progress != nil {
		r.opt.Progress(int(d), r.total)
	}
}

// reserve takes one request from the MaxRequests allowance.
func (r *refiner) reserve() bool {
	if r.asked.Add(1) > int64(r.opt.MaxRequests) {
		r.asked.Add(-1)
		return false
	}
	r.mu.Lock()
	r.stats.Asked++
	r.mu.Unlock()
	return true
}

// answered records the outcome of one request.
func (r *refiner) answered(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.stats.Failed++
		if len(r.stats.Errors) < 5 {
			r.stats.Errors = append(r.stats.Errors, err.Error())
		}
		return
	}
	if r.stats.Answered == 0 {
		r.stats.FirstAnswer = time.Since(r.t0)
	}
	r.stats.Answered++
}

func (r *refiner) count(field *int) {
	r.mu.Lock()
	*field++
	r.mu.Unlock()
}

// ask handles one candidate.
func (r *refiner) ask(ctx context.Context, c *candidate) {
	if ctx.Err() != nil {
		r.count(&r.stats.Skipped)
		return
	}
	s := r.sessions[c.lang]
	if c.tier == tierDispatch {
		for _, impl := range r.implementations(ctx, c.target) {
			r.addEdge(c.caller, impl, c.call.Line)
		}
		return
	}
	ls, err := r.lines(c.file.Path)
	if err != nil {
		r.count(&r.stats.Skipped)
		return
	}
	pos, ok := callPosition(ls, c.call.Line, c.call.Name, c.call.Recv)
	if !ok || !r.reserve() {
		r.count(&r.stats.Skipped)
		return
	}
	r.noteOpened(s, c.file.Path)
	locs, err := s.Definition(ctx, c.file.Path, pos)
	r.answered(err)
	if err != nil {
		return
	}
	targets, external := r.mapLocations(locs, true)
	switch {
	case len(targets) == 0 && external:
		r.count(&r.stats.External)
	case len(targets) == 0 && len(locs) > 0:
		r.count(&r.stats.Unmapped)
	}
	for _, t := range targets {
		r.addEdge(c.caller, t, c.call.Line)
		if r.isInterfaceMethod(t) {
			for _, impl := range r.implementations(ctx, t) {
				r.addEdge(c.caller, impl, c.call.Line)
			}
		}
	}
	if len(locs) > 0 {
		for _, ei := range c.weak {
			e := r.g.Edges[ei]
			if !containsInt(targets, e.To) {
				r.mu.Lock()
				r.stale[edgeKey{e.From, e.To, c.call.Line}] = e.Confidence
				r.mu.Unlock()
			}
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// implementations returns the concrete methods of interface method t,
// asking the server once per method.
func (r *refiner) implementations(ctx context.Context, t int) []int {
	r.mu.Lock()
	e := r.dispatch[t]
	if e != nil {
		r.mu.Unlock()
		select {
		case <-e.done:
			return e.impls
		case <-ctx.Done():
			return nil
		}
	}
	e = &dispatchEntry{done: make(chan struct{})}
	r.dispatch[t] = e
	r.mu.Unlock()
	defer close(e.done)

	n := r.g.Nodes[t]
	s := r.sessions[r.m.LanguageFor(n.Path)]
	if s == nil {
		return nil
	}
	if ok, _ := s.Supports(ctx, "implementationProvider"); !ok {
		return nil
	}
	ls, err := r.lines(n.Path)
	if err != nil || n.StartLine < 1 || n.StartLine > len(ls) {
		return nil
	}
	var pos protocol.Position
	found := false
	for l := n.StartLine; l <= n.EndLine && l <= len(ls) && !found; l++ {
		if hits := findWord(ls[l-1], n.Name, 0); len(hits) > 0 {
			pos, found = protocol.Position{Line: uint32(l - 1), Character: utf16Col(ls[l-1], hits[0])}, true
		}
	}
	if !found || !r.reserve() {
		return nil
	}
	r.noteOpened(s, n.Path)
	locs, err := s.Implementation(ctx, n.Path, pos)
	r.answered(err)
	if err != nil {
		return nil
	}
	impls, _ := r.mapLocations(locs, false)
	out := impls[:0]
	for _, i := range impls {
		if i != t {
			out = append(out, i)
		}
	}
	e.impls = out
	return out
}

// maxTargets caps the callees taken from one answer (overloads,
// implementations), so that one call site cannot fan out without bound.
const maxTargets = 16

// mapLocations maps server locations to graph nodes: the innermost
// function or class around each location whose name is the identifier
// there (walking outward), with classes replaced by their constructor
// (ctor). external reports whether some location lies outside the
// workspace.
func (r *refiner) mapLocations(locs []Location, ctor bool) (nodes []int, external bool) {
	for _, l := range locs {
		rel, ok := relPath(r.root, l.Path)
		if !ok && r.realRoot != "" {
			rel, ok = relPath(r.realRoot, l.Path)
		}
		if !ok {
			if real, err := filepath.EvalSymlinks(l.Path); err == nil {
				rel, ok = relPath(r.root, real)
			}
		}
		if !ok {
			external = true
			continue
		}
		i := r.nodeAt(rel, l)
		if i < 0 {
			continue
		}
		if ctor && r.g.Nodes[i].Kind == graph.Class {
			i = r.constructor(i)
		}
		if !containsInt(nodes, i) && len(nodes) < maxTargets {
			nodes = append(nodes, i)
		}
	}
	return nodes, external
}

// nodeAt finds the node a location names.
func (r *refiner) nodeAt(rel string, l Location) int {
	line := l.Line()
	var around []int
	for _, i := range r.g.InFile(rel) {
		n := r.g.Nodes[i]
		if n.Kind != graph.Module && n.StartLine <= line && line <= n.EndLine {
			around = append(around, i)
		}
	}
	if len(around) == 0 {
		return -1
	}
	// Innermost first.
	sort.Slice(around, func(a, b int) bool {
		x, y := r.g.Nodes[around[a]], r.g.Nodes[around[b]]
		return x.EndLine-x.StartLine < y.EndLine-y.StartLine
	})
	ident := ""
	if ls, err := r.lines(rel); err == nil {
		ident = identAt(ls, l.Range.Start)
	}
	for _, i := range around {
		n := r.g.Nodes[i]
		if ident == "" || n.Name == ident {
			if ident == "" && n.StartLine != line {
				continue
			}
			return i
		}
	}
	return -1
}

// constructor returns class i's constructor when it defines one, else i.
func (r *refiner) constructor(i int) int {
	cls := r.g.Nodes[i]
	for _, k := range r.g.Children(i) {
		n := r.g.Nodes[k]
		if n.Kind == graph.Func && (ctorNames[n.Name] || n.Name == cls.Name) {
			return k
		}
	}
	return i
}

// lines returns a workspace file's lines, cached.
func (r *refiner) lines(rel string) ([][]byte, error) {
	r.mu.Lock()
	ls, ok := r.texts[rel]
	r.mu.Unlock()
	if ok {
		return ls, nil
	}
	b, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	ls = lines(b)
	r.mu.Lock()
	r.texts[rel] = ls
	r.mu.Unlock()
	return ls, nil
}

// addEdge records a call edge found by a server.
func (r *refiner) addEdge(from, to, line int) {
	r.mu.Lock()
	r.edges[edgeKey{from, to, line}] = true
	r.mu.Unlock()
}

// noteOpened remembers a document a session opens for this refinement.
func (r *refiner) noteOpened(s *Session, rel string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.opened[s] == nil {
		r.opened[s] = map[string]bool{}
	}
	r.opened[s][rel] = true
}

// closeDocs closes, in the background, the documents this refinement
// opened, so that long-lived sessions do not accumulate them.
func (r *refiner) closeDocs() {
	for s, files := range r.opened {
		go func(s *Session, files map[string]bool) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for f := range files {
				if err := s.CloseDocument(ctx, f); err != nil && errors.Is(err, context.DeadlineExceeded) {
					return
				}
			}
		}(s, files)
	}
}

// result turns the recorded edges into a Refinement.
func (r *refiner) result() *Refinement {
	g := r.g
	out := &Refinement{}
	type pair struct{ from, to int }
	seen := map[pair]bool{}
	keys := make([]edgeKey, 0, len(r.edges))
	for k := range r.edges {
		keys = append(keys, k)
	}
	sortKeys(keys)
	for _, k := range keys {
		existing := graph.Confidence(0)
		for _, ei := range g.Out(k.from) {
			if e := g.Edges[ei]; e.Type == graph.Call && e.To == k.to {
				existing = e.Confidence
			}
		}
		if existing == graph.LSP && hasEdgeLine(g, k) {
			continue
		}
		p := pair{k.from, k.to}
		if !seen[p] {
			seen[p] = true
			switch {
			case existing == 0:
				r.stats.Added++
			case existing < graph.LSP:
				r.stats.Upgraded++
			}
		}
		out.Edges = append(out.Edges, graph.EdgeSpec{From: g.Nodes[k.from].ID, To: g.Nodes[k.to].ID,
			Type: graph.Call, Confidence: graph.LSP, Line: k.line})
	}
	skeys := make([]edgeKey, 0, len(r.stale))
	for k := range r.stale {
		if !r.edges[k] {
			skeys = append(skeys, k)
		}
	}
	sortKeys(skeys)
	for _, k := range skeys {
		out.Stale = append(out.Stale, graph.EdgeSpec{From: g.Nodes[k.from].ID, To: g.Nodes[k.to].ID,
			Type: graph.Call, Confidence: r.stale[k], Line: k.line})
	}
	r.stats.Stale = len(out.Stale)
	r.stats.Duration = time.Since(r.t0)
	out.Stats = r.stats
	return out
}

func hasEdgeLine(g *graph.Graph, k edgeKey) bool {
	for _, ei := range g.Out(k.from) {
		if e := g.Edges[ei]; e.Type == graph.Call && e.To == k.to && hasLine(e.Lines, k.line) {
			return true
		}
	}
	return false
}

func sortKeys(ks []edgeKey) {
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.from != b.from {
			return a.from < b.from
		}
		if a.to != b.to {
			return a.to < b.to
		}
		return a.line < b.line
	})
}

// Apply returns a new graph: g with the refinement's edges merged in
// (graph.New keeps the strongest confidence) and its stale edges' call
// sites removed. g itself is not changed.
func Apply(g *graph.Graph, ref *Refinement) *graph.Graph {
	if ref == nil || (len(ref.Edges) == 0 && len(ref.Stale) == 0) {
		return g
	}
	type site struct {
		from, to string
		line     int
	}
	drop := map[site]bool{}
	for _, s := range ref.Stale {
		drop[site{s.From, s.To, s.Line}] = true
	}
	specs := make([]graph.EdgeSpec, 0, len(g.Edges)+len(ref.Edges))
	for _, e := range g.Edges {
		from, to := g.Nodes[e.From].ID, g.Nodes[e.To].ID
		if len(e.Lines) == 0 {
			specs = append(specs, graph.EdgeSpec{From: from, To: to, Type: e.Type, Confidence: e.Confidence, Spec: e.Spec})
			continue
		}
		for _, l := range e.Lines {
			if e.Type == graph.Call && drop[site{from, to, l}] {
				continue
			}
			specs = append(specs, graph.EdgeSpec{From: from, To: to, Type: e.Type, Confidence: e.Confidence, Line: l, Spec: e.Spec})
		}
	}
	specs = append(specs, ref.Edges...)
	nodes := append([]*graph.Node(nil), g.Nodes...)
	return graph.New(nodes, specs)
}
