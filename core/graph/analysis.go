package graph

import (
	"path"
	"sort"
	"strings"
)

// Direction selects callers (In, upstream) or callees (Out, downstream).
type Direction uint8

// Slice directions.
const (
	In Direction = iota + 1
	Out
)

// Filter selects the edges a traversal follows.
type Filter struct {
	// MinConfidence drops weaker edges (0 keeps all).
	MinConfidence Confidence
	// Imports also follows import edges (module dependencies); by default
	// slices follow calls only.
	Imports bool
	// Refs also follows references (a function named as a value where it
	// is not called: a callback, a method value, a table entry).
	Refs bool
	// Runs, when set, is a recording of the test suite (which tests ran
	// which functions): TestsOf then names the tests it saw running a node
	// it knows instead of every test the graph's closure reaches.
	Runs TestRuns
}

func (f Filter) follows(e *edge) bool {
	switch e.typ {
	case Call:
	case Ref:
		if !f.Refs {
			return false
		}
	case Import:
		if !f.Imports {
			return false
		}
	default:
		return false
	}
	return e.conf >= f.MinConfidence
}

// Hit is one node reached by a slice.
type Hit struct {
	Node  int
	Depth int // 1 = direct neighbour of the seed
	// Via is the node it was reached from (a seed or an earlier hit).
	Via int
	// Edge is the edge that reached it.
	Edge int
}

// Seeds returns the nodes a traversal starts from for target i: the node
// itself, plus, for classes and modules, every function they contain, so
// that impact reflects behaviour.
func (g *Graph) Seeds(i int) []int {
	seeds := []int{i}
	if k := g.Nodes[i].Kind; k == Class || k == Module {
		seeds = append(seeds, g.Descendants(i)...)
	}
	return seeds
}

// Slice returns the nodes reachable from target i in direction dir, breadth
// first, at most depth hops away (depth <= 0 means unlimited). Seeds are
// not included. Hits are ordered by depth, then by node id.
func (g *Graph) Slice(i int, dir Direction, depth int, f Filter) []Hit {
	seeds := g.seedsDir(i, dir)
	seen := make(map[int]bool, len(seeds))
	for _, s := range seeds {
		seen[s] = true
	}
	var hits []Hit
	frontier := seeds
	for d := 1; len(frontier) > 0 && (depth <= 0 || d <= depth); d++ {
		var next []int
		for _, n := range frontier {
			edges := g.Out(n)
			if dir == In {
				edges = g.In(n)
			}
			anon := dir == In && g.Nodes[n].Anonymous()
			for _, ei := range edges {
				e := g.edges.at(ei)
				// An anonymous function runs as part of the code that
				// defines it: its definer reaches it (a JSX handler, a
				// function stored where no edge sees it).
				if !f.follows(e) && !(anon && e.typ == Contains) {
					continue
				}
				m := int(e.to)
				if dir == In {
					m = int(e.from)
				}
				if seen[m] {
					continue
				}
				seen[m] = true
				hits = append(hits, Hit{Node: m, Depth: d, Via: n, Edge: ei})
				next = append(next, m)
			}
		}
		frontier = next
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].Depth != hits[b].Depth {
			return hits[a].Depth < hits[b].Depth
		}
		return hits[a].Node < hits[b].Node
	})
	return g.namedHits(hits, seeds)
}

// Neighbor is one caller or callee of an impact target, aggregated.
type Neighbor struct {
	Node int
	// Calls counts the call sites (lines) aggregated into this neighbour;
	// an edge without lines counts once.
	Calls      int
	Confidence Confidence // strongest edge
	// Sites are the call sites per file, sorted by path: a class's methods
	// (Go receivers) may call from several files.
	Sites []Site
	Lines []int  // the first site's lines
	Path  string // the first site's file
}

// Site is where calls happen in one file.
type Site struct {
	Path  string
	Lines []int
}

