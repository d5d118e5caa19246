// Package resolve turns the facts of a workspace into a code graph: module,
// class and function nodes, CONTAINS edges from the syntax, IMPORT edges from
// import specs resolved to files, and CALL edges from call sites bound
// through scopes, imports, self/this, receiver types and constructors. It
// needs no language server. Precision comes first: a call that cannot be
// bound produces no edge, or a weak name-match edge when exactly one
// method in the workspace has the callee's name.
package resolve

import (
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/gobuild"
	"github.com/ccd-dev/ccd/core/graph"
)

// Project carries the workspace facts that live outside source files.
type Project struct {
	GoModules   []GoModule
	TSConfigs   []TSConfig
	JSPackages  []JSPackage
	Crates      []Crate
	IncludeDirs []string // C/C++ include directories, relative to the root
}

// Version numbers what the resolver makes of the same facts: bump it when
// the graph it builds changes (new edges, other test flags), so stored
// graphs and refinements made by an older one are not reused.
// 2: Python unittest.TestCase classes of any name; Go benchmarks are not
// tests. 3: Python value flow, C3 method order, last definition wins;
// Go conversions are not calls, assertions and named results type
// variables, external receiver types never name-match.
const Version = 4

// GoModule is a go.mod: the module path and its directory.
type GoModule struct{ Dir, Path string }

// TSConfig is the module-resolution part of a tsconfig.json/jsconfig.json.
type TSConfig struct {
	Dir     string // directory of the config file
	BaseURL string // relative to Dir, "" when unset
	Paths   map[string][]string
}

// JSPackage is a package.json of a workspace package.
type JSPackage struct{ Dir, Name, Main string }

// Crate is a Cargo.toml: the crate directory and its name (with '-'
// replaced by '_').
type Crate struct{ Dir, Name string }

// Build resolves files into a graph. Files must have distinct paths.
func Build(files []*facts.File, proj *Project) *graph.Graph {
	if proj == nil {
		proj = &Project{}
	}
	r := newResolver(files, proj)
	nodes := r.nodes()
	perFile := make([][]graph.EdgeSpec, len(r.list))
	r.parallel(func(i int) { r.bindImports(r.list[i]) })
	r.indexPassers()
	r.parallel(func(i int) { perFile[i] = r.fileEdges(r.list[i]) })
	// The resolver's tables are not needed to build the graph: let the GC
	// take them before the graph's allocations (this lowers the peak).
	r = nil
	total := 0
	for _, es := range perFile {
		total += len(es)
	}
	edges := make([]graph.EdgeSpec, 0, total)
	for i, es := range perFile {
		edges = append(edges, es...)
		perFile[i] = nil
	}
	return graph.New(nodes, edges)
}

func (r *resolver) parallel(fn func(i int)) {
	each(r.list, fn)
}

