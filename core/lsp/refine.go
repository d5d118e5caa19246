package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	// Library also asks about call sites that certainly call library code
	// (builtins, calls qualified by imports of library modules), which are
	// skipped by default: servers can only answer them with places outside
	// the workspace.
	Library bool
	// MaxImplementations caps the dispatch edges of one interface method
	// call: an interface with more implementations than that (not counting
	// those in test files, linked only from their own file) gets none, as
	// "calls every implementation" says nothing. Default 4; negative: no
	// dispatch edges at all.
	MaxImplementations int
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
	if o.MaxImplementations == 0 {
		o.MaxImplementations = 4
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
	// Library are the call sites not asked because they certainly call
	// library code (see RefineOptions.Library); not counted in Candidates.
	Library int `json:"library"`
	// Dispatch counts the interface method calls given implementations;
	// TooWide those whose interface had more than MaxImplementations.
	Dispatch int `json:"dispatch"`
	TooWide  int `json:"too_wide"`
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
	// Missing maps each language that had call sites to ask about but no
	// installed server to the server(s) it would use ("gopls"): the
	// refinement is incomplete until one is installed.
	Missing map[string]string `json:"missing,omitempty"`
	// Used maps each language whose server started to that server.
	Used map[string]string `json:"used,omitempty"`
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

	// idx indexes Edges and Stale by node id for ApplyFiles; built on
	// first use, so a Refinement must not change once applied.
	idx *refIndex
}

// Replace returns ref with the edges and stale call sites whose caller is
// in files replaced by add's (nil: only dropped), as after asking the
// servers again about those files. A caller is in a file when it is a
// node of g (the tree-sitter graph) there or, gone from g, when its id
// ("path::name") names the file. The result's Added and Upgraded are
// recounted against g; ref is not changed.
func (ref *Refinement) Replace(g *graph.Graph, files map[string]bool, add *Refinement) *Refinement {
	in := func(e graph.EdgeSpec) bool {
		if n := g.Node(e.From); n != nil {
			return files[n.Path]
		}
		p, _, _ := strings.Cut(e.From, "::")
		return files[p]
	}
	out := &Refinement{Stats: ref.Stats}
	for _, e := range ref.Edges {
		if !in(e) {
			out.Edges = append(out.Edges, e)
		}
	}
	for _, e := range ref.Stale {
		if !in(e) {
			out.Stale = append(out.Stale, e)
		}
	}
	if add != nil {
		out.Edges = append(out.Edges, add.Edges...)
		out.Stale = append(out.Stale, add.Stale...)
	}
	out.Stats.Added, out.Stats.Upgraded = out.count(g)
	return out
}

// count counts ref's edges that g lacks (added) and that g has with a
// weaker confidence (upgraded), one per edge.
func (ref *Refinement) count(g *graph.Graph) (added, upgraded int) {
	for _, e := range ref.Edges {
		from, ok1 := g.Index(e.From)
		to, ok2 := g.Index(e.To)
		if !ok1 || !ok2 {
			continue
		}
		found := false
		for _, ei := range g.Out(from) {
			if _, t, typ := g.EdgeEnds(ei); t == to && typ == graph.Call {
				found = true
				break
			}
		}
		if found {
			upgraded++
		} else {
			added++
		}
	}
	return added, upgraded
}

// refIndex maps node ids to the positions of a refinement's edges.
type refIndex struct {
	from, to, staleFrom map[string][]int32
}

var refIndexMu sync.Mutex

// index returns ref's index, building it on first use.
func (ref *Refinement) index() *refIndex {
	refIndexMu.Lock()
	defer refIndexMu.Unlock()
	if ref.idx == nil {
		x := &refIndex{from: map[string][]int32{}, to: map[string][]int32{}, staleFrom: map[string][]int32{}}
		for i, e := range ref.Edges {
			x.from[e.From] = append(x.from[e.From], int32(i))
			x.to[e.To] = append(x.to[e.To], int32(i))
		}
		for i, e := range ref.Stale {
			x.staleFrom[e.From] = append(x.staleFrom[e.From], int32(i))
		}
		ref.idx = x
	}
	return ref.idx
}

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
		stale: map[edgeKey]graph.Confidence{}, docs: map[docKey]int{}}
	r.realRoot, _ = filepath.EvalSymlinks(abs)
	r.stats.Servers = map[string]string{}
	ctx, cancel := context.WithTimeout(ctx, opt.Budget)
	defer cancel()

	cands := r.candidates(files)
	r.stats.Candidates = len(cands)
	cands = r.startSessions(ctx, cands)
	r.run(ctx, cands)
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
	classes  map[string]bool // names of the graph's classes

	asked atomic.Int64
	done  atomic.Int64
	total int

	mu       sync.Mutex
	stats    Stats
	texts    map[string][][]byte // rel path → lines
	dispatch map[int]*dispatchEntry
	edges    map[edgeKey]bool
	stale    map[edgeKey]graph.Confidence
	docs     map[docKey]int // documents in use → uses
}

type edgeKey struct{ from, to, line int }

