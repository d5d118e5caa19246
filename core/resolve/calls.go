package resolve

import (
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// callCtx resolves the calls of one file.
type callCtx struct {
	r  *resolver
	fi *fileInfo
	// origin is the file whose calls are being resolved; lookups may move
	// into other files' scopes (fi), but only origin's bindings are marked
	// as used, so no goroutine writes another file's state.
	origin *fileInfo
	// mros memoizes class linearizations while origin's calls resolve.
	mros map[defRef]mroResult
	// steps bounds the bindings one flowTargets call visits (nil: none
	// running).
	steps *int
	// results memoizes the types of undeclared results ("=expr") typed
	// near the top of a lookup, while origin's calls resolve.
	results map[defRef]typ
	// subs maps a class to the classes of origin that inherit from it
	// (see overrides), made on first use.
	subs map[defRef][]defRef
	// handed maps a file's anonymous functions (name, parent) to the
	// callee they are handed to as written (see elementParam), made on
	// first use per file.
	handed map[*fileInfo]map[anonAt]string
	// use is where the names being looked up are read: the call being
	// resolved, or the binding whose value is being typed. Seen from
	// there, a straight-line binding replaces those before it (see live).
	use readAt
	// rets holds, per file, the names of its functions that return
	// names (see returners), made on first use.
	rets map[*fileInfo]map[string]bool
	// paramMemo memoizes paramValues while origin's calls resolve.
	paramMemo map[paramAt][]typ
	// encl memoizes enclosingClasses where its answer comes from the
	// definitions alone (the classes around a scope), and ancs
	// ancestors where it comes from a memoized linearization: both are
	// asked for every call on self.
	encl map[defRef][]typ
	ancs map[defRef][]defRef
}

// readAt is a place names are read: a line of a scope of a file (line
// 0: not known).
type readAt struct {
	fi          *fileInfo
	scope, line int
}

// readAt sets where names are read until the returned func restores
// the place before.
func (c *callCtx) readAt(scope, line int) func() {
	old := c.use
	c.use = readAt{c.fi, scope, line}
	return func() { c.use = old }
}

// live says which bindings of name in scope s of the current file can
// reach where it is read (c.use, in the same scope): none above the last
// straight-line binding before the read (from: `encode, decode = decode,
// encode` swaps them for the calls below), and no straight-line one at
// or after it (to: only a loop takes a value back up, and a
// straight-line binding is in none). 0, 0 when anything may.
func (c *callCtx) live(s int, name string) (from, to int) {
	if c.use.line == 0 || c.use.fi != c.fi || c.use.scope != s {
		return 0, 0
	}
	for _, bi := range c.fi.bindingsNamed(s, name) {
		if b := &c.fi.f.Bindings[bi]; b.Straight && b.Name == name && b.Line < c.use.line && b.Line > from {
			from = b.Line
		}
	}
	return from, c.use.line - 1
}

// dead reports whether binding b, of the current file, cannot reach the
// read live computed from and to for.
func dead(b *facts.Binding, from, to int) bool {
	return b.Line < from || to > 0 && b.Line > to && b.Straight
}

// anonAt names an anonymous function by its name and parent.
type anonAt struct {
	name   string
	parent int
}

type mroResult struct {
	order []typ
	ok    bool
}

// in returns a context for looking things up in another file's scope.
func (c *callCtx) in(fi *fileInfo) *callCtx {
	if fi == c.fi {
		return c
	}
	return &callCtx{r: c.r, fi: fi, origin: c.origin, mros: c.mros, results: c.results, steps: c.steps, handed: c.handed, paramMemo: c.paramMemo}
}

// maxDepth bounds every recursive lookup (re-export chains, base classes,
// receiver chains), so cyclic code cannot loop.
const maxDepth = 8

// typ is what an expression denotes: a module (files), a class used
// statically, or an instance of a class. A type may be known only by name
// (name set, cls invalid) when methods are attached by owner (Go, Rust).
type typ struct {
	module   []*fileInfo
	via      *binding // the import binding a module came through
	cls      defRef
	name     string
	ctx      *fileInfo // file whose scope the name is looked up in
	instance bool
	conf     graph.Confidence
	// fn is a function used as a value (`a = f`, `self.cb = handler`):
	// calling the expression calls it.
	fn defRef
}

func (t typ) known() bool { return t.module != nil || t.cls.valid() || t.name != "" || t.fn.valid() }

// lastWins reports whether a later definition of a name replaces an
// earlier one in the same scope: Python (overload stubs before the
// implementation, conditional redefinitions) and JavaScript/TypeScript
// (hoisted declarations and class members: the last one holds; TypeScript
// overload signatures come before their implementation).
func lastWins(fi *fileInfo) bool {
	switch fi.f.Lang {
	case "python", "javascript", "typescript", "tsx":
		return true
	}
	return false
}

func (c *callCtx) resolveCall(call *facts.Call) (defRef, graph.Confidence) {
	if call.Ref {
		return c.resolveRef(call)
	}
	if strings.HasPrefix(call.Recv, facts.CallbackRecv) {
		ref, conf, _ := c.resolveCallback(call)
		return ref, conf
	}
	if c.fi.f.Lang == "python" {
		defer c.readAt(call.Caller, call.Line)()
	}
	spec := c.fi.lang
	name := call.Name
	if call.New {
		q := name
		if call.Recv != "" {
			q = call.Recv + "." + name
		}
		t := c.typeName(c.fi, call.Caller, q, 0)
		if t.cls.valid() {
			return c.construct(t)
		}
		if call.Recv == "" {
			// `new F()` of a constructor function (JS).
			if ref, conf := c.callable(call.Caller, name, 0); ref.isFunc() {
				return ref, conf
			}
		}
		return defRef{}, 0
	}
	if call.Recv == "" {
		if name == "super" {
			if !spec.superCtor {
				return defRef{}, 0
			}
			if cls, ok := c.enclosingClass(call.Caller); ok {
				for _, b := range c.bases(cls, 0) {
					if ref, conf := c.construct(b); ref.valid() {
						return ref, conf
					}
				}
			}
			return defRef{}, 0
		}
		if spec.implicitSelf {
			for _, cls := range c.enclosingClasses(call.Caller) {
				if m, ok := c.methodOf(cls, name, 0); ok {
					return m, graph.Resolved
				}
			}
		}
		// A parameter shadows every outer name: `def g(cb): cb()` calls
		// whatever is passed, not a function named cb.
		if c.isParam(call.Caller, name) {
			return defRef{}, 0
		}
		// A local variable holding a function or a class: `a = f; a()`.
		if t, ok := c.localVar(call.Caller, name, 0); ok {
			if ref, conf, ok := c.callValue(t); ok {
				return ref, conf
			}
			if t.instance && t.cls.valid() && c.fi.f.Lang == "python" {
				// An instance called: app(environ) runs its __call__.
				if m, ok := c.methodOf(t, "__call__", 0); ok && m.isFunc() {
					return m, graph.Inferred
				}
			}
		}
		ref, conf := c.callable(call.Caller, name, 0)
		switch {
		case !ref.valid():
		case ref.isClass() && spec.conversions:
			// T(x) converts; no code of T runs.
		case ref.isClass():
			return c.construct(typ{cls: ref, name: name, ctx: ref.fi, conf: conf})
		case ref.isFunc():
			if inner, wraps, ok := c.decorated(ref); ok && !wraps {
				return inner, graph.Inferred
			}
			return ref, conf
		}
		return defRef{}, 0
	}
	recv := call.Recv
	if spec.isSelf(recv) {
		if cls, ok := c.enclosingClass(call.Caller); ok {
			if m, ok := c.methodOf(cls, name, 0); ok {
				return m, graph.Resolved
			}
			// An attribute holding a function or a class:
			// `self.context_class = Context` ... `self.context_class(...)`.
			cls.instance = true
			if ref, conf, ok := c.callValue(c.fieldType(cls, name, 1)); ok {
				return ref, conf
			}
		}
		return defRef{}, 0
	}
	if recv == "super" || strings.HasPrefix(recv, "super(") {
		if cls, ok := c.enclosingClass(call.Caller); ok {
			for _, b := range c.bases(cls, 0) {
				if m, ok := c.methodOf(b, name, 0); ok {
					return m, graph.Resolved
				}
			}
		}
		return defRef{}, 0
	}
	// f.call(thisArg, ...), f.apply(thisArg, args) run f
	runs := (name == "call" || name == "apply") && family(c.fi.f.Lang) == "js"
	if runs {
		if ctor, method, ok := strings.Cut(recv, ".prototype."); ok && !strings.ContainsAny(method, ".()[]") {
			// Request.prototype.end.call(this): the method itself
			if ct := c.typeName(c.fi, call.Caller, ctor, 0); ct.known() && ct.module == nil {
				if m, ok := c.methodOf(ct, method, 0); ok {
					return m, min(ct.conf, graph.Inferred)
				}
			}
			return defRef{}, 0
		}
	}
	t := c.typeOf(call.Caller, recv, 0)
	switch {
	case t.module != nil:
		if runs && !strings.ContainsAny(recv, ".()[]") {
			// Emitter.call(this) with Emitter = require('./emitter'):
			// what the module exports, a constructor function run on this
			if ref, conf := c.inModuleName(t.module, "default", "", recv, 0); ref.isFunc() {
				c.markUsed(t.via, ref.fi)
				return ref, min(conf, t.conf)
			}
		}
		ref, conf := c.inModule(t.module, name, 0)
		if ref.valid() {
			c.markUsed(t.via, ref.fi)
			if ref.isClass() && spec.conversions {
				return defRef{}, 0 // pkg.T(x) converts
			}
			if ref.isClass() {
				return c.construct(typ{cls: ref, name: name, ctx: ref.fi, conf: conf})
			}
			return ref, min(conf, t.conf)
		}
		return defRef{}, 0
	case t.known():
		if c.fi.f.Lang == "ruby" && name == "new" && !t.instance {
			return c.construct(t)
		}
		if name == "__call__" && t.fn.valid() {
			return t.fn, graph.Inferred // f()(x): the function f returns
		}
		if runs && t.fn.valid() {
			return t.fn, t.conf // f.call(thisArg, ...) runs f
		}
		if m, ok := c.methodOf(t, name, 0); ok {
			if t.cls.valid() && !t.instance && m.isClass() {
				return c.construct(typ{cls: m, name: name, ctx: m.fi, conf: t.conf})
			}
			return m, t.conf
		}
		if t.instance {
			if ref, conf, ok := c.callValue(c.fieldType(t, name, 1)); ok {
				return ref, min(conf, t.conf)
			}
		}
		return defRef{}, 0
	case t.via != nil:
		// A receiver bound to a module outside the workspace.
		return defRef{}, 0
	}
	if ref, ok := c.objectMethod(call.Caller, recv, name); ok {
		return ref, graph.Resolved
	}
	if c.fi.f.Lang == "python" && pyBuiltinTypes[recv] {
		return defRef{}, 0 // type.__new__(cls, ...), str.join: Python's own
	}
	return c.nameMatch(name)
}

// pyBuiltinTypes are Python's builtin classes, whose methods a call
// through their name (`type.__new__(cls, ...)`, `dict.fromkeys(x)`) runs
// unless the file binds the name to something else (then typeOf knows it).
var pyBuiltinTypes = map[string]bool{
	"type": true, "object": true, "str": true, "bytes": true, "bytearray": true, "int": true,
	"float": true, "complex": true, "bool": true, "dict": true, "list": true, "set": true,
	"frozenset": true, "tuple": true, "range": true, "memoryview": true, "slice": true,
	"property": true, "classmethod": true, "staticmethod": true, "BaseException": true, "Exception": true,
}

// pyBuiltinResults are Python's builtin callables whose result is always
// an object of Python's own (a file, a string, a builtin container or
// iterator), never one of the project's classes.
var pyBuiltinResults = map[string]bool{
	"open": true, "str": true, "repr": true, "format": true, "bytes": true, "bytearray": true,
	"memoryview": true, "dict": true, "list": true, "set": true, "frozenset": true, "tuple": true,
	"sorted": true, "range": true, "enumerate": true, "zip": true, "reversed": true, "int": true,
	"float": true, "complex": true, "bool": true, "len": true, "hash": true, "id": true, "input": true,
	"vars": true, "dir": true, "globals": true, "locals": true, "chr": true, "ord": true, "hex": true,
	"oct": true, "bin": true, "ascii": true, "abs": true, "round": true, "divmod": true, "pow": true,
}

// pyScalarTypes are Python's builtin classes a parameter or variable may
// be declared with whose methods are never the project's.
var pyScalarTypes = map[string]bool{
	"str": true, "bytes": true, "bytearray": true, "int": true, "float": true, "complex": true, "bool": true,
}

// isPyStringLiteral reports whether expr is a Python string literal
// (`", "` in `", ".join(parts)`), with any prefix: b"x", f"x", r'x'.
func isPyStringLiteral(expr string) bool {
	i := 0
	for i < len(expr) && i < 3 && strings.IndexByte("bBrRfFuU", expr[i]) >= 0 {
		i++
	}
	return i < len(expr) && (expr[i] == '"' || expr[i] == '\'') && expr[len(expr)-1] == expr[i] && len(expr)-i >= 2
}

// objectMethod finds, for a JavaScript call obj.m() on a name no scope
// types, the function m of an object literal bound to that name at the
// top of the file (`const api = { get() {} }` makes api.get).
func (c *callCtx) objectMethod(scope int, recv, name string) (defRef, bool) {
	if family(c.fi.f.Lang) != "js" || strings.ContainsAny(recv, ".()[]{} \"'") || c.isParam(scope, recv) {
		return defRef{}, false
	}
	q := recv + "." + name
	for _, k := range c.fi.top[name] {
		if d := &c.fi.f.Defs[k]; d.Qual == q && d.Kind == facts.Func {
			return defRef{c.fi, k}, true
		}
	}
	if !c.fi.owners[recv] {
		return defRef{}, false
	}
	for k := range c.fi.f.Defs {
		if d := &c.fi.f.Defs[k]; d.Qual == q && d.Kind == facts.Func && d.Parent < 0 {
			return defRef{c.fi, k}, true
		}
	}
	return defRef{}, false
}

// resolveRef binds a function named as a value (facts.Call.Ref) the way a
// call of it would bind, keeping only functions and methods of that very
// name found without guessing: a class named as a value is not a call of
// its constructor, and a name match is too weak for an edge no call site
// confirms.
func (c *callCtx) resolveRef(call *facts.Call) (defRef, graph.Confidence) {
	if call.New {
		return c.resolveInst(call)
	}
	if call.Recv == "" && call.Caller >= 0 && c.fi.f.Defs[call.Caller].Kind == facts.Class {
		// In a class body, the class's own functions are in scope
		// (pprint's `_dispatch[dict.__repr__] = _pprint_dict`).
		found := -1
		for _, k := range c.fi.children[call.Caller] {
			if d := &c.fi.f.Defs[k]; d.Name == call.Name && d.Kind == facts.Func {
				found = k
			}
		}
		if found >= 0 {
			return defRef{c.fi, found}, graph.Resolved
		}
	}
	plain := *call
	plain.Ref = false
	ref, conf := c.resolveCall(&plain)
	if !ref.isFunc() || conf <= graph.NameMatch || ref.def().Name != call.Name {
		return defRef{}, 0
	}
	return ref, conf
}

// resolveInst binds a type a value is made of (an instantiation fact:
// facts.Call with Ref and New) to the workspace's type of that name, seen
// from the call's scope; types of other modules bind to nothing.
func (c *callCtx) resolveInst(call *facts.Call) (defRef, graph.Confidence) {
	q := call.Name
	if call.Recv != "" {
		q = call.Recv + "." + call.Name
	}
	t := c.typeName(c.fi, call.Caller, q, 0)
	if !t.cls.valid() || t.cls.def().Kind != facts.Class || strings.HasSuffix(t.cls.def().Signature, " interface") {
		return defRef{}, 0 // an interface's value is some other type's
	}
	conf := t.conf
	if conf == 0 {
		conf = graph.Resolved
	}
	return t.cls, conf
}

// conversion reports whether a Go call T(x) that bound to nothing is a
// conversion to a type of the workspace, and returns the type.
func (c *callCtx) conversion(call *facts.Call) (defRef, bool) {
	if c.fi.f.Lang != "go" || call.Recv != "" || call.Ref || call.New || goBuiltins[call.Name] {
		return defRef{}, false
	}
	ref, _ := c.lookupName(c.fi, call.Caller, call.Name, false, 0)
	if !ref.isClass() || strings.HasSuffix(ref.def().Signature, " interface") {
		return defRef{}, false
	}
	return ref, true
}

// goBuiltins are Go's predeclared functions: calls of them convert nothing.
var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// isParam reports whether name is an unannotated parameter of the
// function at scope or of a function around it (Python and JS/TS): such a
// name is a value passed in, not the outer definition it shadows. It reads
// the one-line signatures without allocating: it runs for every bare call.
func (c *callCtx) isParam(scope int, name string) bool {
	lang := c.fi.f.Lang
	if lang != "python" && family(lang) != "js" {
		return false
	}
	defs := c.fi.f.Defs
	for s := scope; s >= 0; s = defs[s].Parent {
		d := &defs[s]
		if d.Kind == facts.Func && strings.Contains(d.Signature, name) && untypedParam(d.Signature, name) {
			return true
		}
	}
	return false
}

// untypedParam reports whether the parameter list of sig (the first
// bracketed group) has a parameter called name without a type annotation
// (`name`, `name=1`, `*name`, `...name`; not `name: T`).
func untypedParam(sig, name string) bool {
	found := false
	eachParam(sig, func(_ int, item string) bool {
		found = itemIs(item, name)
		return !found
	})
	return found
}

// itemIs reports whether one parameter item names name, untyped.
func itemIs(item, name string) bool {
	item = strings.TrimLeft(strings.TrimSpace(item), "*.")
	if !strings.HasPrefix(item, name) {
		return false
	}
	rest := strings.TrimLeft(item[len(name):], " ?")
	return rest == "" || rest[0] == '='
}

// callValue is what calling a value of type t calls: the function it
// holds, or the constructor of the class it holds (not an instance of
// it). Calls through values are found by flow, so they are inferred.
func (c *callCtx) callValue(t typ) (defRef, graph.Confidence, bool) {
	switch {
	case t.fn.valid():
		return t.fn, graph.Inferred, true
	case t.cls.valid() && !t.instance && t.conf != 0:
		ref, conf := c.construct(t)
		if ref.valid() {
			return ref, min(conf, graph.Inferred), true
		}
	case t.cls.valid() && t.instance && t.cls.fi.f.Lang == "python":
		// An instance called (WSGI middleware's self.app(environ) holding
		// a Router): its class's __call__.
		if m, ok := c.methodOf(t, "__call__", 0); ok && m.isFunc() {
			return m, min(max(t.conf, graph.NameMatch), graph.Inferred), true
		}
	}
	return defRef{}, 0, false
}

// nameMatch is the weak fallback for a member call on a receiver of
// unknown type: an edge only when exactly one method in the workspace has
// that (uncommon) name.
func (c *callCtx) nameMatch(name string) (defRef, graph.Confidence) {
	if !c.fi.lang.memberNameMatch || commonMethods[name] || len(name) < 4 {
		return defRef{}, 0
	}
	var code, decls []defRef
	for _, m := range c.r.methods[name] {
		switch {
		case !sameLangFamily(m.fi.f.Lang, c.fi.f.Lang):
		case strings.HasSuffix(m.fi.f.Path, ".d.ts"):
			decls = append(decls, m) // describes code found elsewhere
		default:
			code = append(code, m)
		}
	}
	if len(code) == 0 {
		code = decls
	}
	if len(code) == 0 {
		return defRef{}, 0
	}
	last := code[len(code)-1]
	if len(code) > 1 {
		for _, m := range code {
			// TypeScript overload signatures and their implementation
			// are one method (a Python property's getter and setter
			// are not).
			if m.fi != last.fi || m.def().Parent != last.def().Parent || family(m.fi.f.Lang) != "js" {
				return defRef{}, 0
			}
		}
	}
	return last, graph.NameMatch
}

func (c *callCtx) markUsed(b *binding, fi *fileInfo) {
	if b == nil || c.fi != c.origin {
		return
	}
	for _, own := range c.fi.imports {
		if own == b {
			b.markUsed(fi)
			return
		}
	}
}

// construct returns the constructor of a class (inherited ones count), or
// the class itself when it has none.
func (c *callCtx) construct(t typ) (defRef, graph.Confidence) {
	if !t.cls.valid() {
		return defRef{}, 0
	}
	conf := t.conf
	if conf == 0 {
		conf = graph.Resolved
	}
	ctor := t.cls.fi.lang.ctor
	if ctor == "=class" {
		ctor = t.cls.def().Name
	}
	if ctor != "" {
		if m, ok := c.methodOf(typ{cls: t.cls, name: t.cls.def().Name, ctx: t.cls.fi}, ctor, 0); ok && m.isFunc() {
			return m, conf
		}
	}
	return t.cls, conf
}

// enclosingClasses lists the classes around scope, innermost first; a
// method with an Owner contributes its owner type.
func (c *callCtx) enclosingClasses(scope int) []typ {
	key := defRef{c.fi, scope}
	if out, ok := c.encl[key]; ok {
		return out
	}
	out, pure := c.classesAround(scope)
	if pure {
		if c.encl == nil {
			c.encl = map[defRef][]typ{}
		}
		c.encl[key] = out[:len(out):len(out)]
	}
	return out
}

// classesAround computes enclosingClasses; pure is true when the answer
// comes from the definitions alone (no type was looked up), and may be
// memoized.
func (c *callCtx) classesAround(scope int) (out []typ, pure bool) {
	defs := c.fi.f.Defs
	pure = family(c.fi.f.Lang) != "js" // (see below: JS asks the types)
	for s := scope; s >= 0; s = defs[s].Parent {
		d := &defs[s]
		if d.Kind == facts.Func && family(c.fi.f.Lang) == "js" {
			// TypeScript's declared `this`: function (this: SchedulerAction<T>) {...}
			if tname := declaredThis(d.Signature); tname != "" {
				if t := c.typeName(c.fi, s, tname, 0); t.cls.valid() {
					t.instance, t.conf = true, graph.Resolved
					return append(out, t), false
				}
			}
			if d.Anonymous() && strings.HasPrefix(d.Signature, "function") {
				// scheduler.schedule(function () { this.schedule() }):
				// the `this` the callee's function type declares
				if ts := c.elementParam(s, thisParam, 0); len(ts) == 1 && ts[0].cls.valid() {
					t := ts[0]
					t.instance = true
					return append(out, t), false
				}
			}
		}
		if d.Kind == facts.Class {
			out = append(out, typ{cls: defRef{c.fi, s}, name: d.Name, ctx: c.fi, instance: true, conf: graph.Resolved})
		} else if d.Owner != "" && family(c.fi.f.Lang) == "js" && strings.HasSuffix(strings.TrimSpace(d.Signature), "=>") {
			// socket.onopen = (evt) => { this._resetState() }: an arrow
			// function's `this` is the one around it, not the object.
			continue
		} else if d.Owner != "" {
			pure = false
			t := c.typeName(c.fi, d.Parent, d.Owner, 0)
			if !t.known() {
				t = typ{name: d.Owner, ctx: c.fi}
			}
			t.instance, t.conf = true, graph.Resolved
			out = append(out, t)
		} else if d.Kind == facts.Func && d.Parent < 0 && c.fi.owners[d.Name] && family(c.fi.f.Lang) == "js" {
			// A constructor function (function View() {} with
			// View.prototype.lookup = ...): `this` is an instance.
			out = append(out, typ{name: d.Name, ctx: c.fi, instance: true, conf: graph.Resolved})
		}
	}
	return out, pure
}

// declaredThis is the type a TypeScript function declares for `this`
// as its first parameter (`function (this: Annotation, adm)`), as one
// type name; "" when it declares none.
func declaredThis(sig string) string {
	if !strings.Contains(sig, "this") {
		return ""
	}
	first := strings.TrimSpace(paramText(sig, 0))
	rest, ok := strings.CutPrefix(first, "this")
	if !ok || !strings.HasPrefix(strings.TrimSpace(rest), ":") {
		return ""
	}
	return oneTypeName(paramType(first))
}

func (c *callCtx) enclosingClass(scope int) (typ, bool) {
	cs := c.enclosingClasses(scope)
	if len(cs) == 0 {
		return typ{}, false
	}
	return cs[0], true
}

// lookupName binds a bare identifier as seen from scope in fi: nested
// definitions of enclosing functions, the file's top level, imports, the
// package, wildcard imports, and for global-namespace languages the whole
// workspace.
func (c *callCtx) lookupName(fi *fileInfo, scope int, name string, own bool, depth int) (defRef, graph.Confidence) {
	defs := fi.f.Defs
	last := lastWins(fi)
	for s := scope; s >= 0; s = defs[s].Parent {
		found := -1
		for _, k := range fi.children[s] {
			if defs[k].Name == name && (defs[s].Kind == facts.Func || defs[k].Kind == facts.Class) {
				found = k
				if !last {
					break
				}
			}
		}
		if found >= 0 {
			return defRef{fi, found}, graph.Resolved
		}
		if b := fi.scoped[s][name]; b != nil {
			// def f(): from jsonfmt import render ... render(x)
			return c.imported(b, name, own, depth)
		}
	}
	if k, ok := fi.topDef(name); ok {
		return defRef{fi, k}, graph.Resolved
	}
	if b := fi.binds[name]; b != nil {
		return c.imported(b, name, own, depth)
	}
	if key := fi.pkgKey(); key != "" {
		if ref, ok := c.r.pkgTop[key][name]; ok {
			return ref, graph.Resolved
		}
	}
	for _, b := range fi.stars {
		if ref, conf := c.inModule(b.files, name, depth+1); ref.valid() {
			if own {
				c.markUsed(b, ref.fi)
			}
			return ref, conf
		}
	}
	if fi.lang.global {
		return c.global(fi, name)
	}
	return defRef{}, 0
}

// imported is the definition an import binding of a symbol names (none
// for a module); own marks the binding used.
func (c *callCtx) imported(b *binding, name string, own bool, depth int) (defRef, graph.Confidence) {
	if b.name == "" {
		return defRef{}, 0
	}
	ref, conf := c.inModuleName(b.files, b.name, b.kind, name, depth+1)
	if ref.valid() && own {
		c.markUsed(b, ref.fi)
	}
	return ref, conf
}

// callable is lookupName for a name in call position: a module bound by
// `const F = require('./f')` stands for what the module exports, its
// like-named or only definition.
func (c *callCtx) callable(scope int, name string, depth int) (defRef, graph.Confidence) {
	ref, conf := c.lookupName(c.fi, scope, name, true, depth)
	if ref.valid() {
		return ref, conf
	}
	if b := c.fi.binds[name]; b != nil && b.name == "" && len(b.files) > 0 && family(c.fi.f.Lang) == "js" {
		ref, conf = c.inModuleName(b.files, "default", "", name, depth+1)
		if ref.valid() {
			c.markUsed(b, ref.fi)
		}
		return ref, conf
	}
	return defRef{}, 0
}

// global binds a name in a shared namespace (C, C++, Ruby, Bash): a unique
// top-level function or class of the same language family, preferring
// source files over headers.
func (c *callCtx) global(fi *fileInfo, name string) (defRef, graph.Confidence) {
	var cands []defRef
	for _, d := range c.r.funcs[name] {
		if sameLangFamily(d.fi.f.Lang, fi.f.Lang) {
			cands = append(cands, d)
		}
	}
	if len(cands) == 0 {
		for _, d := range c.r.classes[name] {
			if sameLangFamily(d.fi.f.Lang, fi.f.Lang) && d.fi.f.Defs[d.idx].Parent < 0 {
				cands = append(cands, d)
			}
		}
	}
	if len(cands) == 1 || (len(cands) > 1 && cands[0].isClass() && len(c.r.sameScope(cands[0])) == len(cands)) {
		return cands[0], graph.Inferred
	}
	if len(cands) > 1 {
		// Several definitions (e.g. static functions in different files):
		// only one in the caller's directory is a safe pick.
		var near []defRef
		for _, d := range cands {
			if d.fi.dir == fi.dir {
				near = append(near, d)
			}
		}
		if len(near) == 1 {
			return near[0], graph.Inferred
		}
	}
	return defRef{}, 0
}

// inModuleName looks a symbol up in an imported module, with JS default
// imports mapped to the module's like-named or only definition.
func (c *callCtx) inModuleName(files []*fileInfo, sym, kind, local string, depth int) (defRef, graph.Confidence) {
	if sym == "default" {
		for _, f := range files {
			if f.f.DefaultExport != "" {
				if ref, conf := c.inModule([]*fileInfo{f}, f.f.DefaultExport, depth); ref.valid() {
					return ref, conf
				}
			}
		}
		if ref, conf := c.inModule(files, local, depth); ref.valid() {
			return ref, conf
		}
		for _, f := range files {
			if k, ok := f.onlyTop(); ok {
				return defRef{f, k}, graph.Inferred
			}
		}
		return defRef{}, 0
	}
	return c.inModule(files, sym, depth)
}

// inModule finds a top-level definition in one of files, following
// re-exports (names the module itself imports) and wildcard imports. A
// dotted name ("Cls.method") descends into a class.
func (c *callCtx) inModule(files []*fileInfo, name string, depth int) (defRef, graph.Confidence) {
	if depth > maxDepth || len(files) == 0 {
		return defRef{}, 0
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		head, rest := name[:i], name[i+1:]
		ref, conf := c.inModule(files, head, depth+1)
		if ref.isClass() {
			if m, ok := c.methodOf(typ{cls: ref, name: head, ctx: ref.fi}, rest, 0); ok {
				return m, conf
			}
		}
		return defRef{}, 0
	}
	if len(files) > 1 {
		// A whole package (Go, Java wildcard): one merged index, and no
		// re-exports to follow.
		if key := files[0].pkgKey(); key != "" {
			if ref, ok := c.r.pkgTopLib[key][name]; ok {
				return ref, graph.Resolved
			}
			return defRef{}, 0
		}
	}
	for _, f := range files {
		if k, ok := f.topDef(name); ok {
			return defRef{f, k}, graph.Resolved
		}
	}
	for _, f := range files {
		if b := f.binds[name]; b != nil && b.name != "" {
			if ref, conf := c.inModuleName(b.files, b.name, b.kind, name, depth+1); ref.valid() {
				return ref, conf
			}
		}
	}
	for _, f := range files {
		for _, b := range f.stars {
			if ref, conf := c.inModule(b.files, name, depth+1); ref.valid() {
				return ref, conf
			}
		}
	}
	return defRef{}, 0
}

// methodOf finds method name of type t: the class's own members, methods
// attached by owner (Go receivers, Rust impls, C++ out-of-line, JS
// prototypes), then base classes depth first.
func (c *callCtx) methodOf(t typ, name string, depth int) (defRef, bool) {
	if depth > maxDepth {
		return defRef{}, false
	}
	if t.cls.valid() {
		for _, decl := range c.r.sameScope(t.cls) {
			found := -1
			for _, k := range decl.fi.children[decl.idx] {
				if decl.fi.f.Defs[k].Name == name {
					found = k
					if !lastWins(decl.fi) {
						break
					}
				}
			}
			if found >= 0 {
				return defRef{decl.fi, found}, true
			}
		}
		if depth == 0 && t.cls.fi.f.Lang == "python" {
			// Python looks methods up along the C3 linearization of the
			// bases (class D(B, C): C's method before B's base's).
			if mro, ok := c.mro(t, 0); ok {
				for _, b := range mro[1:] {
					if m, ok := c.ownMethod(b, name); ok {
						return m, true
					}
				}
				return defRef{}, false
			}
		}
	}
	tname := t.name
	if t.cls.valid() {
		tname = t.cls.def().Name
	}
	if tname != "" {
		if m, ok := c.ownedMethod(t, tname, name); ok {
			return m, true
		}
	}
	for _, b := range c.bases(t, depth) {
		if m, ok := c.methodOf(b, name, depth+1); ok {
			return m, true
		}
	}
	return defRef{}, false
}

// ownMethod finds method name among class t's own members (the last
// definition in Python).
func (c *callCtx) ownMethod(t typ, name string) (defRef, bool) {
	if !t.cls.valid() {
		return defRef{}, false
	}
	for _, decl := range c.r.sameScope(t.cls) {
		found := -1
		for _, k := range decl.fi.children[decl.idx] {
			if decl.fi.f.Defs[k].Name == name {
				found = k
				if !lastWins(decl.fi) {
					break
				}
			}
		}
		if found >= 0 {
			return defRef{decl.fi, found}, true
		}
	}
	return defRef{}, false
}

// mro is the C3 linearization of class t and its workspace bases (bases
// outside the workspace are left out); ok is false when the bases do not
// linearize (an inconsistent hierarchy), and lookup then falls back to
// depth first.
func (c *callCtx) mro(t typ, depth int) ([]typ, bool) {
	if depth > maxDepth || !t.cls.valid() {
		return nil, false
	}
	if r, ok := c.mros[t.cls]; ok {
		return r.order, r.ok
	}
	order, ok := c.linearize(t, depth)
	if c.mros == nil {
		c.mros = map[defRef]mroResult{}
	}
	c.mros[t.cls] = mroResult{order, ok}
	return order, ok
}

// linearize computes mro.
func (c *callCtx) linearize(t typ, depth int) ([]typ, bool) {
	var seqs [][]typ
	bs := c.bases(t, depth)
	for _, b := range bs {
		m, ok := c.mro(b, depth+1)
		if !ok {
			return nil, false
		}
		seqs = append(seqs, m)
	}
	seqs = append(seqs, bs)
	same := func(a, b typ) bool { return a.cls == b.cls }
	out := []typ{t}
	for {
		var rest [][]typ
		for _, s := range seqs {
			if len(s) > 0 {
				rest = append(rest, s)
			}
		}
		if len(rest) == 0 {
			return out, true
		}
		seqs = rest
		var pick *typ
	heads:
		for _, s := range seqs {
			h := s[0]
			for _, o := range seqs {
				for _, x := range o[1:] {
					if same(x, h) {
						continue heads
					}
				}
			}
			pick = &h
			break
		}
		if pick == nil {
			return nil, false
		}
		out = append(out, *pick)
		for i, s := range seqs {
			if same(s[0], *pick) {
				seqs[i] = s[1:]
			}
		}
	}
}

// ownedMethod finds a method attached to type tname from outside its body.
func (c *callCtx) ownedMethod(t typ, tname, name string) (defRef, bool) {
	ctx := t.ctx
	if t.cls.valid() {
		ctx = t.cls.fi
	}
	var found []defRef
	for _, m := range c.r.owned[tname] {
		if m.def().Name != name || ctx == nil || !sameLangFamily(m.fi.f.Lang, ctx.f.Lang) {
			continue
		}
		switch m.fi.f.Lang {
		case "go":
			if m.fi.dir != ctx.dir || m.fi.f.Package != ctx.f.Package {
				continue
			}
		case "rust":
			if c.r.crateOf(m.fi).Dir != c.r.crateOf(ctx).Dir {
				continue
			}
		}
		found = append(found, m)
	}
	if len(found) == 0 {
		if ctx != nil && family(ctx.f.Lang) == "js" {
			return c.methodAlias(t, ctx, tname, name)
		}
		return defRef{}, false
	}
	best := found[0] // the default build's first, then the first by path
	for _, m := range found[1:] {
		if better(m.fi, best.fi) {
			best = m
		}
	}
	for _, m := range found {
		if m.fi == ctx && m.fi.otherBuild == best.fi.otherBuild {
			return m, true // the type's own file, as good a build
		}
	}
	return best, true
}

// methodAlias finds JavaScript method name of tname assigned from
// another method of it (EventEmitter.prototype.addListener =
// EventEmitter.prototype.on) in the file ctx.
func (c *callCtx) methodAlias(t typ, ctx *fileInfo, tname, name string) (defRef, bool) {
	alias := tname + ".prototype." + name
	for _, bi := range ctx.scopes[-1] {
		b := &ctx.f.Bindings[bi]
		if b.Name != alias {
			continue
		}
		other, ok := strings.CutPrefix(b.FromExpr, tname+".prototype.")
		if !ok || other == name || strings.ContainsAny(other, ".()[]") {
			return defRef{}, false
		}
		var found defRef
		for _, m := range c.r.owned[tname] {
			if m.def().Name == other && m.fi == ctx && m.isFunc() {
				found = m
			}
		}
		return found, found.valid()
	}
	return defRef{}, false
}

// bases resolves the base types of a class in the scope of its file.
func (c *callCtx) bases(t typ, depth int) []typ {
	if depth > maxDepth {
		return nil
	}
	if !t.cls.valid() {
		return c.ctorBases(t, depth)
	}
	d := t.cls.def()
	var out []typ
	for _, b := range d.Bases {
		bt := c.typeName(t.cls.fi, d.Parent, b, depth+1)
		if bt.known() && bt.module == nil {
			bt.instance = t.instance
			out = append(out, bt)
		}
	}
	return out
}

// ctorBases are the bases of a JavaScript constructor function's type
// (known by name, its methods on its prototype): what statements gave it
// (util.inherits(Request, Emitter), Request.prototype =
// Object.create(Emitter.prototype)), read from the function's definition.
func (c *callCtx) ctorBases(t typ, depth int) []typ {
	if t.name == "" || t.ctx == nil || family(t.ctx.f.Lang) != "js" {
		return nil
	}
	var out []typ
	for _, k := range t.ctx.top[t.name] {
		d := &t.ctx.f.Defs[k]
		if d.Kind != facts.Func {
			continue
		}
		for _, b := range d.Bases {
			bt := c.typeName(t.ctx, -1, b, depth+1)
			if bt.known() && bt.module == nil && (bt.cls.valid() || bt.name != t.name || bt.ctx != t.ctx) {
				bt.instance = t.instance
				out = append(out, bt)
			}
		}
	}
	return out
}

// typeName resolves a type as written ("T", "pkg.T", "Outer.Inner",
// "a.b.C") in the scope of fi.
func (c *callCtx) typeName(fi *fileInfo, scope int, name string, depth int) typ {
	name = strings.ReplaceAll(name, "::", ".")
	// Python forward references are strings: -> "Parser".
	if len(name) > 2 && (name[0] == '"' || name[0] == '\'') && name[len(name)-1] == name[0] {
		name = name[1 : len(name)-1]
	}
	if name == "" || depth > maxDepth {
		return typ{}
	}
	if name == "Self" || name == "self" {
		if t, ok := c.in(fi).enclosingClass(scope); ok {
			t.instance = false
			return t
		}
		return typ{}
	}
	if fi.lang.reopen && strings.Contains(name, ".") {
		if ds := c.r.quals[qualKey(fi.f.Lang, name)]; len(ds) > 0 {
			return typ{cls: ds[0], name: ds[0].def().Name, ctx: ds[0].fi, conf: graph.Resolved}
		}
	}
	segs := strings.Split(name, ".")
	cc := c.in(fi)
	cur := cc.atom(scope, segs[0], depth)
	if !cur.known() && cur.via != nil && len(segs) > 1 {
		// A type of a module outside the workspace (goflag.FlagSet).
		return typ{via: cur.via}
	}
	for _, s := range segs[1:] {
		if !cur.known() {
			break
		}
		cur = cc.member(cur, s, depth+1)
	}
	if cur.fn.valid() {
		// A function named as a type: a JS constructor function, whose
		// methods are found by owner (prototype) name below.
		cur = typ{}
	}
	if cur.known() && cur.module == nil {
		cur.instance = false
		return cur
	}
	if len(segs) == 1 {
		// A unique class of that name anywhere (same language family).
		var only defRef
		n := 0
		for _, d := range c.r.classes[name] {
			if sameLangFamily(d.fi.f.Lang, fi.f.Lang) {
				only = d
				n++
			}
		}
		if n == 1 {
			return typ{cls: only, name: name, ctx: only.fi, conf: graph.Inferred}
		}
		if fi.f.Lang == "go" || fi.f.Lang == "rust" {
			// Methods may still be attached by owner name.
			return typ{name: name, ctx: fi, conf: graph.Inferred}
		}
		if family(fi.f.Lang) == "js" {
			// A constructor function whose methods live on its prototype.
			if ref, conf := c.in(fi).callable(scope, name, depth+1); ref.isFunc() {
				return typ{name: ref.def().Name, ctx: ref.fi, conf: min(conf, graph.Inferred)}
			}
		}
	}
	return typ{}
}

// atom resolves the first segment of an expression: a self name, a local
// binding, an import, or a class or module in scope.
func (c *callCtx) atom(scope int, name string, depth int) typ {
	fi := c.fi
	if fi.lang.isSelf(name) {
		if t, ok := c.enclosingClass(scope); ok {
			return t
		}
		return typ{}
	}
	if t, ok := c.localVar(scope, name, depth); ok {
		return t
	}
	if name == "exports" && family(fi.f.Lang) == "js" && fi.binds[name] == nil && !c.isParam(scope, name) {
		// CommonJS: exports.f(...) calls the module's own exports.f.
		return typ{module: []*fileInfo{fi}, conf: graph.Resolved}
	}
	if field, ok := strings.CutPrefix(name, "@"); ok || fi.lang.implicitSelf {
		// Ruby @ivars, and bare field names in Java and C++ methods.
		field = strings.TrimLeft(field, "@")
		for _, cls := range c.enclosingClasses(scope) {
			if ft := c.fieldType(cls, field, depth+1); ft.known() {
				ft.instance = true
				return ft
			}
		}
		if ok {
			return typ{}
		}
	}
	if b := fi.bindOf(scope, name); b != nil {
		if b.name == "" {
			if len(b.files) == 0 {
				return typ{via: b}
			}
			return typ{module: b.files, via: b, conf: graph.Resolved}
		}
	}
	ref, conf := c.lookupName(fi, scope, name, true, depth)
	switch {
	case ref.isClass():
		return typ{cls: ref, name: name, ctx: ref.fi, conf: conf}
	case ref.isFunc() && !c.isParam(scope, name):
		return typ{fn: ref, conf: conf}
	case ref.valid() && ref.idx < 0:
		return typ{module: []*fileInfo{ref.fi}, conf: conf}
	}
	if b := fi.bindOf(scope, name); b != nil {
		if len(b.files) == 0 {
			return typ{via: b}
		}
		if b.name != "" && b.name != "default" {
			// import { computed } from "./api": a typed variable of the
			// module (export const computed: IComputedFactory = ...).
			if t := c.moduleVar(b.files, b.name, depth+1); t.known() {
				return t
			}
		}
	}
	return typ{}
}

// moduleVar types a module-level variable of one of files (declared, or
// assigned a constructed value or a call's result), following re-exports
// like inModule.
func (c *callCtx) moduleVar(files []*fileInfo, name string, depth int) typ {
	if depth > maxDepth || len(files) == 0 || len(files) > 1 && files[0].pkgKey() != "" {
		return typ{}
	}
	for _, f := range files {
		for _, bi := range f.scopes[-1] {
			b := &f.f.Bindings[bi]
			if b.Name != name || (b.Type == "" && b.FromCall == "") {
				continue
			}
			t := c.in(f).bindingType(b, depth+1)
			if t.known() && t.module == nil && !t.fn.valid() {
				t.instance = true
				if t.conf == 0 || t.conf > graph.Inferred {
					t.conf = graph.Inferred
				}
				return t
			}
		}
	}
	for _, f := range files {
		if b := f.binds[name]; b != nil && b.name != "" && len(b.files) > 0 {
			if t := c.moduleVar(b.files, b.name, depth+1); t.known() {
				return t
			}
		}
	}
	for _, f := range files {
		for _, b := range f.stars {
			if t := c.moduleVar(b.files, name, depth+1); t.known() {
				return t
			}
		}
	}
	return typ{}
}

// member resolves `cur.s`: a definition in a module, a nested class, or a
// field of an instance.
func (c *callCtx) member(cur typ, s string, depth int) typ {
	if depth > maxDepth {
		return typ{}
	}
	switch {
	case cur.module != nil:
		ref, conf := c.inModule(cur.module, s, depth)
		if ref.valid() {
			c.markUsed(cur.via, ref.fi)
		}
		if ref.isClass() {
			return typ{cls: ref, name: s, ctx: ref.fi, conf: min(conf, cur.conf)}
		}
		// A submodule (Python packages, Rust paths).
		if sub := c.submodule(cur.module, s); sub != nil {
			return typ{module: sub, conf: cur.conf}
		}
		if ref.isFunc() {
			// A module's function as a value: f = mod.func.
			return typ{fn: ref, conf: min(conf, cur.conf)}
		}
		return typ{}
	case cur.cls.valid() && !cur.instance && s == "prototype" && family(c.fi.f.Lang) == "js":
		// Account.prototype: what the instances share (its methods)
		cur.instance = true
		return cur
	case cur.cls.valid() && !cur.instance:
		for _, decl := range c.r.sameScope(cur.cls) {
			for _, k := range decl.fi.children[decl.idx] {
				if d := &decl.fi.f.Defs[k]; d.Name == s && d.Kind == facts.Class {
					return typ{cls: defRef{decl.fi, k}, name: s, ctx: decl.fi, conf: cur.conf}
				}
			}
		}
		return typ{}
	case cur.instance:
		t := c.fieldType(cur, s, depth+1)
		if !t.known() && (c.fi.f.Lang == "python" || family(c.fi.f.Lang) == "js") {
			// A bound method as a value: m = obj.meth (JavaScript: the
			// method itself, callIt(account.deposit)).
			if m, ok := c.methodOf(cur, s, depth+1); ok && m.isFunc() {
				return typ{fn: m, conf: graph.Inferred}
			}
		}
		return t
	}
	return typ{}
}

func (c *callCtx) submodule(mods []*fileInfo, s string) []*fileInfo {
	for _, m := range mods {
		switch m.f.Lang {
		case "python":
			base := m.dir
			if !strings.HasSuffix(m.f.Path, "__init__.py") {
				continue
			}
			if fs := c.r.firstFile(base+"/"+s+".py", base+"/"+s+"/__init__.py"); fs != nil {
				return fs
			}
		case "rust":
			if b := m.binds[s]; b != nil && b.name == "" && len(b.files) > 0 {
				return b.files
			}
		}
	}
	return nil
}

// isFieldName reports whether a binding's name is field s set in a
// method: "self.s", "this.s" or "@s" (without building those strings: this
// runs for every binding of every method of a class looked into).
func isFieldName(name, s string) bool {
	switch len(name) - len(s) {
	case 5:
		return (name[:5] == "self." || name[:5] == "this.") && name[5:] == s
	case 1:
		return name[0] == '@' && name[1:] == s
	}
	return false
}

// fieldType is the type of field s of an instance: a binding in the class
// body (Go struct fields, Java/TS fields, annotated Python attributes), an
// attribute assigned in a method (`self.s = T()`, `this.s = new T()`,
// `@s = T.new`), or a field of a base class.
func (c *callCtx) fieldType(t typ, s string, depth int) typ {
	if !t.cls.valid() || depth > maxDepth {
		if t.name != "" && t.ctx != nil {
			// Owner-only types (Go/Rust): the struct may be elsewhere.
			if cls := c.typeName(t.ctx, -1, t.name, depth+1); cls.cls.valid() {
				t = cls
			} else {
				return typ{}
			}
		} else {
			return typ{}
		}
	}
	fi, ci := t.cls.fi, t.cls.idx
	cc := c.in(fi)
	for _, bi := range fi.scopes[ci] {
		b := &fi.f.Bindings[bi]
		if b.Name == s {
			return cc.bindingType(b, depth+1)
		}
	}
	for _, k := range fi.children[ci] {
		for _, bi := range fi.scopes[k] {
			b := &fi.f.Bindings[bi]
			if isFieldName(b.Name, s) {
				return cc.bindingType(b, depth+1)
			}
		}
	}
	for _, b := range c.bases(t, depth) {
		if ft := c.fieldType(b, s, depth+1); ft.known() {
			return ft
		}
	}
	return typ{}
}

// skipClassBody returns scope s of a lookup from scope from, or the scope
// around s when s is a class body around from: class bodies do not scope
// their methods' variables.
func skipClassBody(defs []facts.Def, s, from int) int {
	if s >= 0 && defs[s].Kind == facts.Class && s != from {
		if s = defs[s].Parent; s < 0 {
			s = -1
		}
	}
	return s
}

// localVar finds the innermost binding of name visible from scope.
func (c *callCtx) localVar(scope int, name string, depth int) (typ, bool) {
	fi := c.fi
	defs := fi.f.Defs
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		var external typ
		hasExternal := false
		from, to := c.live(s, name)
		for _, bi := range fi.bindingsNamed(s, name) {
			b := &fi.f.Bindings[bi]
			if b.Name == name && !dead(b, from, to) {
				t := c.bindingType(b, depth+1)
				if t.known() {
					// A declared or constructed value is an instance; one
					// assigned from another name is what that name is (a
					// class or function object too).
					if b.FromExpr == "" {
						t.instance = true
					}
					return t, true
				}
				if t.via != nil && (b.Type != "" || b.FromExpr != "") && !hasExternal {
					external, hasExternal = t, true
				}
			}
		}
		if s >= 0 && defs[s].Anonymous() && family(fi.f.Lang) == "js" {
			// A callback's untyped parameter: typed by what the callee
			// it is handed to declares (operate((source, subscriber) =>
			// ...)), or an array method's element.
			if pos, ok := paramPos(defs[s].Signature, name); ok && paramType(paramText(defs[s].Signature, pos)) == "" {
				if ts := c.elementParam(s, pos, depth+1); len(ts) == 1 && ts[0].cls.valid() {
					t := ts[0]
					t.instance = true
					return t, true
				}
			}
		}
		if hasExternal {
			// Declared only with a type from outside the workspace
			// (newSet *goflag.FlagSet), or a value taken from a module
			// there (var mime = send.mime): its methods are not ours. A
			// binding of the same name with a known type wins (a closure's
			// parameter r *http.Request beside r := NewRouter()).
			return external, true
		}
		if s < 0 {
			return typ{}, false
		}
	}
}

