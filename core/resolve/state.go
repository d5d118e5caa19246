package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// State is a resolver kept alive between updates: the tables built from
// every file's facts and each file's bound imports, so that an update
// resolves again only the files whose outcome can change and splices their
// nodes and edges into the previous graph. A State is not safe for
// concurrent use, and Update changes it: after an update, only the graph
// it returned matches the State.
type State struct {
	r *resolver
	// pending is closed when the names each file mentions, computed in
	// the background after a build (updates need them only when a surface
	// changes), are in mentioned.
	pending   chan struct{}
	mentioned map[*facts.File][]uint64
}

// Stats says what an Update did.
type Stats struct {
	// Mode is "files" when only the changed files were resolved again
	// (their surface, what other files can see of them, was unchanged),
	// "dependents" when files depending on changed names were too, and
	// "full" when everything was.
	Mode     string
	Resolved int // files resolved again
	Names    int // names whose meaning changed
	// Spliced are the files whose nodes and edges the update replaced in
	// the graph it was given (files and dependents modes): the graphs
	// differ nowhere else.
	Spliced []string
}

// fullFraction is the share of all call sites in the files to resolve
// again above which an update resolves every file instead (measured on
// GOROOT/src: resolving the dependents of a new function named like a
// function of fmt, 13% of the files holding about half the call sites,
// took as long as resolving everything); below fullMinCalls call sites
// in all, an update never does (everything is cheap then).
var (
	fullFraction = 0.5
	fullMinCalls = 5000
)

// Resolve builds the graph like Build and keeps the resolver for updates.
func Resolve(files []*facts.File, proj *Project) (*State, *graph.Graph) {
	if proj == nil {
		proj = &Project{}
	}
	r := newResolver(files, proj)
	g := r.resolveAll()
	s := &State{r: r}
	s.mentionLater()
	return s, g
}

// mentionLater computes every file's mentions in the background.
func (s *State) mentionLater() {
	files := make([]*facts.File, len(s.r.list))
	for i, fi := range s.r.list {
		files[i] = fi.f
	}
	s.pending = make(chan struct{})
	go func() {
		hs := make([][]uint64, len(files))
		each(files, func(i int) { hs[i] = mentions(files[i]) })
		m := make(map[*facts.File][]uint64, len(files))
		for i, f := range files {
			m[f] = hs[i]
		}
		s.mentioned = m
		close(s.pending)
	}()
}

// ready waits for the background mentions and hands them to the files.
func (s *State) ready() {
	if s.pending == nil {
		return
	}
	<-s.pending
	for _, fi := range s.r.list {
		if fi.mention == nil {
			if fi.mention = s.mentioned[fi.f]; fi.mention == nil {
				fi.mention = mentions(fi.f)
			}
		}
	}
	s.pending, s.mentioned = nil, nil
}

// NewState builds the resolver of files without resolving them: for a
// graph restored from disk that was resolved from the same inputs.
func NewState(files []*facts.File, proj *Project) *State {
	if proj == nil {
		proj = &Project{}
	}
	r := newResolver(files, proj)
	r.parallel(func(i int) { r.rebind(r.list[i]) })
	s := &State{r: r}
	s.mentionLater()
	return s
}

// Project returns the project facts the state was built with.
func (s *State) Project() *Project { return s.r.proj }

// resolveAll binds and resolves every file.
func (r *resolver) resolveAll() *graph.Graph {
	nodes := r.nodes()
	perFile := make([][]graph.EdgeSpec, len(r.list))
	r.parallel(func(i int) { r.rebind(r.list[i]) })
	r.indexPassers()
	r.parallel(func(i int) { perFile[i] = r.fileEdges(r.list[i]) })
	return graph.NewChunks(nodes, perFile)
}