// Neighbors returns the 1-hop callers (dir In) or callees (dir Out) of
// target i's effective call participants (the function itself, or every
// function of a class or module). When the target is a class, neighbours
// inside another class are aggregated to that class, as in an impact view;
// calls within the target are left out.
func (g *Graph) Neighbors(i int, dir Direction, f Filter) []Neighbor {
	seeds := g.seedsDir(i, dir)
	inTarget := make(map[int]bool, len(seeds))
	for _, s := range seeds {
		inTarget[s] = true
	}
	aggregate := g.Nodes[i].Kind != Func
	byNode := map[int]*Neighbor{}
	sites := map[int]map[string][]int{}
	var order []int
	for _, s := range seeds {
		edges := g.Out(s)
		if dir == In {
			edges = g.In(s)
		}
		for _, ei := range edges {
			e := g.Edge(ei)
			if e.Type != Call || e.Confidence < f.MinConfidence {
				continue
			}
			m := e.To
			if dir == In {
				m = e.From
			}
			if inTarget[m] {
				continue
			}
			site := e.From
			if g.Nodes[m].Anonymous() {
				// A callback's calls are its enclosing function's.
				if m = g.Named(m); inTarget[m] {
					continue
				}
			}
			if aggregate {
				m = g.enclosingClass(m)
			}
			nb := byNode[m]
			if nb == nil {
				nb = &Neighbor{Node: m}
				byNode[m] = nb
				sites[m] = map[string][]int{}
				order = append(order, m)
			}
			nb.Calls++
			if e.Confidence > nb.Confidence {
				nb.Confidence = e.Confidence
			}
			p := g.Nodes[site].Path
			sites[m][p] = append(sites[m][p], e.Lines...)
		}
	}
	out := make([]Neighbor, 0, len(order))
	for _, m := range order {
		nb := byNode[m]
		lines := 0
		for p, ls := range sites[m] {
			ls = sortedUnique(ls)
			lines += len(ls)
			nb.Sites = append(nb.Sites, Site{Path: p, Lines: ls})
		}
		nb.Calls = max(nb.Calls, lines)
		sort.Slice(nb.Sites, func(a, b int) bool { return nb.Sites[a].Path < nb.Sites[b].Path })
		nb.Path, nb.Lines = nb.Sites[0].Path, nb.Sites[0].Lines
		out = append(out, *nb)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Confidence != out[b].Confidence {
			return out[a].Confidence > out[b].Confidence
		}
		if out[a].Calls != out[b].Calls {
			return out[a].Calls > out[b].Calls
		}
		return g.Nodes[out[a].Node].ID < g.Nodes[out[b].Node].ID
	})
	return out
}

// enclosingClass returns the outermost class containing function m (or its
// owner class), or m itself when it is a free function.
func (g *Graph) enclosingClass(m int) int {
	best := m
	for cur := m; cur >= 0; cur = g.Parent(cur) {
		n := g.Nodes[cur]
		if n.Kind == Class {
			best = cur
		}
		if n.Kind == Func && n.Owner != "" {
			if o, ok := g.index(n.Owner); ok {
				best = o
			}
		}
		if n.Kind == Module {
			break
		}
	}
	return best
}

