package parse

import (
	"cmp"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// addRefs turns the names captured in value positions (arguments,
// right-hand sides, table entries, returned values) into reference facts
// (Call with Ref set) for those that may name a function: the last segment
// is the name of a function defined in this file or of an imported
// symbol. Most arguments are plain variables; keeping only these spares
// the resolver and the store millions of lookups that could find nothing,
// at the cost of references to functions of other files under names not
// imported here (a Go package's functions defined in a sibling file).
func (x *extractor) addRefs() {
	if len(x.refCands) == 0 {
		return
	}
	names := map[string]bool{}
	for _, d := range x.f.Defs {
		if d.Kind == facts.Func {
			names[d.Name] = true
		}
	}
	quals := map[string]bool{} // Go: the packages a selector may name
	for _, im := range x.f.Imports {
		if im.Alias != "" {
			names[im.Alias] = true
			quals[im.Alias] = true
		}
		if im.Name != "" {
			names[im.Name] = true
		}
		if i := strings.LastIndexByte(im.Spec, '/'); i >= 0 {
			quals[im.Spec[i+1:]] = true
		} else {
			quals[im.Spec] = true
		}
	}
	// Go code names the exported functions of its package's other files
	// bare (a test's r.Use(RealIP)), and those of imported packages as
	// pkg.F: those are kept whatever their name (variables and parameters
	// are dropped later, by scope). Unexported names from other files are
	// not: most are variables, and keeping them costs the index more than
	// they find.
	goNames := x.s.lang.Name == "go"
	// Several patterns may capture one node: keep it once.
	sort.Slice(x.refCands, func(i, j int) bool {
		a, b := &x.refCands[i], &x.refCands[j]
		return a.start < b.start || a.start == b.start && a.end < b.end
	})
	for k, n := range x.refCands {
		if k > 0 && x.refCands[k-1].start == n.start && x.refCands[k-1].end == n.end {
			continue
		}
		text := x.valueText(&n)
		recv, name := "", text
		if i := strings.LastIndexByte(text, '.'); i >= 0 {
			recv, name = text[:i], text[i+1:]
		}
		known := names[name] || goNames && (recv == "" && token.IsExported(name) || quals[recv])
		if name == "" || !known || strings.ContainsAny(recv, "()[]{}\"'") {
			continue
		}
		x.callList = append(x.callList, callBuild{
			Call: facts.Call{Name: x.in(name), Recv: x.in(recv), Ref: true, Line: n.line()},
			pos:  n.start,
		})
	}
}

// dropShadowedRefs removes the bare-name references made where a variable
// or parameter of that name is in scope (textwrap's `indent = ...` inside
// a function, beside the module's indent()): the name is the variable
// there. Scopes are the enclosing definitions and the module; encl
// attributes positions to their innermost definition as attribute does.
func (x *extractor) dropShadowedRefs(encl func([]uint32, func(i, def int))) {
	if len(x.locals) == 0 {
		return
	}
	hasRef := false
	for i := range x.f.Calls {
		if x.f.Calls[i].Ref && x.f.Calls[i].Recv == "" {
			hasRef = true
			break
		}
	}
	if !hasRef {
		return
	}
	type local struct {
		name  string
		scope int
	}
	shadow := map[local]bool{}
	// Only names some bare reference uses matter.
	used := map[string]bool{}
	for i := range x.f.Calls {
		if c := &x.f.Calls[i]; c.Ref && c.Recv == "" {
			used[c.Name] = true
		}
	}
	var pos []uint32
	var which []int
	for i, l := range x.locals {
		if !x.defNames[l.start] && used[string(x.src[l.start:l.end])] {
			pos = append(pos, l.start)
			which = append(which, i)
		}
	}
	encl(pos, func(i, d int) {
		l := x.locals[which[i]]
		shadow[local{string(x.src[l.start:l.end]), d}] = true
	})
	defs := x.f.Defs
	keep := x.f.Calls[:0]
	for _, c := range x.f.Calls {
		if c.Ref && c.Recv == "" {
			shadowed := false
			for s := c.Caller; ; s = defs[s].Parent {
				if shadow[local{c.Name, s}] {
					shadowed = true
					break
				}
				if s < 0 {
					break
				}
			}
			if shadowed {
				continue
			}
		}
		keep = append(keep, c)
	}
	x.f.Calls = keep
}

// goBuiltinTypes are the predeclared types: values made of them say
// nothing about the workspace's types.
var goBuiltinTypes = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
}

