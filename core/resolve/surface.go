package resolve

import (
	"hash/maphash"
	"path"
	"slices"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// A file's surface is what the resolution of other files can read of it.
// Lookups across files are by name: a call, a receiver, a type or an
// import names something, and tables, modules, classes and scopes are
// searched for that name. So the surface is a list of entries, each found
// under some names (keys) and meaning what it does through other names it
// refers to (a base class, a result type, a field's type, a re-exported
// symbol).
//
// Keys are global or local. Global keys can be looked up from any file
// (definitions, class fields, re-exported imports, package values, the
// default export). Local keys are visible only inside the file's own
// scopes (module-level and function-level bindings, nested functions,
// whole-module imports), which other files reach only through the file's
// global entries: a changed local entry matters to others only when a
// global entry of the same file refers to its name from a scope that sees
// it. So a local key is a name with the scope it is declared in
// (localKey), and an entry records the scope its names are looked up from.
type surfEntry struct {
	group  string // entries of a group are compared in order
	sig    string // the content other files can observe
	global []string
	local  []string // localKey(name, scope)
	refers []string
	scope  int // the definition whose scope refers is looked up in (-1: the module)
}

// localKey names a local declaration: its name and the qualified name of
// the definition whose scope holds it ("" for the module).
func localKey(name, scopeQual string) string { return name + "\x00" + scopeQual }

// qualOf returns the qualified name of definition i of f ("" for -1 or an
// index out of range).
func qualOf(f *facts.File, i int) string {
	if i < 0 || i >= len(f.Defs) {
		return ""
	}
	return f.Defs[i].Qual
}

// seesLocal reports whether a lookup of name from scope (a definition of f,
// or -1) can find the local declaration key: it is declared in scope or
// one of the scopes around it.
func seesLocal(f *facts.File, scope int, name string, local map[string]bool) bool {
	for s, n := scope, 0; n <= len(f.Defs); n++ {
		if local[localKey(name, qualOf(f, s))] {
			return true
		}
		if s < 0 || s >= len(f.Defs) {
			return false
		}
		s = f.Defs[s].Parent
	}
	return false
}

// surface returns fi's surface entries, computing them on first use.
func (fi *fileInfo) surface() []surfEntry {
	if fi.surf == nil {
		fi.surf = surfaceOf(fi.f)
	}
	return fi.surf
}

// surfaceOf lists a file's surface entries. Wildcard imports are one group
// ("*"): when they change, any name of another module may have become
// visible here, and the update resolves everything.
func surfaceOf(f *facts.File) []surfEntry {
	spec := specFor(f.Lang)
	var out []surfEntry
	defs := f.Defs
	for i := range defs {
		d := &defs[i]
		e := surfEntry{group: "d:" + d.Name, scope: i}
		parentQual, parentKind := "", facts.DefKind(0)
		if d.Parent >= 0 && d.Parent < len(defs) {
			parentQual, parentKind = defs[d.Parent].Qual, defs[d.Parent].Kind
		}
		e.sig = strings.Join([]string{d.Kind.String(), d.Qual, parentQual, d.Owner, strings.Join(d.Bases, ","), d.Result, f.Build}, "\x00")
		if d.Result == "={}" {
			// A factory's object literal: its methods are the functions
			// defined in it, which callers elsewhere reach.
			for k := i + 1; k < len(defs) && defs[k].StartByte < d.EndByte; k++ {
				if defs[k].Parent == i {
					e.sig += "\x00" + defs[k].Name
				}
			}
		}
		if family(f.Lang) == "js" && d.Kind == facts.Func && strings.Contains(d.Signature, "=>") {
			// A declared function type types the parameters (and
			// `this`) of the callbacks handed to it elsewhere.
			e.sig += "\x00" + d.Signature
		}
		e.refers = tokens(spec, e.refers, d.Owner, d.Result)
		if d.Kind == facts.Func && f.Lang == "python" {
			// what its return statements return (facts.ReturnName
			// bindings), which calls of it elsewhere read
			e.refers = append(e.refers, facts.ReturnName)
		}
		for _, b := range d.Bases {
			e.refers = tokens(spec, e.refers, b)
		}
		hidden := d.Kind == facts.Func && d.Owner == "" && parentKind == facts.Func || d.Anonymous()
		if hidden {
			// A nested function is found only by lookups in this file's
			// scopes; so is an anonymous one, wherever it is.
			e.local = []string{localKey(d.Name, parentQual)}
		} else {
			e.global = append(e.global, d.Name)
			if parentKind == facts.Class {
				// A class's members decide its constructor and its methods.
				e.global = append(e.global, defs[d.Parent].Name)
			}
			e.global = tokens(spec, e.global, d.Owner)
		}
		out = append(out, e)
	}
	if family(f.Lang) == "js" {
		// A default import of a module without a default export means the
		// module's only top-level definition, if it has exactly one.
		var only *facts.Def
		names := map[string]bool{}
		for i := range defs {
			if d := &defs[i]; d.Parent < 0 && d.Owner == "" && !d.Anonymous() {
				names[d.Name] = true
				if only == nil {
					only = d
				}
			}
		}
		if len(names) == 1 {
			out = append(out, surfEntry{group: "only", sig: only.Name + "\x00" + only.Qual + "\x00" + only.Kind.String(),
				global: []string{"default"}, scope: -1})
		}
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		scope := "-"
		field := selfPrefixed(b.Name)
		if b.Scope >= 0 && b.Scope < len(defs) {
			scope = defs[b.Scope].Qual
			field = field || defs[b.Scope].Kind == facts.Class
		}
		e := surfEntry{group: "b:" + b.Name, sig: strings.Join([]string{scope, b.Type, b.FromCall, b.FromExpr}, "\x00"),
			scope: b.Scope}
		if b.FromExpr == facts.ObjectLiteral && b.Scope >= 0 && b.Scope < len(defs) {
			// this.out = {...}: its methods are the function's definitions
			for k := b.Scope + 1; k < len(defs) && defs[k].StartByte < defs[b.Scope].EndByte; k++ {
				if defs[k].Parent == b.Scope {
					e.sig += "\x00" + defs[k].Name
				}
			}
		}
		e.refers = tokens(spec, nil, b.Type, b.FromCall, b.FromExpr)
		if callee := passedName(f, b.Name); callee != "" {
			// what it passes to an imported function: the parameters
			// of that function read it (resolve of the callee's file,
			// which mentions callee+"()#")
			e.global = append(e.global, callee+"()#")
		}
		switch {
		case field:
			e.global = tokens(spec, nil, b.Name)
		case b.Scope < 0 && (b.Type != "" || b.FromCall != "" || strings.Contains(b.Name, ".prototype.")):
			// A typed module variable: other files that import it read
			// its type (moduleVar); a method alias (X.prototype.a =
			// X.prototype.b) is read by calls of a on X's instances.
			e.global = tokens(spec, nil, b.Name)
			e.local = append(e.local, localKey(b.Name, ""))
		default:
			for _, n := range tokens(spec, nil, b.Name) {
				e.local = append(e.local, localKey(n, qualOf(f, b.Scope)))
			}
		}
		out = append(out, e)
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		e := surfEntry{sig: strings.Join([]string{im.Spec, im.Name, im.Alias, im.Kind, boolStr(im.Star)}, "\x00"), scope: -1}
		switch {
		case isStar(f.Lang, im):
			e.group = "*" // any change of wildcard imports is wide
		case im.Name != "" || im.Kind == "default" || im.Kind == "reexport_default" || f.Lang == "rust" || f.Lang == "java":
			// A symbol import: other modules may import it from here, under
			// its local name. What it means depends on the symbol's name in
			// its module (the module itself is found by path; see
			// compareBinds): the imported name, the last segment of a Rust
			// or Java path, every segment of a Java path (nested classes),
			// the default export.
			e.group = "i:" + im.Alias + ":" + im.Name + ":" + im.Spec
			sym := im.Name
			switch {
			case (im.Kind == "default" || im.Kind == "reexport_default") && sym == "":
				sym = "default"
			case sym == "":
				sym = lastSeg(im.Spec)
			}
			e.refers = tokens(spec, nil, sym)
			if f.Lang == "java" {
				e.refers = tokens(spec, e.refers, im.Spec)
			}
			local := im.Alias
			if local == "" {
				local = sym
			}
			e.global = tokens(spec, nil, local)
			if f.Lang == "rust" {
				// `use a::b::{self}` binds b; a module path also names
				// submodules other paths go through.
				e.global = tokens(spec, e.global, im.Spec)
			}
		default:
			e.group = "m:" + im.Alias + ":" + im.Spec
			for _, n := range tokens(spec, nil, im.Alias, im.Spec) {
				e.local = append(e.local, localKey(n, ""))
			}
		}
		out = append(out, e)
	}
	if f.DefaultExport != "" {
		out = append(out, surfEntry{group: "x", sig: f.DefaultExport, global: []string{"default"},
			refers: tokens(spec, nil, f.DefaultExport), scope: -1})
	}
	for _, v := range f.Values {
		out = append(out, surfEntry{group: "v:" + v, global: []string{v}, scope: -1})
	}
	return out
}

func boolStr(b bool) string {
	if b {
		return "*"
	}
	return ""
}

func lastSeg(spec string) string {
	if i := strings.LastIndexAny(spec, "/.:"); i >= 0 {
		return spec[i+1:]
	}
	return spec
}

// isStar reports whether an import makes every name of its module visible
// (wildcards, Go dot imports, sourced shell files).
func isStar(lang string, im *facts.Import) bool {
	return im.Star || (lang == "go" && im.Alias == ".") || lang == "bash"
}

func selfPrefixed(name string) bool {
	return strings.HasPrefix(name, "self.") || strings.HasPrefix(name, "this.") || strings.HasPrefix(name, "@")
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// tokens appends the identifiers in ss to out, less the language's self
// names, which are never looked up as names.
func tokens(spec *langSpec, out []string, ss ...string) []string {
	eachToken(spec, ss, func(t string) { out = append(out, t) })
	return out
}

// eachToken calls fn with every identifier of ss but the language's
// self names.
func eachToken(spec *langSpec, ss []string, fn func(string)) {
	for _, s := range ss {
		for i := 0; i < len(s); {
			if !identByte(s[i]) {
				i++
				continue
			}
			j := i
			for j < len(s) && identByte(s[j]) {
				j++
			}
			if t := s[i:j]; !spec.isSelf(t) {
				fn(t)
			}
			i = j
		}
	}
}

// hashTokens is tokens, hashed as they are found (mentions keeps only
// the hashes: no string headers to hold meanwhile).
func hashTokens(spec *langSpec, out []uint64, ss ...string) []uint64 {
	eachToken(spec, ss, func(t string) { out = append(out, hashName(t)) })
	return out
}

var tokenSeed = maphash.MakeSeed()

func hashName(s string) uint64 { return maphash.String(tokenSeed, s) }

// mentions lists (hashed) every name resolving f's own calls, receivers,
// bindings, references, bases, results, owners and imports may look up,
// sorted: whether f has to be resolved again when a name's meaning
// changes.
func mentions(f *facts.File) []uint64 {
	spec := specFor(f.Lang)
	var toks []uint64
	for i := range f.Calls {
		c := &f.Calls[i]
		toks = hashTokens(spec, toks, c.Name, c.Recv)
	}
	for i := range f.Bindings {
		b := &f.Bindings[i]
		toks = hashTokens(spec, toks, b.Type, b.FromCall, b.FromExpr)
	}
	for i := range f.Refs {
		toks = hashTokens(spec, toks, f.Refs[i].Recv, f.Refs[i].Name)
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		toks = hashTokens(spec, toks, d.Owner, d.Result)
		for _, b := range d.Bases {
			toks = hashTokens(spec, toks, b)
		}
		if d.Kind == facts.Class {
			// Reopened classes (Ruby, C++) share members with other files.
			toks = append(toks, hashName(d.Name))
		}
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		toks = hashTokens(spec, toks, im.Spec, im.Name, im.Alias)
	}
	toks = hashTokens(spec, toks, f.DefaultExport)
	if f.Lang == "python" {
		// a function calling one of its parameters reads what the files
		// importing it pass (see passedName)
		for i := range f.Calls {
			c := &f.Calls[i]
			if c.Recv == "" && c.Caller >= 0 && f.Defs[c.Caller].Parent < 0 {
				if _, ok := paramPos(f.Defs[c.Caller].Signature, c.Name); ok {
					toks = append(toks, hashName(f.Defs[c.Caller].Name+"()#"))
				}
			}
		}
	}
	if family(f.Lang) == "js" {
		// a top-level function whose parameters, or their elements, are
		// read from nested functions too (koa-compose's dispatch reading
		// middleware[i]): what the importing files pass, for any of them
		for i := range f.Defs {
			if d := &f.Defs[i]; d.Parent < 0 && d.Kind == facts.Func && strings.Contains(d.Signature, "(") {
				toks = append(toks, hashName(d.Name+"()#"))
			}
		}
	}
	if f.Lang == "go" && (len(f.Bindings) > 0 || len(f.Defs) > 0) {
		// callbackEdges looks these up on the types the file holds.
		for _, n := range callbackNames {
			toks = append(toks, hashName(n))
		}
	}
	if family(f.Lang) == "js" {
		toks = append(toks, hashName("default"))
	}
	slices.Sort(toks)
	return slices.Clip(slices.Compact(toks))
}

// mentionsAny reports whether sorted hashes hs hold one of names.
func mentionsAny(hs []uint64, names []uint64) bool {
	for _, n := range names {
		if _, ok := slices.BinarySearch(hs, n); ok {
			return true
		}
	}
	return false
}

// surfaceDiff compares two versions of a file's surface. It returns the
// global and local keys of the entries that differ, and wide when the
// wildcard imports changed.
func surfaceDiff(old, cur []surfEntry) (global, local []string, wide bool) {
	type group struct {
		sigs          []string
		global, local []string
	}
	collect := func(es []surfEntry) map[string]*group {
		m := make(map[string]*group, len(es))
		for i := range es {
			e := &es[i]
			g := m[e.group]
			if g == nil {
				g = &group{}
				m[e.group] = g
			}
			g.sigs = append(g.sigs, e.sig)
			g.global = append(g.global, e.global...)
			g.local = append(g.local, e.local...)
		}
		return m
	}
	a, b := collect(old), collect(cur)
	changed := func(name string, x, y *group) {
		if name == "*" {
			wide = true
		}
		for _, g := range []*group{x, y} {
			if g != nil {
				global = append(global, g.global...)
				local = append(local, g.local...)
			}
		}
	}
	for name, x := range a {
		if y := b[name]; y == nil || !slices.Equal(x.sigs, y.sigs) {
			changed(name, x, y)
		}
	}
	for name, y := range b {
		if a[name] == nil {
			changed(name, nil, y)
		}
	}
	return global, local, wide
}

// structuralNames are the names under which a file added or removed can
// be found by path while calls are resolved, not only while imports are
// bound (which compareBinds checks): Python submodules (`pkg.sub.f()`) and
// Rust module paths. They are the segments of its path without the
// extension, and for Rust the words that start a path at a crate root.
func structuralNames(f *facts.File) []string {
	switch f.Lang {
	case "python":
		return tokens(defaultSpec, nil, strings.TrimSuffix(f.Path, path.Ext(f.Path)))
	case "rust":
		return append(tokens(defaultSpec, nil, strings.TrimSuffix(f.Path, path.Ext(f.Path))), "crate", "self", "super")
	}
	return nil
}

// passedName is the function an argument binding of a Python file
// passes a value to when the file does not define it (an imported one):
// "run_task" for "run_task()#0"; "" for other bindings.
func passedName(f *facts.File, binding string) string {
	if !passesAcross(f.Lang) {
		return ""
	}
	name, _, ok := strings.Cut(binding, "()#")
	if !ok || name == "" || name[0] == '.' || strings.Contains(name, "()") {
		return ""
	}
	for i := range f.Defs {
		if f.Defs[i].Name == name && f.Defs[i].Parent < 0 {
			return ""
		}
	}
	return name
}