// Tests returns the test functions and test modules in target i's inbound
// slice (depth <= 0: unlimited), plus tests among the target's own seeds,
// sorted by id.
func (g *Graph) Tests(i int, depth int, f Filter) []int {
	var out []int
	seen := map[int]bool{}
	add := func(n int) {
		if g.Nodes[n].Test && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, s := range g.Seeds(i) {
		add(s)
	}
	for _, h := range g.Slice(i, In, depth, f) {
		add(h.Node)
	}
	sort.Slice(out, func(a, b int) bool { return g.Nodes[out[a]].ID < g.Nodes[out[b]].ID })
	return out
}

// Degree is the number of call and import edges at node i, both ways.
func (g *Graph) Degree(i int) int {
	d := 0
	for _, ei := range g.Out(i) {
		if g.edges.at(ei).typ != Contains {
			d++
		}
	}
	for _, ei := range g.In(i) {
		if g.edges.at(ei).typ != Contains {
			d++
		}
	}
	return d
}

// rank orders candidate targets: functions before classes before modules,
// then higher degree, more children, source files before headers, nodes
// with a range, and finally id for determinism.
func (g *Graph) rank(cands []int) {
	kindScore := func(k Kind) int {
		switch k {
		case Func:
			return 3
		case Class:
			return 2
		}
		return 1
	}
	type key struct{ kind, degree, children, src, ranged int }
	keys := make(map[int]key, len(cands))
	for _, c := range cands {
		n := g.Nodes[c]
		k := key{kind: kindScore(n.Kind), degree: g.Degree(c), children: len(g.Children(c))}
		if !isHeader(n.Path) {
			k.src = 1
		}
		if n.StartLine > 0 {
			k.ranged = 1
		}
		keys[c] = k
	}
	sort.SliceStable(cands, func(a, b int) bool {
		x, y := keys[cands[a]], keys[cands[b]]
		switch {
		case x.kind != y.kind:
			return x.kind > y.kind
		case x.degree != y.degree:
			return x.degree > y.degree
		case x.children != y.children:
			return x.children > y.children
		case x.src != y.src:
			return x.src > y.src
		case x.ranged != y.ranged:
			return x.ranged > y.ranged
		}
		return g.Nodes[cands[a]].ID < g.Nodes[cands[b]].ID
	})
}

func isHeader(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++", ".d.ts", ".pyi":
		return true
	}
	return strings.HasSuffix(p, ".d.ts")
}

