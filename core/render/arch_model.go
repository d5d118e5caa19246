package render

import (
	"path"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// archModule is one module (file) with what the architecture view shows.
type archModule struct {
	node     int
	path     string
	classes  int
	funcs    int
	fanIn    int // distinct other non-test modules that import or call into it
	hub      bool
	test     bool
	district int
}

// district is a group of modules: a directory subtree, a directory's own
// files, or several small directories merged.
type district struct {
	label   string   // "net/http/", "./", "other (21 dirs)"
	dir     string   // the directory it is rooted at ("" for merged groups)
	dirs    []string // the top directories of a merged group, largest first
	mods    []int    // indexes into archModel.mods, most important first
	classes int
	funcs   int
	tests   int
	hue     int
	subdirs []dirCount // largest subdirectories, for subtree districts
	hubs    int
}

type dirCount struct {
	name  string
	files int
}

// link is the aggregated dependency of one district on another.
type link struct {
	from, to int
	count    int // modules of from that import (or call) into to
}

type archModel struct {
	mods      []archModule
	districts []district
	links     []link // all links between districts, heaviest first
	linkKind  string // "imports" or "calls"
	classes   int
	funcs     int
	imports   int
	calls     int
}

// dirTree is the directory tree of the modules.
type dirTree struct {
	name     string // full path, "." for the root
	files    []int  // modules directly inside
	children []*dirTree
	total    int
}

func buildArchModel(g *graph.Graph, budget int) *archModel {
	m := &archModel{}
	modOf := make([]int32, len(g.Nodes)) // node -> module index, -1 if none
	byPath := map[string]int{}
	for i, n := range g.Nodes {
		modOf[i] = -1
		if n.Kind == graph.Module {
			byPath[n.Path] = len(m.mods)
			m.mods = append(m.mods, archModule{node: i, path: n.Path, test: n.Test || graph.IsTestFile(n.Path)})
		}
	}
	for i, n := range g.Nodes {
		mi, ok := byPath[n.Path]
		if !ok {
			continue
		}
		modOf[i] = int32(mi)
		switch n.Kind {
		case graph.Class:
			m.mods[mi].classes++
			m.classes++
		case graph.Func:
			m.mods[mi].funcs++
			m.funcs++
		}
	}
	// Fan-in: distinct (from, to) module pairs over imports and calls.
	pairs := make([]uint64, 0, g.NumEdges()/2)
	for _, e := range g.AllEdges() {
		switch e.Type {
		case graph.Import:
			m.imports++
		case graph.Call:
			m.calls++
		default:
			continue
		}
		a, b := modOf[e.From], modOf[e.To]
		if a < 0 || b < 0 || a == b || m.mods[a].test {
			continue // what tests use says little about the architecture
		}
		pairs = append(pairs, uint64(a)<<32|uint64(b))
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i] < pairs[j] })
	for i, p := range pairs {
		if i > 0 && pairs[i-1] == p {
			continue
		}
		m.mods[p&0xffffffff].fanIn++
	}
	m.markHubs()
	m.groupDistricts(budget)
	m.linkDistricts(g, modOf)
	return m
}

// markHubs flags the most depended-on modules: the top few by fan-in,
// among those with a fan-in well above the typical one.
func (m *archModel) markHubs() {
	idx := make([]int, len(m.mods))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return m.mods[idx[a]].fanIn > m.mods[idx[b]].fanIn })
	limit := min(12, max(1, len(m.mods)/25))
	floor := 3
	if len(idx) > 0 {
		// at least a quarter of the strongest fan-in
		floor = max(floor, m.mods[idx[0]].fanIn/4)
	}
	for k := 0; k < len(idx) && k < limit; k++ {
		if mm := &m.mods[idx[k]]; mm.fanIn >= floor {
			mm.hub = true
		}
	}
}