// bindingType computes the type a binding holds.
func (c *callCtx) bindingType(b *facts.Binding, depth int) typ {
	if depth > maxDepth {
		return typ{}
	}
	if c.use.line != 0 {
		// its value is read there (set and restored without a defer:
		// this runs for most names typed)
		old := c.use
		c.use = readAt{c.fi, b.Scope, b.Line}
		t := c.bindingTypeHere(b, depth)
		c.use = old
		return t
	}
	return c.bindingTypeHere(b, depth)
}

// bindingTypeHere is bindingType once where the value is read is set.
func (c *callCtx) bindingTypeHere(b *facts.Binding, depth int) typ {
	if b.Type != "" {
		t := c.typeName(c.fi, b.Scope, b.Type, depth+1)
		if !t.known() && c.fi.f.Lang == "python" && pyScalarTypes[b.Type] {
			// path: str: a value of Python's own (path.splitlines() is
			// str's), unless the file names a class str (typeName).
			return typ{name: b.Type, instance: true, conf: graph.Resolved}
		}
		t.instance = true
		if t.conf == 0 || t.conf > graph.Resolved {
			t.conf = graph.Resolved
		}
		return t
	}
	if b.FromExpr == facts.ObjectLiteral && b.Scope >= 0 && family(c.fi.f.Lang) == "js" && c.fi.f.Defs[b.Scope].Kind == facts.Func {
		// this.out = { write(s) {...} } in a constructor: the object's
		// methods are the constructor's definitions (constructor.write).
		return typ{cls: defRef{c.fi, b.Scope}, name: c.fi.f.Defs[b.Scope].Name, ctx: c.fi, instance: true, conf: graph.Inferred}
	}
	if base, ok := strings.CutSuffix(b.FromExpr, "[]"); ok && base != "" && !strings.ContainsAny(base, ".()[]") {
		// for w in items: an element of items, as its annotation says
		// (items: list[Widget] binds items[] to Widget).
		if c.steps == nil {
			steps := flowSteps
			c.steps = &steps
			defer func() { c.steps = nil }()
		}
		for _, v := range c.valuesOf(b.Scope, b.FromExpr, depth+1) {
			if v.cls.valid() && v.instance {
				v.conf = graph.Inferred
				return v
			}
		}
		return typ{}
	}
	if b.FromExpr != "" {
		t := c.typeOf(b.Scope, b.FromExpr, depth+1)
		if t.module != nil {
			return typ{}
		}
		t.conf = graph.Inferred // typed from a value, not declared
		return t
	}
	call := b.FromCall
	// Ruby X.new, Rust T::new / T.default: the receiver type.
	recv, fn := "", call
	if i := strings.LastIndexByte(call, '.'); i > 0 {
		recv, fn = call[:i], call[i+1:]
	}
	if recv != "" && fn == "new" && c.fi.f.Lang == "ruby" {
		t := c.typeName(c.fi, b.Scope, recv, depth+1)
		t.instance, t.conf = true, graph.Inferred
		return t
	}
	var target defRef
	if recv == "" {
		if family(c.fi.f.Lang) == "js" {
			// const log = createLogger(...) with createLogger a module
			// bound by require: what the module exports.
			target, _ = c.callable(b.Scope, fn, depth+1)
		} else {
			target, _ = c.lookupName(c.fi, b.Scope, fn, false, depth+1)
		}
	} else {
		rt := c.typeOf(b.Scope, recv, depth+1)
		if fn == "bind" && rt.fn.valid() && family(c.fi.f.Lang) == "js" {
			return rt // f.bind(thisArg): calling the result runs f
		}
		switch {
		case rt.module != nil:
			target, _ = c.inModule(rt.module, fn, depth+1)
		case rt.known():
			target, _ = c.methodOf(rt, fn, depth+1)
		}
	}
	if !target.valid() && c.fi.f.Lang == "python" && (recv == "" && pyBuiltinResults[fn] || isPyStringLiteral(recv)) {
		// fh = open(path), d = dict(...): a value of Python's own, whose
		// methods (fh.readlines(), d.update()) are not the project's.
		return typ{name: fn + "()", instance: true, conf: graph.Resolved}
	}
	switch {
	case target.isClass():
		return typ{cls: target, name: target.def().Name, ctx: target.fi, instance: true, conf: graph.Inferred}
	case target.isFunc():
		d := target.def()
		if d.Result == "" {
			return typ{}
		}
		if d.Result == "={}" && family(target.fi.f.Lang) == "js" {
			// A factory returning an object literal (`return { info() {},
			// child() {} }`): the result's methods are the functions
			// defined in the factory (createLogger.info).
			return typ{cls: target, name: d.Name, ctx: target.fi, instance: true, conf: graph.Inferred}
		}
		if expr, ok := strings.CutPrefix(d.Result, "="); ok {
			// An undeclared result: the type of what the body returns,
			// seen from inside the function. The hop costs no extra
			// depth (typeOf counts its own): factory chains three
			// deep stay within maxDepth, and a self-referring result
			// still ends.
			t, ok := c.results[target]
			if !ok {
				t = c.in(target.fi).typeOf(target.idx, expr, depth)
				// Typed with most of the depth left: the same answer a
				// later lookup would get. (Deeper ones may be cut short.)
				if depth <= 2 && c.results != nil {
					c.results[target] = t
				}
			}
			if t.fn.valid() {
				// A factory of functions: get_handler() returns
				// handle_default; calling the result calls it.
				t.conf = graph.Inferred
				return t
			}
			if !t.known() || t.module != nil {
				return typ{}
			}
			t.instance, t.conf = true, graph.Inferred
			return t
		}
		t := c.in(target.fi).typeName(target.fi, target.idx, d.Result, depth+1)
		t.instance, t.conf = true, graph.Inferred
		return t
	}
	return typ{}
}