// Find resolves what a user typed to the nodes it most likely means, best
// first. It accepts a node id ("a.py::Cls.m"), a file path ("pkg/a.py"),
// "path:line", "path:Name", a qualified name ("Cls.m", "pkg.Func",
// "Cls::m"), or a bare name, matching case-sensitively before
// case-insensitively. An empty result means nothing matched exactly; use
// Similar for suggestions.
func (g *Graph) Find(q string) []int {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	if i, ok := g.index(q); ok {
		return []int{i}
	}
	q = strings.TrimSuffix(q, "()")
	// path:line or path:Name
	if p, rest, ok := strings.Cut(q, ":"); ok && !strings.HasPrefix(rest, ":") {
		if idx := g.inFile(p); len(idx) > 0 {
			if line := atoi(rest); line > 0 {
				if best, ok := g.BestAt(p, line, line); ok {
					return []int{best}
				}
			}
			return g.matchIn(idx, strings.ReplaceAll(rest, "::", "."))
		}
	}
	if idx := g.inFile(q); len(idx) > 0 {
		for _, i := range idx {
			if g.Nodes[i].Kind == Module {
				return []int{i}
			}
		}
	}
	qual := strings.ReplaceAll(q, "::", ".")
	var cands []int
	// Qualified name, or its tail ("pkg.Func" matches qual "Func" in a file
	// of directory pkg).
	if strings.Contains(qual, ".") {
		for i, n := range g.Nodes {
			if n.Kind != Module && (n.Qual == qual || strings.HasSuffix(n.Qual, "."+qual)) {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 {
			lq := strings.ToLower(qual)
			for i, n := range g.Nodes {
				lqual := strings.ToLower(n.Qual)
				if n.Kind != Module && (lqual == lq || strings.HasSuffix(lqual, "."+lq)) {
					cands = append(cands, i)
				}
			}
		}
		if len(cands) == 0 {
			pkg, name := qual[:strings.LastIndex(qual, ".")], qual[strings.LastIndex(qual, ".")+1:]
			for _, i := range g.named(strings.ToLower(name)) {
				n := g.Nodes[i]
				if n.Name == name && (path.Base(path.Dir(n.Path)) == pkg || strings.TrimSuffix(path.Base(n.Path), path.Ext(n.Path)) == pkg) {
					cands = append(cands, i)
				}
			}
		}
	}
	if len(cands) == 0 {
		cands = g.matchIn(g.named(strings.ToLower(qual)), qual)
	}
	g.rank(cands)
	return cands
}

// matchIn returns the nodes among idx named q, case-sensitive matches
// first (case-insensitive only if none match exactly).
func (g *Graph) matchIn(idx []int, q string) []int {
	var exact, fold []int
	for _, i := range idx {
		n := g.Nodes[i]
		if n.Kind == Module {
			continue
		}
		switch {
		case n.Name == q || n.Qual == q:
			exact = append(exact, i)
		case strings.EqualFold(n.Name, q) || strings.EqualFold(n.Qual, q):
			fold = append(fold, i)
		}
	}
	if len(exact) > 0 {
		g.rank(exact)
		return exact
	}
	g.rank(fold)
	return fold
}

func atoi(s string) int {
	n := 0
	if s == "" || len(s) > 9 {
		return 0
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Suggestion is a node similar to a query, with its score.
type Suggestion struct {
	Node  int
	Score float64
}

// Similar returns up to limit functions and classes whose names resemble q,
// best first. Tiers: exact name (case-insensitive) > name prefix > name
// contains the query > small edit distance (a typo) > query contains the
// name > shared subsequence. Within a tier closer lengths and higher degree
// win.
func (g *Graph) Similar(q string, limit int) []Suggestion {
	q = strings.TrimSuffix(strings.TrimSpace(q), "()")
	// A qualified query ("Srve.Serve") also scores the qualifier against
	// the candidate's: the owner the user meant is part of the intent.
	qualifier := ""
	if i := strings.LastIndexAny(q, ".:"); i >= 0 && i < len(q)-1 {
		qualifier = strings.ToLower(strings.TrimRight(strings.ReplaceAll(q[:i+1], "::", "."), ".:"))
		q = q[i+1:]
	}
	lq := strings.ToLower(q)
	if lq == "" {
		return nil
	}
	var out []Suggestion
	for i, n := range g.Nodes {
		if n.Kind == Module {
			continue
		}
		ln := strings.ToLower(n.Name)
		var s float64
		switch {
		case ln == lq:
			s = 1000
		case strings.HasPrefix(ln, lq):
			s = 800 - float64(len(ln)-len(lq))
		case strings.Contains(ln, lq):
			s = 600 - float64(len(ln)-len(lq))
		default:
			// The length checks skip the quadratic comparisons for names
			// that cannot qualify (most of a large graph): an edit distance
			// d needs |len difference| <= d, and a long common subsequence
			// needs len(ln) <= 2*len(lq).
			maxd := min(len(lq)/3, 3)
			diff := len(ln) - len(lq)
			if diff < 0 {
				diff = -diff
			}
			if diff <= maxd {
				if d := editDistanceMax(lq, ln, maxd); d <= maxd {
					s = 400 - 50*float64(d)
					break
				}
			}
			if len(ln) >= 3 && strings.Contains(lq, ln) {
				s = 300 - float64(len(lq)-len(ln))
			} else if len(lq) < 4 || len(ln) > 2*len(lq) {
				continue
			} else if ub := commonBytes(lq, ln); ub*4 < len(lq)*3 || ub*2 < len(ln) {
				continue // not even the shared bytes could make the subsequence long enough
			} else if sub := lcsLen(lq, ln); sub*4 >= len(lq)*3 && sub*2 >= len(ln) {
				s = 100 + 100*float64(sub)/float64(len(lq)) - float64(len(ln)-sub)
			} else {
				continue
			}
		}
		if qualifier != "" {
			s += qualifierBonus(qualifier, n.Qual)
		}
		s += float64(min(g.Degree(i), 20)) / 100
		out = append(out, Suggestion{Node: i, Score: s})
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Score != out[b].Score {
			return out[a].Score > out[b].Score
		}
		return g.Nodes[out[a].Node].ID < g.Nodes[out[b].Node].ID
	})
	// One suggestion per distinct label and file keeps the list useful.
	seen := map[string]bool{}
	var uniq []Suggestion
	for _, s := range out {
		n := g.Nodes[s.Node]
		k := n.Qual + "\x00" + n.Path
		if seen[k] {
			continue
		}
		seen[k] = true
		uniq = append(uniq, s)
		if limit > 0 && len(uniq) == limit {
			break
		}
	}
	return uniq
}

// qualifierBonus scores how well a typed qualifier matches the qualifier
// of a node's qualified name (its owner or enclosing scopes).
func qualifierBonus(typed, qual string) float64 {
	owner := ""
	if i := strings.LastIndex(qual, "."); i >= 0 {
		owner = strings.ToLower(qual[:i])
	}
	if owner == "" {
		return 0
	}
	last := owner[strings.LastIndex(owner, ".")+1:]
	switch {
	case owner == typed || last == typed:
		return 100
	case editDistance(typed, last) <= max(1, len(typed)/3):
		return 60
	case strings.Contains(last, typed) || strings.Contains(typed, last):
		return 30
	}
	return 0
}

func editDistance(a, b string) int { return editDistanceMax(a, b, 99) }

// editDistanceMax is editDistance, giving up with max+1 as soon as every
// entry of a row exceeds max (the distance can only grow from there).
func editDistanceMax(a, b string, max int) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	var pb, cb [65]int
	prev, cur := pb[:len(b)+1], cb[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// lcsLen is the length of the longest common subsequence of a and b.
func lcsLen(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 0
	}
	var pb, cb [65]int
	prev, cur := pb[:len(b)+1], cb[:len(b)+1]
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// commonBytes bounds lcsLen from above: how many bytes a and b share,
// counted with multiplicity.
func commonBytes(a, b string) int {
	var count [256]int16
	for i := 0; i < len(a); i++ {
		count[a[i]]++
	}
	n := 0
	for i := 0; i < len(b); i++ {
		if count[b[i]] > 0 {
			count[b[i]]--
			n++
		}
	}
	return n
}

// BestAt picks the most informative symbol defined in file p that overlaps
// lines [from, to] (to <= 0: the whole file): among functions and classes
// that overlap, those with call edges rank first, then rank's order
// (functions before classes, then degree, and so on). Modules are never chosen; ok is false when the file defines
// nothing there.
func (g *Graph) BestAt(p string, from, to int) (int, bool) {
	var cands []int
	for _, i := range g.inFile(p) {
		n := g.Nodes[i]
		if n.Kind == Module {
			continue
		}
		if to > 0 && (n.EndLine < from || n.StartLine > to) {
			continue
		}
		cands = append(cands, i)
	}
	// An anonymous function is shown as the function that defines it.
	named := cands[:0:0]
	for _, c := range cands {
		if !g.Nodes[c].Anonymous() {
			named = append(named, c)
		}
	}
	if len(named) > 0 {
		cands = named
	}
	if len(cands) == 0 {
		return -1, false
	}
	// A read of a few lines means the innermost symbol there; a read of a
	// whole file means the symbol with the most connections.
	if to > 0 && to-from < 3 {
		sort.SliceStable(cands, func(a, b int) bool {
			x, y := g.Nodes[cands[a]], g.Nodes[cands[b]]
			return x.EndLine-x.StartLine < y.EndLine-y.StartLine
		})
		return cands[0], true
	}
	// Symbols with call or import edges say more than isolated ones.
	var connected []int
	for _, c := range cands {
		if g.Degree(c) > 0 {
			connected = append(connected, c)
		}
	}
	if len(connected) > 0 {
		cands = connected
	}
	g.rank(cands)
	return cands[0], true
}