// Update returns the graph of the files after changed (new or edited
// files' facts) replace theirs and removed (paths) are gone, given g, the
// graph of the files before. It is the graph Build would return for the
// new set of files. Files with unchanged facts may be listed in changed.
func (s *State) Update(g *graph.Graph, changed []*facts.File, removed []string) (*graph.Graph, Stats) {
	r := s.r
	// The files' mentions are waited for only when dependents must be
	// found: a body edit right after a build does not wait for them.
	u := &update{r: r, D: map[*fileInfo]bool{}, local: map[*fileInfo][]string{}, ready: s.ready}
	u.classify(changed, removed)
	if !u.structural && len(u.mods) == 0 {
		return g, Stats{Mode: "files"}
	}
	var before map[*fileInfo]map[string]string
	if u.structural {
		before = make(map[*fileInfo]map[string]string, len(r.list))
		for _, fi := range r.list {
			before[fi] = bindSigs(fi)
		}
	}
	u.apply()
	if u.structural {
		r.parallel(func(i int) { r.rebind(r.list[i]) })
		u.compareBinds(before)
	}
	if u.wide {
		return u.full(), Stats{Mode: "full", Resolved: len(r.list), Names: len(u.names)}
	}
	u.close()
	if u.tooMany() {
		return u.full(), Stats{Mode: "full", Resolved: len(r.list), Names: len(u.names)}
	}
	st := Stats{Mode: "files", Resolved: len(u.D), Names: len(u.names)}
	if len(u.names) > 0 || u.structural || len(u.D) > len(u.mods) {
		st.Mode = "dependents"
	}
	g, st.Spliced = u.splice(g)
	return g, st
}

// update is one State.Update in progress.
type update struct {
	r          *resolver
	mods       []mod       // edited files
	added      []*fileInfo // new files
	gone       []*fileInfo // removed files
	structural bool        // files added or removed, or a package clause changed
	wide       bool        // wildcard imports changed: everything is resolved again

	names map[string]bool        // global names whose meaning changed
	fresh []string               // names not yet looked for
	local map[*fileInfo][]string // changed local declarations (localKey), per file
	D     map[*fileInfo]bool     // files to resolve again
	// depCalls and allCalls count the call sites of D and of all files.
	depCalls, allCalls int
	// ready makes every file's mentions available (State.ready).
	ready func()
}

type mod struct {
	fi       *fileInfo
	old, cur *facts.File
	surf     []surfEntry // of cur
}

func (u *update) addNames(ns ...string) {
	if u.names == nil {
		u.names = map[string]bool{}
	}
	for _, n := range ns {
		if !u.names[n] {
			u.names[n] = true
			u.fresh = append(u.fresh, n)
		}
	}
}

// classify compares each changed file's surface with its previous one.
func (u *update) classify(changed []*facts.File, removed []string) {
	r := u.r
	seen := map[string]bool{}
	for _, f := range changed {
		if seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		fi := r.files[f.Path]
		if fi == nil {
			u.structural = true
			u.addNames(globalKeys(f)...)
			u.addNames(u.structuralNames(f)...)
			u.added = append(u.added, &fileInfo{f: f})
			continue
		}
		if fi.f == f {
			continue
		}
		if fi.f.Package != f.Package || fi.f.Lang != f.Lang {
			u.structural = true
			u.addNames(globalKeys(fi.f)...)
			u.addNames(globalKeys(f)...)
			u.addNames(u.structuralNames(fi.f)...)
			u.addNames(u.structuralNames(f)...)
		}
		cur := surfaceOf(f)
		global, local, wide := surfaceDiff(fi.surface(), cur)
		u.wide = u.wide || wide
		u.addNames(global...)
		u.local[fi] = local
		u.mods = append(u.mods, mod{fi: fi, old: fi.f, cur: f, surf: cur})
	}
	for _, p := range removed {
		if seen[p] {
			continue
		}
		seen[p] = true
		if fi := r.files[p]; fi != nil {
			u.structural = true
			u.addNames(globalKeys(fi.f)...)
			u.addNames(u.structuralNames(fi.f)...)
			u.gone = append(u.gone, fi)
		}
	}
}