// typeOf resolves a receiver expression ("x", "self.repo", "pkg", "a.b",
// "Cls()", "Type::assoc") to a type.
func (c *callCtx) typeOf(scope int, expr string, depth int) typ {
	if depth > maxDepth {
		return typ{}
	}
	expr = strings.ReplaceAll(strings.ReplaceAll(expr, "::", "."), "->", ".")
	expr = strings.TrimPrefix(expr, "&")
	for len(expr) > 1 && expr[0] == '(' && closing(expr, 0) == len(expr)-1 {
		expr = expr[1 : len(expr)-1] // (expr)
	}
	if t, ok := c.elementOf(scope, expr, depth); ok {
		return t
	}
	if t, ok := c.resultItem(scope, expr, depth); ok {
		return t
	}
	// A call receiver: Cls(x).m(), new Foo().m(), make_parser().parse():
	// the type of what the call returns.
	if strings.Contains(expr, "(") {
		if b := c.fi.binds[expr]; b != nil && b.name == "" && len(b.files) > 0 {
			// require('./a').f(): the import names the module there.
			return typ{module: b.files, via: b, conf: graph.Resolved}
		}
		i := strings.IndexByte(expr, '(')
		head := strings.TrimSpace(strings.TrimPrefix(expr[:i], "new "))
		if closing(expr, i) == len(expr)-1 && head != "" && !strings.ContainsAny(head, "()[]{} \"'") {
			if !strings.Contains(head, ".") && c.isParam(scope, head) {
				return typ{} // new View() with View a parameter: whatever is passed
			}
			if strings.HasPrefix(expr, "new ") && !strings.Contains(head, ".") {
				// new X(...).m(): X as a class in scope (imported by
				// default too); `new this(...)` in a static method.
				if c.fi.lang.isSelf(head) {
					if cls, ok := c.enclosingClass(scope); ok && cls.cls.valid() {
						cls.instance, cls.conf = true, graph.Inferred
						return cls
					}
				}
				if ref, conf := c.callable(scope, head, depth+1); ref.isClass() {
					return typ{cls: ref, name: head, ctx: ref.fi, instance: true, conf: min(conf, graph.Resolved)}
				}
			}
			if (head == "cast" || head == "typing.cast") && c.fi.f.Lang == "python" {
				// typing.cast(IniParser, x).parse(): the type it names
				arg := expr[i+1 : len(expr)-1]
				if k := strings.IndexByte(arg, ','); k > 0 {
					t := c.typeName(c.fi, scope, strings.TrimSpace(arg[:k]), depth+1)
					if t.cls.valid() {
						t.instance, t.conf = true, graph.Resolved
						return t
					}
				}
				return typ{}
			}
			b := facts.Binding{Name: "", FromCall: head, Scope: scope}
			if t := c.bindingType(&b, depth+1); t.known() {
				return t
			}
		}
		return typ{}
	}
	if strings.ContainsAny(expr, "[]{} \"'+*?!") || expr == "" {
		return typ{}
	}
	// Python `import a.b.c` binds the whole dotted name.
	if b := c.fi.binds[expr]; b != nil && b.name == "" {
		if len(b.files) == 0 {
			return typ{via: b}
		}
		return typ{module: b.files, via: b, conf: graph.Resolved}
	}
	// Rust paths name modules first: a::b::f().
	if c.fi.f.Lang == "rust" {
		segs := strings.Split(expr, ".")
		if m, n := c.r.rustResolve(c.fi, segs); m != nil && n == len(segs) {
			return typ{module: []*fileInfo{m}, conf: graph.Resolved}
		}
	}
	// The segments one at a time (a receiver is typed for most calls:
	// no slice of them is made).
	first, rest, more := strings.Cut(expr, ".")
	cur := c.atom(scope, first, depth)
	if !cur.known() && more && !strings.Contains(rest, ".") && family(c.fi.f.Lang) == "js" {
		// const store = { add(n) {} }: store.add as a value (passed,
		// stored, bound) is that function.
		if ref, ok := c.objectMethod(scope, first, rest); ok {
			return typ{fn: ref, conf: graph.Resolved}
		}
	}
	for more {
		var seg string
		seg, rest, more = strings.Cut(rest, ".")
		if !cur.known() {
			return typ{via: cur.via}
		}
		cur = c.member(cur, seg, depth+1)
	}
	return cur
}