// addInsts turns the types values are made of (Go: T{}, &T{}, new(T),
// (*T)(x), var x T) into instantiation facts (Call with Ref and New set:
// the function makes a value of the type). The tests search uses them to
// tell which implementations of an interface a test can reach (a test
// that never makes a float32Value never runs float32Value.String through
// the Value interface). Conversions T(x) look like calls here; the
// resolver adds those.
func (x *extractor) addInsts() {
	if len(x.instCands) == 0 {
		return
	}
	sort.Slice(x.instCands, func(i, j int) bool { return x.instCands[i].start < x.instCands[j].start })
	for k := range x.instCands {
		c := &x.instCands[k]
		if k > 0 && x.instCands[k-1].start == c.start {
			continue
		}
		text := strings.TrimLeft(x.squeezed(c), "*")
		recv, name := "", text
		if i := strings.LastIndexByte(text, '.'); i >= 0 {
			recv, name = text[:i], text[i+1:]
		}
		if name == "" || strings.ContainsAny(text, "()[]{}\"'") || recv == "" && goBuiltinTypes[name] {
			continue
		}
		x.callList = append(x.callList, callBuild{
			Call: facts.Call{Name: x.in(name), Recv: x.in(recv), Ref: true, New: true, Line: c.line()},
			pos:  c.start,
		})
	}
}

// argCand is a name passed as an argument: to the call whose callee is
// callee, in the argument list list (its position counted there) or under
// keyword kw; with neither, the name is a decorated definition (the
// decorator's first argument).
type argCand struct {
	callee, value cnode
	listStart     uint32 // where the argument list starts (hasList)
	hasList       bool
	kw            string
	// factory: the callee is a decorator factory (@retry(3)) and what it
	// returns gets the value ("retry()()#0").
	factory bool
	// elem: the value is an element of a list literal passed
	// (`compose([logger, router])` binds "compose()#0[]").
	elem bool
}