// structuralNames adds the crate's name to a Rust file's structural names
// (`use mycrate::a::f` starts at the crate root).
func (u *update) structuralNames(f *facts.File) []string {
	out := structuralNames(f)
	if f.Lang == "rust" {
		if c := u.r.crateOf(&fileInfo{f: f, dir: path.Dir(f.Path)}); c.Name != "" {
			out = append(out, c.Name)
		}
	}
	return out
}

func globalKeys(f *facts.File) []string {
	var out []string
	for _, e := range surfaceOf(f) {
		out = append(out, e.global...)
	}
	return out
}

// apply brings the resolver's tables up to date with the changes.
func (u *update) apply() {
	r := u.r
	for _, m := range u.mods {
		r.dropDefs(m.fi, m.old)
		m.fi.reset(m.cur)
		m.fi.surf = m.surf
		r.insertDefs(m.fi)
		m.fi.mention = mentions(m.cur)
		u.D[m.fi] = true
	}
	for _, fi := range u.gone {
		r.dropDefs(fi, fi.f)
		if i, ok := r.listIndex(fi.f.Path); ok {
			r.list = slices.Delete(r.list, i, i+1)
		}
	}
	for k, fi := range u.added {
		fi = newFileInfo(fi.f)
		u.added[k] = fi
		i, _ := r.listIndex(fi.f.Path)
		r.list = slices.Insert(r.list, i, fi)
		r.insertDefs(fi)
		fi.mention = mentions(fi.f)
		u.D[fi] = true
	}
	if u.structural {
		r.indexFiles()
		return
	}
	for _, m := range u.mods {
		if key := m.fi.pkgKey(); key != "" {
			r.updatePackage(key, m.fi, m.old)
		}
	}
}

// bindSigs describes a file's bound imports: per local name what it binds,
// plus the import list and the wildcard imports.
func bindSigs(fi *fileInfo) map[string]string {
	paths := func(fs []*fileInfo) string {
		var b strings.Builder
		for _, f := range fs {
			b.WriteString(f.f.Path)
			b.WriteByte(0)
		}
		return b.String()
	}
	m := make(map[string]string, len(fi.binds)+2)
	var imports, stars strings.Builder
	for _, b := range fi.imports {
		imports.WriteString(paths(b.files) + "|" + b.name + "|" + b.kind + "|" + b.spec + "\n")
	}
	for _, b := range fi.stars {
		stars.WriteString(paths(b.files) + "\n")
	}
	m["\x00imports"], m["\x00stars"] = imports.String(), stars.String()
	for k, b := range fi.binds {
		named := "m"
		if b.name != "" || fi.f.Lang == "rust" {
			named = "n" // may be imported from here by other modules
		}
		m[k] = named + paths(b.files) + "|" + b.name + "|" + b.kind
	}
	return m
}

// compareBinds finds the files whose imports bind differently since the
// files changed, and the names they bind differently.
func (u *update) compareBinds(before map[*fileInfo]map[string]string) {
	for _, fi := range u.r.list {
		old := before[fi]
		if old == nil {
			continue // added: resolved anyway
		}
		cur := bindSigs(fi)
		diff := false
		for k, v := range cur {
			if old[k] == v {
				continue
			}
			diff = true
			switch {
			case k == "\x00stars":
				u.wide = true
			case k == "\x00imports":
			case strings.HasPrefix(v, "n") || strings.HasPrefix(old[k], "n"):
				u.addNames(tokens(fi.lang, nil, k)...)
			default:
				u.moduleLocal(fi, k)
			}
		}
		for k, v := range old {
			if _, ok := cur[k]; !ok {
				diff = true
				if strings.HasPrefix(v, "n") {
					u.addNames(tokens(fi.lang, nil, k)...)
				} else {
					u.moduleLocal(fi, k)
				}
			}
		}
		if diff {
			u.D[fi] = true
		}
	}
}