// groupDistricts splits the directory tree into at most budget districts:
// the largest directory subtree is split into its subdirectories (and its
// own files) while that fits; the first split of the root always happens,
// merging its smallest parts into one "other" district when there are too
// many.
func (m *archModel) groupDistricts(budget int) {
	if len(m.mods) == 0 {
		return
	}
	root := m.dirTree()
	if len(root.children) == 0 && len(root.files) >= 2 && len(root.files) <= 16 {
		// One small directory: every module is a district of its own, so
		// that the imports between them show.
		for i, mi := range root.files {
			mm := &m.mods[mi]
			mm.district = i
			d := district{label: mm.path, dir: path.Dir(mm.path), mods: []int{mi}, classes: mm.classes, funcs: mm.funcs, hue: i % (len(districtHues) - 1)}
			if mm.test {
				d.tests = 1
			}
			if mm.hub {
				d.hubs = 1
			}
			m.districts = append(m.districts, d)
		}
		return
	}
	type part struct {
		node  *dirTree
		own   bool       // only the node's own files
		group []*dirTree // merged subtrees
		size  int
		fixed bool // do not split further
	}
	sizeOf := func(p *part) int {
		switch {
		case p.group != nil:
			s := 0
			for _, d := range p.group {
				s += d.total
			}
			return s
		case p.own:
			return len(p.node.files)
		}
		return p.node.total
	}
	pieces := func(p *part) []*part {
		var out []*part
		if len(p.node.files) > 0 {
			out = append(out, &part{node: p.node, own: true, fixed: true})
		}
		for _, c := range p.node.children {
			out = append(out, &part{node: c})
		}
		for _, q := range out {
			q.size = sizeOf(q)
		}
		return out
	}
	parts := []*part{{node: root, size: root.total}}
	for first := true; ; first = false {
		var best *part
		bi := -1
		for i, p := range parts {
			if p.fixed || p.own || p.group != nil || len(p.node.children) == 0 {
				continue
			}
			if best == nil || p.size > best.size {
				best, bi = p, i
			}
		}
		if best == nil {
			break
		}
		ps := pieces(best)
		if len(parts)-1+len(ps) > budget {
			if !first {
				best.fixed = true
				continue
			}
			// The root must split: keep its largest parts, merge the rest.
			sort.SliceStable(ps, func(a, b int) bool { return ps[a].size > ps[b].size })
			keep := append([]*part(nil), ps[:budget-1]...)
			other := &part{fixed: true}
			for _, q := range ps[budget-1:] {
				if q.own {
					keep = append(keep, q) // never hide the root's own files
					continue
				}
				other.group = append(other.group, q.node)
			}
			other.size = sizeOf(other)
			ps = append(keep, other)
		}
		parts = append(parts[:bi], append(ps, parts[bi+1:]...)...)
	}
	// Districts in path order; merged groups last.
	sort.SliceStable(parts, func(a, b int) bool {
		pa, pb := parts[a], parts[b]
		if (pa.group != nil) != (pb.group != nil) {
			return pb.group != nil
		}
		if pa.group != nil {
			return false
		}
		if pa.node.name != pb.node.name {
			return pa.node.name < pb.node.name
		}
		return pa.own && !pb.own
	})
	// Colour by the first directory level where districts differ, so that
	// siblings share a colour.
	prefix, first := "", true
	for _, p := range parts {
		if p.group != nil {
			continue
		}
		if first {
			prefix, first = p.node.name+"/", false
			continue
		}
		for !strings.HasPrefix(p.node.name+"/", prefix) {
			prefix = prefix[:strings.LastIndexByte(strings.TrimSuffix(prefix, "/"), '/')+1]
		}
	}
	hueOf := map[string]int{}
	for _, p := range parts {
		d := district{}
		var members []int
		switch {
		case p.group != nil:
			sort.SliceStable(p.group, func(a, b int) bool { return p.group[a].total > p.group[b].total })
			for _, t := range p.group {
				d.dirs = append(d.dirs, t.name)
				members = t.collect(members)
			}
			d.label = "other: " + counted(len(p.group), "directory", "directories")
			d.hue = len(districtHues) - 1
		case p.own:
			d.dir = p.node.name
			d.label = dirLabel(p.node.name)
			members = append(members, p.node.files...)
			if len(p.node.children) > 0 && p.node.name != "." {
				d.label += " (files)"
			}
		default:
			d.dir = p.node.name
			d.label = dirLabel(p.node.name)
			members = p.node.collect(nil)
			for _, c := range p.node.children {
				d.subdirs = append(d.subdirs, dirCount{strings.TrimPrefix(c.name, p.node.name+"/"), c.total})
			}
			sort.SliceStable(d.subdirs, func(a, b int) bool { return d.subdirs[a].files > d.subdirs[b].files })
		}
		if p.group == nil {
			top := strings.SplitN(strings.TrimPrefix(d.dir+"/", prefix), "/", 2)[0]
			h, ok := hueOf[top]
			if !ok {
				h = len(hueOf) % (len(districtHues) - 1)
				hueOf[top] = h
			}
			d.hue = h
		}
		di := len(m.districts)
		for _, mi := range members {
			mm := &m.mods[mi]
			mm.district = di
			d.classes += mm.classes
			d.funcs += mm.funcs
			if mm.test {
				d.tests++
			}
			if mm.hub {
				d.hubs++
			}
		}
		sort.SliceStable(members, func(a, b int) bool { return m.moreImportant(members[a], members[b]) })
		d.mods = members
		m.districts = append(m.districts, d)
	}
}