// takers are the array methods whose result is one of the elements.
var takers = map[string]bool{"shift": true, "pop": true, "at": true, "find": true, "findLast": true}

// elementOf types an expression that takes one element of a container
// whose element type is declared: `windows.shift()!`, `this.handlers[0]`,
// `items.pop()`, `this.options.find((o) => ...)` (TypeScript `T[]`,
// JSDoc `@type {T[]}`, Python `list[T]`). ok is false when expr is no
// such expression.
func (c *callCtx) elementOf(scope int, expr string, depth int) (typ, bool) {
	lang := family(c.fi.f.Lang)
	if lang != "js" && lang != "python" {
		return typ{}, false
	}
	e := strings.TrimSuffix(expr, "!")
	var base string
	switch {
	case strings.HasSuffix(e, "]"):
		open := strings.LastIndexByte(e, '[')
		if open <= 0 || closing(e, open) != len(e)-1 {
			return typ{}, false
		}
		base = e[:open]
	case strings.HasSuffix(e, ")"):
		open := strings.IndexByte(e, '(')
		dot := strings.LastIndexByte(e[:max(open, 0)], '.')
		if open <= 0 || dot <= 0 || closing(e, open) != len(e)-1 || !takers[e[dot+1:open]] {
			return typ{}, false
		}
		base = e[:dot]
	default:
		return typ{}, false
	}
	if base == "" || strings.ContainsAny(base, "()[]{} \"'+*?!") {
		return typ{}, false
	}
	t := c.elemType(scope, base, depth)
	if !t.cls.valid() {
		// not a container of known elements: stack.pop() may be a
		// method of the workspace, typed the usual way
		return typ{}, false
	}
	t.instance = true
	return t, true
}