// moduleLocal records that fi's module-level name k changed.
func (u *update) moduleLocal(fi *fileInfo, k string) {
	for _, n := range tokens(fi.lang, nil, k) {
		u.local[fi] = append(u.local[fi], localKey(n, ""))
	}
}

// close grows the names whose meaning changed and the files to resolve
// again to a fixed point: a file that mentions a changed name is resolved
// again, and its entries that refer to a changed name change the meaning
// of their own keys.
func (u *update) close() {
	r := u.r
	scanned := map[*fileInfo]int{} // names known when the file's entries were last checked
	for fi := range u.D {
		u.depCalls += len(fi.f.Calls) + 1
	}
	for _, fi := range r.list {
		u.allCalls += len(fi.f.Calls) + 1
	}
	for {
		if u.tooMany() {
			return // resolving everything: no need to know exactly what
		}
		if len(u.fresh) > 0 {
			u.ready()
			hs := make([]uint64, len(u.fresh))
			for i, n := range u.fresh {
				hs[i] = hashName(n)
			}
			u.fresh = nil
			for _, fi := range r.list {
				if !u.D[fi] && mentionsAny(fi.mention, hs) {
					u.D[fi] = true
					u.depCalls += len(fi.f.Calls) + 1
				}
			}
		}
		grew := false
		for fi := range u.D {
			if scanned[fi] == len(u.names)+1 && len(u.local[fi]) == 0 {
				continue
			}
			scanned[fi] = len(u.names) + 1
			if u.propagate(fi) {
				grew = true
			}
		}
		if !grew && len(u.fresh) == 0 {
			return
		}
	}
}

// propagate marks the keys of fi's entries that refer to a changed name
// (global, or local to fi) as changed; it reports whether names were added.
func (u *update) propagate(fi *fileInfo) bool {
	es := fi.surface()
	local := map[string]bool{}
	for _, n := range u.local[fi] {
		local[n] = true
	}
	u.local[fi] = nil
	n0 := len(u.names)
	done := make([]bool, len(es))
	for changed := true; changed; {
		changed = false
		for i := range es {
			e := &es[i]
			if done[i] || !slices.ContainsFunc(e.refers, func(n string) bool {
				return u.names[n] || (len(local) > 0 && seesLocal(fi.f, e.scope, n, local))
			}) {
				continue
			}
			done[i] = true
			u.addNames(e.global...)
			for _, n := range e.local {
				if !local[n] {
					local[n] = true
					changed = true
				}
			}
		}
	}
	return len(u.names) > n0
}

// tooMany reports whether the files to resolve again hold so many call
// sites that resolving everything costs about the same.
func (u *update) tooMany() bool {
	return u.allCalls >= fullMinCalls && float64(u.depCalls) > fullFraction*float64(u.allCalls)
}

// full binds and resolves every file.
func (u *update) full() *graph.Graph {
	return u.r.resolveAll()
}

// splice resolves the files in D again and splices their nodes and edges
// into g; it returns the new graph and the files spliced.
func (u *update) splice(g *graph.Graph) (*graph.Graph, []string) {
	r := u.r
	var list []*fileInfo
	for _, fi := range r.list {
		if u.D[fi] {
			list = append(list, fi)
		}
	}
	if !u.structural {
		each(list, func(i int) { r.rebind(list[i]) })
	}
	r.indexPassers()
	nodes := make([][]*graph.Node, len(list))
	edges := make([][]graph.EdgeSpec, len(list))
	each(list, func(i int) {
		nodes[i] = r.fileNodes(list[i], nil)
		edges[i] = r.fileEdges(list[i])
	})
	files := make([]string, 0, len(list)+len(u.gone))
	var ns []*graph.Node
	var es []graph.EdgeSpec
	for i, fi := range list {
		files = append(files, fi.f.Path)
		ns = append(ns, nodes[i]...)
		es = append(es, edges[i]...)
	}
	for _, fi := range u.gone {
		files = append(files, fi.f.Path)
	}
	return g.Splice(files, ns, es), files
}