type dispatchEntry struct {
	done  chan struct{}
	impls []int // concrete methods, test-file ones included
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
			if e := g.Edge(ei); e.Type == graph.Call && e.To == k.to {
				existing = e.Confidence
			}
		}
		if existing >= graph.LSP && hasEdgeLine(g, k) {
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
		if e := g.Edge(ei); e.Type == graph.Call && e.To == k.to && hasLine(e.Lines, k.line) {
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
	drop := staleSites(ref)
	specs := make([]graph.EdgeSpec, 0, g.NumEdges()+len(ref.Edges))
	for i := range g.NumEdges() {
		specs = appendRefined(specs, g, i, drop)
	}
	specs = append(specs, ref.Edges...)
	nodes := append([]*graph.Node(nil), g.Nodes...)
	return graph.New(nodes, specs)
}

// ApplyFiles is Apply(ts, ref) computed from refined, the refined graph
// of an earlier tree-sitter graph, by splicing in only files: ts must
// differ from that earlier graph only in the nodes of files and the edges
// leaving them (as index.Result.Delta reports), and ref may differ from
// the refinement refined was built with only in edges leaving those
// files. It costs a splice instead of a rebuild of every edge.
//
// A splice drops edges into nodes that are gone, and a node that comes
// back (a half-written save, then the whole file) must get its lsp
// callers back although their files did not change: the files of
// refinement edges into nodes refined lacks are spliced too.
func ApplyFiles(refined, ts *graph.Graph, files []string, ref *Refinement) *graph.Graph {
	return ApplyFilesWithout(refined, ts, files, ref, nil)
}

// ApplyFilesWithout is ApplyFiles leaving out ref's edges and stale call
// sites from the nodes of the files in without (some of files): those
// files get ts's edges, as after an edit of their content, for which ref's
// entries were not made (the servers are asked about them again).
func ApplyFilesWithout(refined, ts *graph.Graph, files []string, ref *Refinement, without map[string]bool) *graph.Graph {
	if ref == nil || (len(ref.Edges) == 0 && len(ref.Stale) == 0) {
		return refined.Splice(files, fileNodes(ts, files), fileEdges(ts, files, nil))
	}
	x := ref.index()
	in := map[string]bool{} // ids of ts's nodes in the spliced files
	var ids []string
	addFile := func(p string) {
		for _, i := range ts.InFile(p) {
			id := ts.Nodes[i].ID
			in[id] = true
			ids = append(ids, id)
		}
	}
	for _, p := range files {
		addFile(p)
	}
	all := slices.Clone(files)
	seen := map[string]bool{}
	for _, p := range files {
		seen[p] = true
	}
	var callers []string
	for _, id := range ids {
		if refined.Node(id) != nil {
			// A splice keeps the edges into a node that keeps its id: only
			// edges into a node refined lacks can be missing from it.
			continue
		}
		for _, k := range x.to[id] {
			e := ref.Edges[k]
			if n := ts.Node(e.From); n != nil && !in[e.From] && !seen[n.Path] {
				seen[n.Path] = true
				callers = append(callers, n.Path)
			}
		}
	}
	for _, p := range callers {
		all = append(all, p)
		addFile(p)
	}
	drop := map[site]bool{}
	var lsp []graph.EdgeSpec
	for _, id := range ids {
		if without != nil && without[ts.Node(id).Path] {
			continue
		}
		for _, k := range x.staleFrom[id] {
			e := ref.Stale[k]
			drop[site{e.From, e.To, e.Line}] = true
		}
		for _, k := range x.from[id] {
			lsp = append(lsp, ref.Edges[k])
		}
	}
	specs := append(fileEdges(ts, all, drop), lsp...)
	return refined.Splice(all, fileNodes(ts, all), specs)
}

// site is one call site of a call edge.
type site struct {
	from, to string
	line     int
}

// staleSites returns ref's stale call sites.
func staleSites(ref *Refinement) map[site]bool {
	drop := map[site]bool{}
	for _, s := range ref.Stale {
		drop[site{s.From, s.To, s.Line}] = true
	}
	return drop
}

// appendRefined appends edge i of g as specs, one per line, less the call
// sites in drop.
func appendRefined(specs []graph.EdgeSpec, g *graph.Graph, i int, drop map[site]bool) []graph.EdgeSpec {
	n := len(specs)
	specs = g.AppendSpecs(specs, i)
	if len(drop) == 0 {
		return specs
	}
	out := specs[:n]
	for _, s := range specs[n:] {
		if s.Type == graph.Call && s.Line != 0 && drop[site{s.From, s.To, s.Line}] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// fileNodes returns g's nodes in files.
func fileNodes(g *graph.Graph, files []string) []*graph.Node {
	var nodes []*graph.Node
	for _, p := range files {
		for _, i := range g.InFile(p) {
			nodes = append(nodes, g.Nodes[i])
		}
	}
	return nodes
}

// fileEdges returns the edges leaving g's nodes in files as specs, less
// the call sites in drop.
func fileEdges(g *graph.Graph, files []string, drop map[site]bool) []graph.EdgeSpec {
	var specs []graph.EdgeSpec
	for _, p := range files {
		for _, i := range g.InFile(p) {
			for _, k := range g.Out(i) {
				specs = appendRefined(specs, g, k, drop)
			}
		}
	}
	return specs
}