// elemType is the declared type of the elements of container base (a
// local name or a field of this/self): `xs: T[]`, `/** @type {T[]} */
// this.xs`, `self.xs: list[T]`.
func (c *callCtx) elemType(scope int, base string, depth int) typ {
	if field, ok := cutSelf(c.fi, base); ok {
		if strings.Contains(field, ".") {
			return typ{}
		}
		if cls, ok := c.enclosingClass(scope); ok {
			return c.fieldType(cls, field+"[]", depth+1)
		}
		return typ{}
	}
	if strings.Contains(base, ".") {
		return typ{}
	}
	t, _ := c.localVar(scope, base+"[]", depth+1)
	return t
}

// resultItem types `f()[i]`, the ith item of what function f returns when
// its body returns a tuple of names (`return increment, reset, peek`,
// unpacked as `inc, reset, peek = make_counter()`): the function or
// class that name holds in f. ok is false when expr is no such
// expression.
func (c *callCtx) resultItem(scope int, expr string, depth int) (typ, bool) {
	if c.fi.f.Lang != "python" || !strings.HasSuffix(expr, "]") {
		return typ{}, false
	}
	open := strings.LastIndexByte(expr, '[')
	paren := strings.IndexByte(expr, '(')
	if open <= 0 || paren <= 0 || closing(expr, paren) != open-1 {
		return typ{}, false
	}
	n, err := strconv.Atoi(expr[open+1 : len(expr)-1])
	head := expr[:paren]
	if err != nil || n < 0 || head == "" || strings.ContainsAny(head, "()[]{} \"'") {
		return typ{}, true
	}
	var target defRef
	if !strings.Contains(head, ".") {
		target, _ = c.lookupName(c.fi, scope, head, false, depth+1)
	} else {
		k := strings.LastIndexByte(head, '.')
		if rt := c.typeOf(scope, head[:k], depth+1); rt.known() {
			if rt.module != nil {
				target, _ = c.inModule(rt.module, head[k+1:], depth+1)
			} else {
				target, _ = c.methodOf(rt, head[k+1:], depth+1)
			}
		}
	}
	if !target.isFunc() {
		return typ{}, true
	}
	items := strings.Split(strings.TrimPrefix(target.def().Result, "="), ",")
	if !strings.HasPrefix(target.def().Result, "=") || len(items) < 2 || n >= len(items) {
		return typ{}, true
	}
	item := strings.TrimSpace(items[n])
	if item == "" || strings.ContainsAny(item, "()[]{} \"'") {
		return typ{}, true
	}
	t := c.in(target.fi).typeOf(target.idx, item, depth+1)
	if t.module != nil {
		return typ{}, true
	}
	t.conf = graph.Inferred
	return t, true
}