// moreImportant orders modules for listing: hubs, then fan-in, then size,
// non-test before test, then path.
func (m *archModel) moreImportant(a, b int) bool {
	x, y := &m.mods[a], &m.mods[b]
	switch {
	case x.hub != y.hub:
		return x.hub
	case x.test != y.test:
		return !x.test
	case x.fanIn != y.fanIn:
		return x.fanIn > y.fanIn
	case x.classes+x.funcs != y.classes+y.funcs:
		return x.classes+x.funcs > y.classes+y.funcs
	}
	return x.path < y.path
}

func dirLabel(dir string) string {
	if dir == "." || dir == "" {
		return "./"
	}
	return dir + "/"
}

// dirTree builds the directory tree and descends past directories that
// hold no files and a single subdirectory.
func (m *archModel) dirTree() *dirTree {
	root := &dirTree{name: "."}
	nodes := map[string]*dirTree{".": root}
	var get func(dir string) *dirTree
	get = func(dir string) *dirTree {
		if t, ok := nodes[dir]; ok {
			return t
		}
		t := &dirTree{name: dir}
		nodes[dir] = t
		parent := get(path.Dir(dir))
		parent.children = append(parent.children, t)
		return t
	}
	for i, mm := range m.mods {
		t := get(path.Dir(mm.path))
		t.files = append(t.files, i)
	}
	var total func(t *dirTree) int
	total = func(t *dirTree) int {
		sort.Slice(t.children, func(a, b int) bool { return t.children[a].name < t.children[b].name })
		t.total = len(t.files)
		for _, c := range t.children {
			t.total += total(c)
		}
		return t.total
	}
	total(root)
	for len(root.files) == 0 && len(root.children) == 1 {
		root = root.children[0]
	}
	return root
}

func (t *dirTree) collect(out []int) []int {
	out = append(out, t.files...)
	for _, c := range t.children {
		out = c.collect(out)
	}
	return out
}

// linkDistricts aggregates module imports (or, when the graph has none,
// calls) into links between districts. Test modules are left out: what
// tests use says little about the architecture.
func (m *archModel) linkDistricts(g *graph.Graph, modOf []int32) {
	kind := graph.Import
	m.linkKind = "imports"
	if m.imports == 0 {
		kind = graph.Call
		m.linkKind = "calls"
	}
	nd := len(m.districts)
	if nd == 0 {
		return
	}
	// A link counts the modules of one district that depend on the other
	// (a Go import reaches every file of a package: counting edges would
	// count file pairs).
	seen := map[[2]int]bool{}
	counts := map[[2]int]int{}
	for _, e := range g.AllEdges() {
		if e.Type != kind {
			continue
		}
		a, b := modOf[e.From], modOf[e.To]
		if a < 0 || b < 0 || m.mods[a].test {
			continue
		}
		da, db := m.mods[a].district, m.mods[b].district
		if da != db && !seen[[2]int{int(a), db}] {
			seen[[2]int{int(a), db}] = true
			counts[[2]int{da, db}]++
		}
	}
	for k, c := range counts {
		m.links = append(m.links, link{from: k[0], to: k[1], count: c})
	}
	sort.Slice(m.links, func(i, j int) bool {
		a, b := m.links[i], m.links[j]
		if a.count != b.count {
			return a.count > b.count
		}
		if a.from != b.from {
			return a.from < b.from
		}
		return a.to < b.to
	})
}