// addArgFlows records the functions and classes passed as arguments as
// bindings of the callee's parameters: `apply(square, 2)` binds
// "apply()#0" to square, `run(callback=notify)` binds "run()#=callback",
// a method call `obj.m(f)` binds ".m()#0", `@retry def fetch` binds
// "retry()#0" to fetch and `@retry(3) def fetch` "retry()()#0". The resolver reads them when a parameter is
// called inside the callee (`def apply(func, *a): func(*a)`), within the
// file: only calls of this file's functions are kept, passing names that
// may be functions or classes (defined in this file or imported).
func (x *extractor) addArgFlows() {
	if len(x.argCands) == 0 && !x.hasElems {
		x.keepElementReads(nil)
		return
	}
	names := map[string]bool{}
	funcs := map[string]bool{} // the callees whose parameters the resolver reads: this file's
	for _, d := range x.f.Defs {
		names[d.Name] = true
		funcs[d.Name] = true // functions, and classes (their constructors)
	}
	imported := map[string]bool{} // names imported from other modules: their callees' parameters take values from here too
	for _, im := range x.f.Imports {
		if im.Alias != "" {
			names[im.Alias] = true
			if isJS(x.f.Lang) && im.Kind != "reexport" && im.Kind != "reexport_default" {
				// const compose = require('./compose'), import compose from
				// './compose', const { run: go } = require(...)
				imported[im.Alias] = true
			}
		}
		if im.Name != "" {
			names[im.Name] = true
			if im.Alias == "" && (x.f.Lang == "python" || isJS(x.f.Lang) && im.Kind != "reexport") {
				imported[im.Name] = true
			}
		}
	}
	if x.hasElems {
		// What containers hold and generators yield matters only when
		// it may be a function or a class.
		var bound map[string]bool // names bound in the file, for the returns
		for _, b := range x.binds {
			if b.Name == facts.ReturnName {
				bound = map[string]bool{}
				for _, o := range x.binds {
					bound[o.Name] = true
				}
				break
			}
		}
		keep := x.binds[:0]
		for _, b := range x.binds {
			if (strings.HasSuffix(b.Name, "]") || strings.Contains(b.Name, "[].") || b.Name == facts.ReturnName) && b.Type == "" && !strings.HasSuffix(b.FromExpr, "[]") {
				last := b.FromExpr
				if i := strings.LastIndexByte(last, '.'); i >= 0 {
					last = last[i+1:]
				}
				if !names[last] && (last != b.FromExpr || !x.paramOf(b.pos, last)) &&
					(b.Name != facts.ReturnName || last != b.FromExpr || !bound[last]) {
					// (a function returns a name bound in the file:
					// handler_cls = StaticHandler ... return handler_cls)
					continue
				}
			}
			keep = append(keep, b)
		}
		x.binds = keep
	}
	// Containers the file fills with functions or classes (steps[],
	// this.middleware[]): passed by name, they pass those (run(steps),
	// compose(this.middleware)).
	containers := map[string]bool{}
	for _, b := range x.binds {
		if head, ok := strings.CutSuffix(b.Name, "[]"); ok {
			containers[head] = true
		} else if i := strings.Index(b.Name, "[]."); i > 0 {
			containers[b.Name[:i]] = true // plugins[].transform
		}
	}
	x.keepElementReads(containers)
	// In the order of the values in the file, as query patterns that end
	// at the value give them (callFlow gives a call's all at once).
	slices.SortStableFunc(x.argCands, func(a, b argCand) int { return cmp.Compare(a.value.start, b.value.start) })
	seen := map[string]bool{}
	var boundNames map[string]bool // made on first use (see instanceArg)
	for _, a := range x.argCands {
		value := x.valueText(&a.value)
		last := value
		if i := strings.IndexByte(value, '('); i > 0 && strings.HasSuffix(value, ")") {
			// process(req, build_pipeline()): what the call returns
			last = value[:i]
			if strings.ContainsAny(last, ".()[]{} \"'") {
				continue
			}
		} else if i := strings.LastIndexByte(value, '.'); i >= 0 {
			last = value[i+1:]
		}
		if head, ok := containerOf(value); ok {
			// run(handlers["a"]): an element of a container the file fills
			if !containers[head] || len(value) > 120 {
				continue
			}
		} else if len(value) > 120 || !names[last] && !containers[value] && !x.instanceArg(&a, value, &boundNames) {
			continue
		}
		callee := x.squeezed(&a.callee)
		prefix := ""
		if i := strings.LastIndexByte(callee, '.'); i >= 0 {
			callee, prefix = callee[i+1:], "."
		}
		if x.isAnon(&a.value) {
			if k := value + "\x00" + strconv.Itoa(int(a.value.start)); !seen[k] {
				seen[k] = true
				x.passAnon(&a, funcs[callee])
			}
		}
		if !funcs[callee] && (prefix != "" || !imported[callee]) {
			continue // resolved within the file, or for a function imported by name (see resolve/flow.go)
		}
		slot := "0"
		switch {
		case a.kw != "":
			slot = "=" + a.kw
		case a.hasList && a.listStart < a.value.start:
			slot = strconv.Itoa(argIndex(x.src[a.listStart:a.value.start]))
		}
		if a.factory {
			callee += "()"
		}
		name := prefix + callee + "()#" + slot
		if a.elem {
			name += "[]"
		}
		key := name + "\x00" + value + "\x00" + strconv.Itoa(int(a.callee.start))
		if seen[key] {
			continue
		}
		seen[key] = true
		line := a.value.line()
		if a.factory {
			line = a.callee.line() // where the decorator runs
		}
		x.binds = append(x.binds, bindBuild{
			Binding: facts.Binding{Name: x.in(name), FromExpr: x.in(value), Line: line},
			pos:     a.callee.start,
		})
	}
}

// keepElementReads drops the bindings of a name to an element of a
// container (fn = middleware[i]) that value flow cannot follow: kept are
// those whose container is a parameter of a function around the binding
// (its callers pass the elements), one of containers (the file fills it
// with functions or classes), or a name bound to a call's result (what the
// function returns).
func (x *extractor) keepElementReads(containers map[string]bool) {
	var called map[string]bool
	keep := x.binds[:0]
	for _, b := range x.binds {
		head, ok := elementRead(b.Name, b.FromExpr)
		if ok && !containers[head] && !x.paramIn(b.pos, head, true) {
			if called == nil {
				called = map[string]bool{}
				for _, o := range x.binds {
					if o.FromCall != "" {
						called[o.Name] = true
					}
				}
			}
			if !called[head] {
				continue
			}
		}
		keep = append(keep, b)
	}
	x.binds = keep
}