// cutSelf cuts `this.` or `self.` from a receiver expression.
func cutSelf(fi *fileInfo, expr string) (string, bool) {
	for _, s := range fi.lang.self {
		if rest, ok := strings.CutPrefix(expr, s+"."); ok {
			return rest, true
		}
	}
	return "", false
}

// closing returns the index of the bracket that closes the one at open in
// s, or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// onlyTop returns the file's top-level definition when it has exactly one
// name at top level (anonymous functions do not count).
func (fi *fileInfo) onlyTop() (int, bool) {
	found, n := -1, 0
	for name, ks := range fi.top {
		if facts.IsAnonName(name) {
			continue
		}
		if n++; n > 1 {
			return -1, false
		}
		found = ks[0]
		if lastWins(fi) {
			found = ks[len(ks)-1]
		}
	}
	return found, n == 1
}

// topDef is the top-level definition a use of name binds to when the file
// defines it more than once: the last one where later definitions replace
// earlier ones (lastWins), else the first.
func (fi *fileInfo) topDef(name string) (int, bool) {
	ks := fi.top[name]
	if len(ks) == 0 {
		return -1, false
	}
	if len(ks) > 1 && lastWins(fi) {
		return ks[len(ks)-1], true
	}
	return ks[0], true
}

// resolveCallback binds an anonymous function handed to a callee outside
// its file (facts.CallbackRecv): a callee outside the workspace
// (arr.forEach(fn), it('...', fn), new Promise(fn)) is expected to call
// it, from where it is passed (an inferred call). A callee of another file
// of the workspace calls it from there, which is not followed across
// files: the passing place only names it (ref: a reference edge).
func (c *callCtx) resolveCallback(call *facts.Call) (defRef, graph.Confidence, bool) {
	ref, _ := c.callable(call.Caller, call.Name, 0)
	if !ref.isFunc() {
		return defRef{}, 0, false
	}
	name, _ := facts.CallbackCallee(call.Recv)
	callee := facts.Call{Name: name, Caller: call.Caller, Line: call.Line}
	if i := strings.LastIndexByte(callee.Name, '.'); i > 0 {
		callee.Recv, callee.Name = callee.Name[:i], callee.Name[i+1:]
	}
	if callee.Name != "" && !strings.ContainsAny(callee.Name, "()[]{}") {
		if to, conf := c.resolveCall(&callee); to.valid() && conf > graph.NameMatch {
			return ref, graph.Resolved, true
		}
	}
	return ref, graph.Inferred, false
}