// each runs fn for every index of list on all processors.
func each[T any](list []T, fn func(i int)) {
	n := len(list)
	if n < 2 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	var wg sync.WaitGroup
	next := make(chan int, 64)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// defRef names one definition (idx >= 0) or a whole module (idx == -1).
type defRef struct {
	fi  *fileInfo
	idx int
}

func (d defRef) valid() bool { return d.fi != nil }

func (d defRef) def() *facts.Def {
	if d.idx < 0 {
		return nil
	}
	return &d.fi.f.Defs[d.idx]
}

func (d defRef) id() string {
	if d.idx < 0 {
		return d.fi.f.Path
	}
	return d.fi.ids[d.idx]
}

func (d defRef) isClass() bool {
	return d.fi != nil && d.idx >= 0 && d.fi.f.Defs[d.idx].Kind == facts.Class
}
func (d defRef) isFunc() bool {
	return d.fi != nil && d.idx >= 0 && d.fi.f.Defs[d.idx].Kind == facts.Func
}

// fileInfo is a file with its derived tables.
type fileInfo struct {
	f        *facts.File
	dir      string
	ids      []string
	top      map[string][]int // top-level definitions (not owned methods) by name
	children [][]int          // def → child defs
	scopes   map[int][]int    // def (or -1) → bindings declared in it
	// named holds, for the scopes with many bindings (a module's, a long
	// function's), their bindings by name (see bindingsNamed).
	named map[scopeName][]int
	// argFlows lists, by key ("apply()#0", ".m()#=cb"), the bindings of
	// the functions passed as arguments (Python, JavaScript; see flow.go).
	argFlows map[string][]int
	// bound holds the names the file binds (Python, JavaScript): value
	// flow looks further only for those.
	bound map[string]bool
	// elemProps: some binding holds a property of a container's elements
	// (plugins[].transform; JavaScript)
	elemProps bool
	owners    map[string]bool // the owners named by methods defined outside them (Foo.prototype.m, app.m)
	// globalElems lists, by name ("HOOKS[]"), the bindings (Python, JavaScript) of a
	// container's elements made inside a function for a name the
	// function does not bind itself: the module's container, filled
	// where it registers (`def register(fn): HOOKS.append(fn)`).
	globalElems map[string][]int
	lang        *langSpec
	// otherBuild marks a Go file the default build leaves out (another
	// GOOS or GOARCH, a tag): a name defined in the package's other files
	// too binds to theirs (see better).
	otherBuild bool

	// mention: the names resolving this file may look up (see mentions).
	mention []uint64
	// surf caches the file's surface entries (see surfaceOf).
	surf []surfEntry

	// Filled by bindImports.
	binds map[string]*binding
	// scoped holds Python imports made inside a function (`def f(): from
	// jsonfmt import render`), visible only there: function -> name.
	scoped  map[int]map[string]*binding
	stars   []*binding
	imports []*binding // in import order, for IMPORT edges
}

// binding is what an import binds a local name to: a module (name == "")
// or a symbol in a module. files is empty for modules outside the workspace.
type binding struct {
	files []*fileInfo
	name  string // symbol inside files; "" for the module itself
	spec  string
	line  int
	kind  string // import kind (default, require, ...)

	// used records the files reached through this binding. Only the
	// goroutine resolving the binding's own file writes it.
	used map[*fileInfo]bool
}

func (b *binding) markUsed(fi *fileInfo) {
	if b == nil || len(b.files) < 2 {
		return
	}
	if b.used == nil {
		b.used = map[*fileInfo]bool{}
	}
	b.used[fi] = true
}

type resolver struct {
	proj  *Project
	list  []*fileInfo
	files map[string]*fileInfo
	byDir map[string][]*fileInfo
	// byBase indexes files by base name, for suffix lookups.
	byBase map[string][]*fileInfo
	// goMods are the Go modules, longest module path first.
	goMods []GoModule

	classes map[string][]defRef // class definitions by simple name
	quals   map[string][]defRef // class definitions by language family and qualified name
	funcs   map[string][]defRef // top-level functions by name
	methods map[string][]defRef // functions inside classes or with an owner, by name
	owned   map[string][]defRef // functions with an Owner, by owner's simple name
	pkgs    map[string][]*fileInfo
	// pkgTop merges the top-level definitions of a package's files (Go,
	// Java), so a package-wide lookup is one map access; pkgTopLib leaves
	// out Go test files, which importers cannot see.
	pkgTop    map[string]map[string]defRef
	pkgTopLib map[string]map[string]defRef
	// pkgValues maps a package's top-level variables and constants to the
	// (non-test) file declaring them.
	pkgValues map[string]map[string]*fileInfo

	// passers maps a function name to the Python files passing values
	// to a function of that name they import (argument bindings
	// "name()#0" without a definition of the name in the file): the
	// parameters of a function of another file hold what they pass
	// (see indexPassers, paramValues).
	passers map[string][]*fileInfo

	pyMods  map[string][]*fileInfo // dotted module name → files
	pyTail  map[string][]string    // last segment → dotted names
	rustMod map[string]*fileInfo   // crateDir|a::b → file
}

func newResolver(files []*facts.File, proj *Project) *resolver {
	r := &resolver{proj: proj}
	r.resetDefTables()
	sorted := append([]*facts.File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	r.list = make([]*fileInfo, len(sorted))
	r.parallel(func(i int) { r.list[i] = newFileInfo(sorted[i]) }) // each file's own tables
	for _, fi := range r.list {
		r.addDefs(fi)
	}
	r.goMods = append([]GoModule(nil), proj.GoModules...)
	sort.SliceStable(r.goMods, func(i, j int) bool { return len(r.goMods[i].Path) > len(r.goMods[j].Path) })
	r.indexFiles()
	return r
}

func (r *resolver) resetDefTables() {
	r.classes, r.quals, r.funcs = map[string][]defRef{}, map[string][]defRef{}, map[string][]defRef{}
	r.methods, r.owned = map[string][]defRef{}, map[string][]defRef{}
}

// newFileInfo derives a file's own tables from its facts.
func newFileInfo(f *facts.File) *fileInfo {
	fi := &fileInfo{}
	fi.reset(f)
	return fi
}

// reset makes fi describe f (the same path, possibly new facts) before its
// imports are bound.
func (fi *fileInfo) reset(f *facts.File) {
	*fi = fileInfo{f: f, dir: path.Dir(f.Path), top: map[string][]int{}, scopes: map[int][]int{},
		lang: specFor(f.Lang), binds: map[string]*binding{}, otherBuild: f.Build != "" && !gobuild.Default(f.Build)}
	fi.ids = make([]string, len(f.Defs))
	fi.children = make([][]int, len(f.Defs))
	for i := range f.Defs {
		d := &f.Defs[i]
		fi.ids[i] = f.Path + "::" + d.Qual
		if d.Parent >= 0 {
			fi.children[d.Parent] = append(fi.children[d.Parent], i)
		} else if d.Owner == "" {
			fi.top[d.Name] = append(fi.top[d.Name], i)
		}
		if d.Owner != "" && d.Kind == facts.Func {
			if fi.owners == nil {
				fi.owners = map[string]bool{}
			}
			fi.owners[d.Owner] = true
		}
	}
	flow := f.Lang == "python" || family(f.Lang) == "js"
	if flow {
		fi.bound = make(map[string]bool, len(f.Bindings))
	}
	for i, b := range f.Bindings {
		fi.scopes[b.Scope] = append(fi.scopes[b.Scope], i)
		if flow {
			fi.bound[b.Name] = true
			fi.elemProps = fi.elemProps || strings.Contains(b.Name, "[].")
		}
		if strings.Contains(b.Name, "()#") {
			if fi.argFlows == nil {
				fi.argFlows = map[string][]int{}
			}
			fi.argFlows[b.Name] = append(fi.argFlows[b.Name], i)
		}
	}
	for sc, list := range fi.scopes {
		if len(list) <= manyBindings {
			continue
		}
		if fi.named == nil {
			fi.named = map[scopeName][]int{}
		}
		for _, i := range list {
			k := scopeName{sc, f.Bindings[i].Name}
			fi.named[k] = append(fi.named[k], i)
		}
	}
	if f.Lang == "python" || family(f.Lang) == "js" {
		indexGlobalElems(fi)
	}
}

// scopeName is a name in one scope of a file (-1: the module).
type scopeName struct {
	scope int
	name  string
}

// manyBindings is how many bindings a scope has before they are indexed
// by name: lookups scanned a module's thousands for every name read.
const manyBindings = 24

// bindingsNamed returns the bindings of scope s that may be named name,
// in order: exactly those for a scope with many bindings, all of the
// scope's otherwise (the caller compares names).
func (fi *fileInfo) bindingsNamed(s int, name string) []int {
	if list := fi.scopes[s]; len(list) <= manyBindings {
		return list
	}
	return fi.named[scopeName{s, name}]
}

// indexGlobalElems fills fi.globalElems (see fileInfo).
func indexGlobalElems(fi *fileInfo) {
	f := fi.f
	for i := range f.Bindings {
		b := &f.Bindings[i]
		head, _, ok := strings.Cut(b.Name, "[")
		if !ok || head == "" || b.Scope < 0 || strings.ContainsAny(head, ".()") || f.Defs[b.Scope].Kind != facts.Func {
			continue
		}
		if _, param := paramPos(f.Defs[b.Scope].Signature, head); param {
			continue
		}
		local := false
		for _, bj := range fi.scopes[b.Scope] {
			if f.Bindings[bj].Name == head {
				local = true
				break
			}
		}
		if local {
			continue
		}
		if fi.globalElems == nil {
			fi.globalElems = map[string][]int{}
		}
		fi.globalElems[b.Name] = append(fi.globalElems[b.Name], i)
	}
}

// defTable says which name table a definition is listed in, and under
// which key ("" for none).
func defTable(f *facts.File, i int) (table int, key string) {
	d := &f.Defs[i]
	switch {
	case d.Anonymous():
		return tableNone, "" // found only from its own file's scopes
	case d.Kind == facts.Class:
		return tableClass, d.Name
	case d.Owner != "":
		return tableOwned, d.Name
	case d.Parent >= 0 && f.Defs[d.Parent].Kind == facts.Class:
		return tableMethod, d.Name
	case d.Parent < 0:
		return tableFunc, d.Name
	}
	return tableNone, ""
}

const (
	tableNone = iota
	tableClass
	tableOwned
	tableMethod
	tableFunc
)

// addDefs appends fi's definitions to the name tables (files are added in
// path order).
func (r *resolver) addDefs(fi *fileInfo) {
	f := fi.f
	for i := range f.Defs {
		d := &f.Defs[i]
		ref := defRef{fi, i}
		switch t, _ := defTable(f, i); t {
		case tableClass:
			r.classes[d.Name] = append(r.classes[d.Name], ref)
			k := qualKey(f.Lang, d.Qual)
			r.quals[k] = append(r.quals[k], ref)
		case tableOwned:
			r.owned[d.Owner] = append(r.owned[d.Owner], ref)
			r.methods[d.Name] = append(r.methods[d.Name], ref)
		case tableMethod:
			r.methods[d.Name] = append(r.methods[d.Name], ref)
		case tableFunc:
			r.funcs[d.Name] = append(r.funcs[d.Name], ref)
		}
	}
}

// indexFiles builds the tables keyed by path, directory and package from
// r.list, which is sorted by path.
func (r *resolver) indexFiles() {
	n := len(r.list)
	r.files = make(map[string]*fileInfo, n)
	r.byDir, r.byBase = map[string][]*fileInfo{}, make(map[string][]*fileInfo, n)
	r.pkgs = map[string][]*fileInfo{}
	r.pkgTop, r.pkgTopLib = map[string]map[string]defRef{}, map[string]map[string]defRef{}
	r.pkgValues = map[string]map[string]*fileInfo{}
	r.pyMods, r.pyTail, r.rustMod = map[string][]*fileInfo{}, map[string][]string{}, map[string]*fileInfo{}
	for _, fi := range r.list {
		r.files[fi.f.Path] = fi
		r.byDir[fi.dir] = append(r.byDir[fi.dir], fi)
		r.byBase[path.Base(fi.f.Path)] = append(r.byBase[path.Base(fi.f.Path)], fi)
		if key := fi.pkgKey(); key != "" {
			r.pkgs[key] = append(r.pkgs[key], fi)
		}
	}
	for key := range r.pkgs {
		r.indexPackage(key)
	}
	r.indexPython()
	r.indexRust()
}

// indexPackage merges the top-level definitions and values of a package's
// files (or drops the package's tables when it has no files left).
func (r *resolver) indexPackage(key string) {
	fis := r.pkgs[key]
	if len(fis) == 0 {
		delete(r.pkgTop, key)
		delete(r.pkgTopLib, key)
		delete(r.pkgValues, key)
		return
	}
	all, lib, vals := map[string]defRef{}, map[string]defRef{}, map[string]*fileInfo{}
	for _, fi := range fis {
		test := strings.HasSuffix(fi.f.Path, "_test.go")
		if !test {
			for _, v := range fi.f.Values {
				if _, ok := vals[v]; !ok {
					vals[v] = fi
				}
			}
		}
		for name := range fi.top {
			k, _ := fi.topDef(name)
			if cur, ok := all[name]; !ok || better(fi, cur.fi) {
				all[name] = defRef{fi, k}
			}
			if cur, ok := lib[name]; !test && (!ok || better(fi, cur.fi)) {
				lib[name] = defRef{fi, k}
			}
		}
	}
	r.pkgTop[key], r.pkgTopLib[key], r.pkgValues[key] = all, lib, vals
}

// better reports whether a definition in file a wins over one of the same
// name in file b of the same package: the default build's over another
// build's (a function defined in fd_unix.go and fd_windows.go is the
// unix one here), else the first by path.
func better(a, b *fileInfo) bool {
	if a.otherBuild != b.otherBuild {
		return !a.otherBuild
	}
	return a.f.Path < b.f.Path
}

// pkgKey groups files that share a package scope: Go files of one directory
// and package clause, Java files of one package.
func (fi *fileInfo) pkgKey() string {
	switch fi.f.Lang {
	case "go":
		return "go:" + fi.dir + ":" + fi.f.Package
	case "java":
		if fi.f.Package != "" {
			return "java:" + fi.f.Package
		}
		return "java:dir:" + fi.dir
	}
	return ""
}

// nodes builds the node list: one module per file, one node per definition.
func (r *resolver) nodes() []*graph.Node {
	var out []*graph.Node
	for _, fi := range r.list {
		out = r.fileNodes(fi, out)
	}
	return out
}

// fileNodes appends the nodes of one file: its module and definitions.
func (r *resolver) fileNodes(fi *fileInfo, out []*graph.Node) []*graph.Node {
	f := fi.f
	out = append(out, &graph.Node{ID: f.Path, Kind: graph.Module, Name: path.Base(f.Path), Path: f.Path,
		Lang: f.Lang, Test: graph.IsTestFile(f.Path), Build: f.Build})
	for i := range f.Defs {
		d := &f.Defs[i]
		n := &graph.Node{ID: fi.ids[i], Kind: graph.Func, Name: d.Name, Qual: d.Qual, Path: f.Path, Lang: f.Lang,
			StartLine: d.StartLine, EndLine: d.EndLine, Signature: d.Signature, Build: f.Build}
		if d.Kind == facts.Class {
			n.Kind = graph.Class
		}
		class := ""
		var bases []string
		if d.Parent >= 0 && f.Defs[d.Parent].Kind == facts.Class {
			class, bases = f.Defs[d.Parent].Name, f.Defs[d.Parent].Bases
		}
		if d.Owner != "" {
			class = d.Owner
			if o, ok := r.ownerClass(fi, d.Owner); ok {
				n.Owner = o.id()
			}
		}
		if n.Kind == graph.Func {
			n.Test = graph.IsTestFunc(f.Lang, f.Path, d.Name, class, bases, d.Decorators)
		}
		out = append(out, n)
	}
	return out
}

// ownerClass finds the class definition an owner name refers to, nearest
// first: the same file, the same package directory, then (for languages
// without packages) a unique class of that name.
func (r *resolver) ownerClass(fi *fileInfo, owner string) (defRef, bool) {
	name := owner
	if i := strings.LastIndexByte(owner, '.'); i >= 0 {
		name = owner[i+1:]
	}
	cands := r.classes[name]
	var sameDir []defRef
	for _, c := range cands {
		if c.fi == fi {
			return c, true
		}
		if c.fi.dir == fi.dir && c.fi.f.Lang == fi.f.Lang {
			sameDir = append(sameDir, c)
		}
	}
	if len(sameDir) == 1 {
		return sameDir[0], true
	}
	if fi.f.Lang == "go" {
		return defRef{}, false
	}
	var sameLang []defRef
	for _, c := range cands {
		if sameLangFamily(c.fi.f.Lang, fi.f.Lang) {
			sameLang = append(sameLang, c)
		}
	}
	if len(sameLang) == 1 {
		return sameLang[0], true
	}
	return defRef{}, false
}

func qualKey(lang, qual string) string { return family(lang) + ":" + qual }

// sameScope returns the other declarations of a reopenable class (Ruby
// classes and modules, C++ namespaces): every class with its qualified name
// in its language family.
func (r *resolver) sameScope(d defRef) []defRef {
	if !d.isClass() || !d.fi.lang.reopen {
		return []defRef{d}
	}
	return r.quals[qualKey(d.fi.f.Lang, d.def().Qual)]
}

func sameLangFamily(a, b string) bool {
	return family(a) == family(b)
}

func family(l string) string {
	switch l {
	case "c", "cpp":
		return "c"
	case "javascript", "typescript", "tsx":
		return "js"
	}
	return l
}

// fileEdges returns the CONTAINS, IMPORT and CALL edges leaving one file.
func (r *resolver) fileEdges(fi *fileInfo) []graph.EdgeSpec {
	f := fi.f
	// About one edge per definition, call and import: grown once at
	// most, not doubled from nothing.
	out := make([]graph.EdgeSpec, 0, len(f.Defs)+len(f.Calls)+len(f.Imports))
	for i := range f.Defs {
		from := f.Path
		if p := f.Defs[i].Parent; p >= 0 {
			from = fi.ids[p]
		}
		out = append(out, graph.EdgeSpec{From: from, To: fi.ids[i], Type: graph.Contains})
	}
	c := &callCtx{r: r, fi: fi, origin: fi, mros: map[defRef]mroResult{}, results: map[defRef]typ{}}
	flows := fi.f.Lang == "python" || family(fi.f.Lang) == "js"
	var bound []graph.Confidence // how sure resolveCall was of each call, for flowTargets
	if flows {
		bound = make([]graph.Confidence, len(f.Calls))
	}
	for i := range f.Calls {
		call := &f.Calls[i]
		if strings.HasPrefix(call.Recv, facts.CallbackRecv) {
			if to, conf, ref := c.resolveCallback(call); to.valid() {
				typ := graph.Call
				if ref {
					typ = graph.Ref
				}
				out = append(out, graph.EdgeSpec{From: fi.idOf(call.Caller), To: to.id(), Type: typ, Confidence: conf, Line: call.Line})
			}
			continue
		}
		to, conf := c.resolveCall(call)
		if flows && to.valid() {
			bound[i] = conf
		}
		if !to.valid() {
			if t, ok := c.conversion(call); ok {
				// Go T(x) runs no code of T but makes a T: an
				// instantiation, as T{} is (see resolveInst).
				from := f.Path
				if call.Caller >= 0 {
					from = fi.ids[call.Caller]
				}
				out = append(out, graph.EdgeSpec{From: from, To: t.id(), Type: graph.Ref, Confidence: graph.Resolved, Line: call.Line})
			}
			continue
		}
		from := f.Path
		if call.Caller >= 0 {
			from = fi.ids[call.Caller]
		}
		typ := graph.Call
		if call.Ref {
			typ = graph.Ref
		}
		out = append(out, graph.EdgeSpec{From: from, To: to.id(), Type: typ, Confidence: conf, Line: call.Line})
		for _, o := range c.overrides(call, to) {
			out = append(out, graph.EdgeSpec{From: from, To: o.id(), Type: graph.Call, Confidence: graph.Inferred, Line: call.Line})
		}
		if w, wraps, ok := c.decorated(to); ok && wraps && !call.Ref {
			// functools.wraps: the call runs the wrapper too.
			out = append(out, graph.EdgeSpec{From: from, To: w.id(), Type: graph.Call, Confidence: graph.Inferred, Line: call.Line})
		}
	}
	// Value flow: the further functions a call may run (both arms of a
	// conditional, a table's entries, what call sites pass a parameter).
	if flows {
		for i := range f.Calls {
			call := &f.Calls[i]
			from := f.Path
			if call.Caller >= 0 {
				from = fi.ids[call.Caller]
			}
			for _, to := range c.flowTargets(call, bound[i]) {
				out = append(out, graph.EdgeSpec{From: from, To: to.id(), Type: graph.Call, Confidence: graph.Inferred, Line: call.Line})
			}
		}
	}
	out = append(out, c.callbackEdges()...)
	if fi.f.Lang == "python" {
		out = append(out, c.decoratorEdges()...)
	}
	// Qualified references (pkg.T in a type, pkg.Var) mark the files of an
	// imported package that this file uses.
	for _, ref := range f.Refs {
		if b := fi.binds[ref.Recv]; b != nil && b.name == "" && len(b.files) > 1 {
			if d, _ := c.inModule(b.files, ref.Name, 0); d.valid() {
				b.markUsed(d.fi)
			} else if v := r.pkgValues[b.files[0].pkgKey()][ref.Name]; v != nil {
				b.markUsed(v)
			}
		}
	}
	// Import edges last: bindings that could reach several files (a Go
	// package, a Java wildcard) point at the files actually used.
	for _, b := range fi.imports {
		targets := b.files
		if len(targets) > 1 && len(b.used) > 0 {
			targets = nil
			for _, t := range b.files {
				if b.used[t] {
					targets = append(targets, t)
				}
			}
		}
		for _, t := range targets {
			if t == fi {
				continue
			}
			out = append(out, graph.EdgeSpec{From: f.Path, To: t.f.Path, Type: graph.Import,
				Confidence: graph.Resolved, Line: b.line, Spec: b.spec})
		}
	}
	return out
}

// idOf is the id of definition i of the file, or the file's for -1.
func (fi *fileInfo) idOf(i int) string {
	if i < 0 {
		return fi.f.Path
	}
	return fi.ids[i]
}