// elementRead reports whether a binding of name takes an element of a
// named container, expr being `head[key]`, and returns head.
func elementRead(name, expr string) (string, bool) {
	if strings.ContainsAny(name, "[.") {
		return "", false
	}
	return containerOf(expr)
}

// containerOf returns head when expr takes one element of a named
// container, `head[key]` (not a loop variable's `head[]`, every element).
func containerOf(expr string) (string, bool) {
	if !strings.HasSuffix(expr, "]") || strings.HasSuffix(expr, "[]") {
		return "", false
	}
	i := strings.IndexByte(expr, '[')
	if i <= 0 || strings.ContainsAny(expr[:i], "()[]{} \"'") {
		return "", false
	}
	return expr[:i], true
}

// argIndex counts the arguments before the end of head, the text of an
// argument list from its opening bracket: the top-level commas, outside
// nested brackets and string literals.
func argIndex(head []byte) int {
	n, depth := 0, 0
	var quote byte
	for i := 1; i < len(head); i++ {
		ch := head[i]
		switch {
		case quote != 0:
			if ch == '\\' {
				i++
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case ch == ',' && depth == 0:
			n++
		}
	}
	return n
}

// paramOf reports whether name is a parameter of the innermost function
// holding pos (`def add_done_callback(self, fn): self._callbacks.append(fn)`:
// the container holds what the function's callers pass).
func (x *extractor) paramOf(pos uint32, name string) bool {
	return x.paramIn(pos, name, false)
}

// paramIn reports whether name is a parameter of the innermost function
// holding pos or, with outer, of one around it (a closure reading its
// outer function's parameter).
func (x *extractor) paramIn(pos uint32, name string, outer bool) bool {
	defs := x.f.Defs
	// The last definition starting before pos; the functions holding pos
	// are it or its parents (definitions nest).
	for in := sort.Search(len(defs), func(i int) bool { return uint32(defs[i].StartByte) > pos }) - 1; in >= 0; in = defs[in].Parent {
		if defs[in].Kind != facts.Func || pos >= uint32(defs[in].EndByte) {
			continue
		}
		if sigHasParam(defs[in].Signature, name) {
			return true
		}
		if !outer {
			return false
		}
	}
	return false
}

// sigHasParam reports whether a function signature as written names
// parameter name (`def f(self, fn=None)`, `function (req, next)`).
func sigHasParam(sig, name string) bool {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return false
	}
	for rest := sig[open+1:]; rest != ""; {
		item := rest
		if k := strings.IndexByte(rest, ','); k >= 0 {
			item, rest = rest[:k], rest[k+1:]
		} else {
			rest = ""
		}
		if k := strings.IndexAny(item, ":=)"); k >= 0 {
			item = item[:k]
		}
		if strings.TrimSpace(item) == name {
			return true
		}
	}
	return false
}

// instanceArg reports whether an argument that names no function or
// class may still pass one, or (Python) an instance whose methods the
// callee calls:
// a parameter of the function around the call, or a name the file binds
// to a call of a class, CapWords by convention (`h = RequestHandler(path);
// handle(h, cmd)`). bound caches those names.
func (x *extractor) instanceArg(a *argCand, value string, bound *map[string]bool) bool {
	if a.factory || value == "" || strings.ContainsAny(value, ".()[]{} \"'") || x.isAnon(&a.value) {
		return false
	}
	if isJS(x.f.Lang) {
		// a callback handed on: eachSeries(tasks, step, done) inside
		// waterfall(tasks, done) passes what waterfall's callers pass
		return x.paramOf(a.value.start, value)
	}
	if x.f.Lang != "python" {
		return false
	}
	if value == "self" {
		// Base.__init__(self, ...) passes self where a bound call
		// passes the first parameter: it would land on the wrong one
		return false
	}
	if x.paramOf(a.value.start, value) {
		return true
	}
	if *bound == nil {
		*bound = map[string]bool{}
		for _, b := range x.binds {
			// instances: names bound to a call of a class (CapWords)
			if last := b.FromCall[strings.LastIndexByte(b.FromCall, '.')+1:]; last != "" && last[0] >= 'A' && last[0] <= 'Z' {
				(*bound)[b.Name] = true
			}
		}
	}
	return (*bound)[value]
}
