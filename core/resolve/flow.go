package resolve

import (
	"strings"

	"github.com/ccd-dev/ccd/core/compat"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Value flow (Python, JavaScript/TypeScript): the functions and classes a
// called name may hold beyond the one the call binds to. A name may be
// bound several times (both arms of a conditional, tuple unpacking in
// branches; a straight-line binding replaces those before it), a
// container's elements are bound as name[] (x = [f, g]; a loop variable
// over it takes them) and under their literal keys, a parameter holds
// what the call sites of its function pass (bindings "apply()#0" and
// "run()#=callback" made by the extractor; a decorator passes the
// function it decorates; see params.go), and a call holds what its
// function returns (returns.go). Flow stays within a file, but for Python
// results and parameters of functions imported from another file, which
// the files' surfaces track. Edges found this way are inferred.

// maxFlow bounds the values one call may reach this way, and flowSteps
// the scopes and bindings one call's search visits (names bound many
// times to names bound many times would otherwise multiply).
const (
	maxFlow   = 16
	flowSteps = 256
)

// flowTargets returns the functions a Python call may run through value
// flow (constructors for classes), beyond what resolveCall binds (with
// confidence bound, 0 when it bound nothing).
func (c *callCtx) flowTargets(call *facts.Call, bound graph.Confidence) []defRef {
	if call.Ref || call.New || !c.mayFlow(call, bound) {
		return nil
	}
	steps := flowSteps
	c.steps = &steps
	defer func() { c.steps = nil }()
	if c.fi.f.Lang == "python" {
		defer c.readAt(call.Caller, call.Line)()
	}
	var vals []typ
	switch {
	case c.fi.lang.isSelf(call.Recv):
		vals = c.fieldValues(call.Caller, call.Recv, call.Name)
	case call.Recv == "":
		vals = c.valuesOf(call.Caller, call.Name, 0)
	case call.Name == "__call__":
		if vs, ok := c.entryValues(call.Caller, call.Recv, 0); ok {
			vals = vs
		} else if vs, ok := c.getattrValues(call.Caller, call.Recv, 0); ok {
			vals = vs // getattr(self, "visit_" + kind)(node)
		} else if c.fi.f.Lang == "python" && isCallExpr(call.Recv) {
			// select_renderer(style)(text), curry(a)(b)(c): what the
			// called function returns
			vals = c.callResults(call.Caller, calleeOf(call.Recv), 0)
		}
	case invokes(c.fi, call):
		// fn.apply(this, args), fn.call(x): what fn holds.
		vals = c.valuesOf(call.Caller, call.Recv, 0)
	case c.fi.f.Lang == "python":
		// handler = klass(path); handler.handle(), model(name).display():
		// the methods of the instances the receiver may be
		return c.instanceMethods(call, bound)
	case c.fi.elemProps:
		// for (const plugin of plugins) plugin.transform(out): what the
		// objects of plugins hold under transform
		vals = c.elemPropValues(call.Caller, call.Recv, call.Name)
	default:
		return nil
	}
	var out []defRef
	seen := map[defRef]bool{}
	for _, t := range vals {
		ref, _, ok := c.callValue(t)
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
		if len(out) == maxFlow {
			break
		}
	}
	if call.Arity > 0 && len(out) > 1 {
		out = byArity(out, int(call.Arity)-1)
	}
	return out
}

// byArity keeps the functions among refs that a Python call passing n
// positional arguments (and nothing else) can call: `OPERATORS[tok](x)`
// runs the one-argument lambda of the table, not the two-argument ones.
// A method may be held bound or not (`self.handlers[k](x)`, pprint's
// `self._dispatch[k](self, obj, ...)`): it fits either way. When none fits,
// the guess was wrong somewhere else and refs are kept.
func byArity(refs []defRef, n int) []defRef {
	var out []defRef
	for _, r := range refs {
		if fitsArity(r, n) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return refs
	}
	return out
}

func fitsArity(r defRef, n int) bool {
	d := r.def()
	if d.Kind != facts.Func {
		return true
	}
	sig := compat.Parse("python", d.Signature)
	if compat.Fits(sig, compat.Call{Positional: n}) != compat.Breaks {
		return true
	}
	method := d.Parent >= 0 && r.fi.f.Defs[d.Parent].Kind == facts.Class
	return method && compat.Fits(sig, compat.Call{Positional: n, Bound: true}) != compat.Breaks
}

// iteratedCall returns the function whose call expr iterates ("gen" for
// "gen()[]" and "collect(deploy)[]"), a bare name called.
func iteratedCall(expr string) (string, bool) {
	call, ok := strings.CutSuffix(expr, "[]")
	if !ok || !isCallExpr(call) {
		return "", false
	}
	gen := calleeOf(call)
	return gen, gen != "" && !strings.ContainsAny(gen, ".()[]")
}

// entryValues is what an entry of a named container may hold, when expr
// takes one: an element (`table[k]`, under its key when that is a
// literal and the container keyed), or a lookup with .get
// (`table.get(k, default)`: an entry, or the default). ok is false when
// expr is neither.
func (c *callCtx) entryValues(scope int, expr string, depth int) (vals []typ, ok bool) {
	if head, ok := elementOf(expr); ok {
		key, keyOK := facts.ElemKey(expr[len(head)+1 : len(expr)-1])
		if keyOK && c.keyed(head) {
			vals = c.valuesOf(scope, head+"["+key+"]", depth)
		}
		if len(vals) == 0 {
			vals = c.valuesOf(scope, head+"[]", depth)
		}
		if len(vals) == 0 && c.fi.f.Lang == "python" {
			// handlers = make(); handlers["a"](x): what make returns
			if call := c.boundCall(scope, head); call != "" {
				vals = c.callElems(scope, call, key, depth)
			}
		}
		return vals, true
	}
	if c.fi.f.Lang == "python" && strings.HasSuffix(expr, "]") {
		// make()["a"](x), lst()[0](x): an element of what make returns
		if i := strings.LastIndexByte(expr, '['); i > 0 && closing(expr, i) == len(expr)-1 && isCallExpr(expr[:i]) {
			key, _ := facts.ElemKey(expr[i+1 : len(expr)-1])
			return c.callElems(scope, calleeOf(expr[:i]), key, depth), true
		}
	}
	head, def, ok := lookupOf(expr)
	if !ok {
		return nil, false
	}
	vals = c.valuesOf(scope, head+"[]", depth)
	if def != "" {
		if vs := c.valuesOf(scope, def, depth); len(vs) > 0 {
			vals = append(vals, vs...)
		} else if t := c.typeOf(scope, def, depth); t.fn.valid() || t.cls.valid() && !t.instance {
			vals = append(vals, t) // a function named as the default
		}
	}
	return vals, true
}

// keyed reports whether every element the file puts in container head
// is bound under its key too (CODEC = (encode, decode); table["a"] = f):
// then CODEC[0] holds encode only. A container filled under keys that are
// not literals (table[name] = f) or by append is not.
func (c *callCtx) keyed(head string) bool {
	bs := c.fi.f.Bindings
	elems := head + "[]"
	n := 0
	for i := range bs {
		if bs[i].Name != elems {
			continue
		}
		n++
		twin := i+1 < len(bs) && bs[i+1].Line == bs[i].Line && bs[i+1].FromExpr == bs[i].FromExpr &&
			strings.HasPrefix(bs[i+1].Name, head+"[") && bs[i+1].Name != elems
		if !twin {
			return false
		}
	}
	return n > 0
}

// mayFlow reports cheaply whether value flow can add anything to call:
// the name it calls is bound in the file or is a parameter.
func (c *callCtx) mayFlow(call *facts.Call, bound graph.Confidence) bool {
	fi := c.fi
	switch {
	case fi.lang.isSelf(call.Recv):
		return fi.bound[call.Recv+"."+call.Name]
	case call.Recv == "":
		return fi.bound[call.Name] || c.isParam(call.Caller, call.Name) || fi.f.Lang == "python" && c.inSignature(call.Caller, call.Name)
	case call.Name == "__call__":
		head, ok := elementOf(call.Recv)
		if !ok {
			head, _, ok = lookupOf(call.Recv)
		}
		if !ok && fi.f.Lang == "python" {
			if isCallExpr(call.Recv) {
				return true // make()(x): what make returns
			}
			if i := strings.LastIndexByte(call.Recv, '['); i > 0 && strings.HasSuffix(call.Recv, "]") && isCallExpr(call.Recv[:i]) {
				return true // make()["a"](x): an element of what make returns
			}
		}
		return ok && (fi.bound[head+"[]"] || c.inSignature(call.Caller, head) || fi.f.Lang == "python" && fi.bound[head])
	case invokes(fi, call):
		return fi.bound[call.Recv] || c.isParam(call.Caller, call.Recv)
	case fi.elemProps && family(fi.f.Lang) == "js":
		return !strings.ContainsAny(call.Recv, ".()[]") && fi.bound[call.Recv]
	case fi.f.Lang == "python" && bound < graph.Resolved:
		// a method call whose receiver's type is not known: the
		// instances that flow there (see instanceMethods)
		if isCallExpr(call.Recv) {
			return true
		}
		return !strings.ContainsAny(call.Recv, ".()[]") && (fi.bound[call.Recv] || c.isParam(call.Caller, call.Recv))
	}
	return false
}

// invokes reports whether a JavaScript call runs its receiver, a plain
// name: fn.call(thisArg, ...) and fn.apply(thisArg, args).
func invokes(fi *fileInfo, call *facts.Call) bool {
	return (call.Name == "call" || call.Name == "apply") && family(fi.f.Lang) == "js" &&
		call.Recv != "" && !strings.ContainsAny(call.Recv, ".()[]")
}

// inSignature reports whether name appears in the signature of the
// function at scope or of one around it (a parameter, maybe annotated).
func (c *callCtx) inSignature(scope int, name string) bool {
	defs := c.fi.f.Defs
	for s := scope; s >= 0; s = defs[s].Parent {
		if defs[s].Kind == facts.Func && strings.Contains(defs[s].Signature, name) {
			return true
		}
	}
	return false
}

// elementOf reports whether expr is an element of a named container
// (table[k], self.handlers[name]) and returns the container's name.
func elementOf(expr string) (string, bool) {
	i := strings.IndexByte(expr, '[')
	if i <= 0 || !strings.HasSuffix(expr, "]") || closing(expr, i) != len(expr)-1 {
		return "", false
	}
	head := expr[:i]
	if strings.ContainsAny(head, "()[]{} \"'") {
		return "", false
	}
	return head, true
}

// wrappedIter reports whether an element expression iterates a builtin
// that keeps its argument's elements (`sorted(hooks, key=id)[]`,
// `list(xs)[]`, `reversed(xs)[]`) and returns the argument's name.
func wrappedIter(e string) (string, bool) {
	rest, ok := strings.CutSuffix(e, ")[]")
	if !ok {
		return "", false
	}
	fn, arg, ok := strings.Cut(rest, "(")
	switch fn {
	case "sorted", "list", "reversed", "tuple", "set", "frozenset", "iter":
	default:
		return "", false
	}
	if i := strings.IndexByte(arg, ','); i >= 0 {
		arg = arg[:i]
	}
	if !ok || arg == "" || strings.ContainsAny(arg, ".()[]{} \"'=") {
		return "", false
	}
	return arg, true
}

// lookupOf reports whether expr looks an entry of a named table up with
// .get (`handlers.get(k)`, `HEADER_PARSERS.get(key, parse_generic)`) and
// returns the table's name and the default's text, if any.
func lookupOf(expr string) (head, def string, ok bool) {
	head, args, found := strings.Cut(expr, ".get(")
	if !found || head == "" || strings.ContainsAny(head, "()[]{} \"'") || closing(expr, len(head)+4) != len(expr)-1 {
		return "", "", false
	}
	args = args[:len(args)-1]
	if i := strings.IndexByte(args, ','); i >= 0 {
		def = strings.TrimSpace(args[i+1:])
		if strings.ContainsAny(def, "()[]{},. \"'") {
			def = ""
		}
	}
	return head, def, true
}

// valuesOf returns what name may hold, seen from scope: every binding of
// it in the innermost scope that binds it, followed through names and
// containers, or, for a parameter, what the call sites pass.
func (c *callCtx) valuesOf(scope int, name string, depth int) []typ {
	if depth > maxDepth {
		return nil
	}
	if c.steps != nil {
		if *c.steps <= 0 {
			return nil
		}
		*c.steps--
	}
	fi := c.fi
	if field, ok := cutSelf(fi, name); ok && (fi.f.Lang == "python" || strings.HasSuffix(field, "[]")) && !strings.Contains(strings.TrimSuffix(field, "[]"), ".") {
		// self.steps[]: what any method of the class puts there
		// (self.steps.append(f) in one, `for s in self.steps` in another)
		return c.fieldValues(scope, name[:len(name)-len(field)-1], field)
	}
	defs := fi.f.Defs
	head, _, _ := strings.Cut(name, "[")
	globals := fi.globalElems[name] // filled inside functions (see fileInfo)
	shadowed := false
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		var out []typ
		found := false
		from, to := c.live(s, name)
		for _, bi := range fi.scopes[s] {
			b := &fi.f.Bindings[bi]
			if s >= 0 && len(globals) > 0 && b.Name == head {
				shadowed = true // a local container of that name
			}
			if b.Name != name || dead(b, from, to) {
				continue
			}
			found = true
			if c.steps != nil {
				*c.steps--
			}
			out = append(out, c.bindingValues(b, depth+1)...)
		}
		if s < 0 && !shadowed {
			// The module's container, filled inside functions too.
			for _, bi := range globals {
				found = true
				out = append(out, c.bindingValues(&fi.f.Bindings[bi], depth+1)...)
			}
		}
		if found {
			return out
		}
		if s >= 0 && defs[s].Kind == facts.Func {
			if pos, ok := paramPos(defs[s].Signature, name); ok {
				return append(c.paramValues(s, pos, name, depth+1), c.defaultValues(s, name, depth+1)...)
			}
			if base, ok := strings.CutSuffix(name, "[]"); ok {
				if pos, kind := starParam(defs[s].Signature, base); kind != 0 {
					return c.starValues(s, pos, kind, depth+1)
				}
				if pos, ok := paramPos(defs[s].Signature, base); ok {
					return c.paramElems(s, pos, base, depth+1)
				}
			}
		}
		if s < 0 {
			return nil
		}
	}
}

// elementTakers are the array methods whose result is one of the
// elements.
var elementTakers = map[string]bool{"find": true, "findLast": true, "at": true, "pop": true, "shift": true}

// elemPropValues is what property name of recv may hold when recv takes
// the elements of a container of object literals (for (const p of
// plugins), const p = plugins[i]): what the objects hold under name
// (bindings plugins[].name), in the scope recv is bound in.
func (c *callCtx) elemPropValues(scope int, recv, name string) []typ {
	fi := c.fi
	defs := fi.f.Defs
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		var out []typ
		found := false
		for _, bi := range fi.scopes[s] {
			b := &fi.f.Bindings[bi]
			if b.Name != recv {
				continue
			}
			found = true
			container, ok := strings.CutSuffix(b.FromExpr, "[]")
			if !ok {
				container, ok = elementOf(b.FromExpr)
			}
			if i := strings.LastIndexByte(b.FromCall, '.'); !ok && i > 0 && elementTakers[b.FromCall[i+1:]] {
				// routes.find(...), stack.pop(): one of the elements
				container, ok = b.FromCall[:i], true
			}
			if ok && !strings.ContainsAny(container, "()[]") {
				out = append(out, c.containerProps(b.Scope, container, name)...)
			}
		}
		if found || s < 0 {
			return out
		}
	}
}

// containerProps is what the objects of container hold under property
// name, seen from scope: its bindings container[].name, or, for a
// parameter, those of the containers the calls pass for it
// (runPlugins(code, plugins)).
func (c *callCtx) containerProps(scope int, container, name string) []typ {
	if out := c.valuesOf(scope, container+"[]."+name, 1); len(out) > 0 {
		return out
	}
	fi := c.fi
	defs := fi.f.Defs
	for s := scope; s >= 0; s = defs[s].Parent {
		if defs[s].Kind != facts.Func {
			continue
		}
		pos, ok := paramPos(defs[s].Signature, container)
		if !ok {
			continue
		}
		var out []typ
		for _, k := range c.argKeys(s, pos, container) {
			for _, bi := range fi.argFlows[k] {
				if ab := &fi.f.Bindings[bi]; !strings.ContainsAny(ab.FromExpr, ".()[]") {
					out = append(out, c.valuesOf(ab.Scope, ab.FromExpr+"[]."+name, 1)...)
				}
			}
		}
		return out
	}
	return nil
}

// bindingValues is what one binding may hold: the values of the name or
// container it was assigned from, else its type.
func (c *callCtx) bindingValues(b *facts.Binding, depth int) []typ {
	if b.FromCall != "" && c.fi.f.Lang == "python" && strings.Count(b.FromCall, ".") <= 1 {
		// model = get_user_model(settings): what it returns
		restore := c.readAt(b.Scope, b.Line)
		vs := c.callResults(b.Scope, b.FromCall, depth)
		restore()
		if len(vs) > 0 {
			return vs
		}
	}
	if head, ok := strings.CutSuffix(b.FromCall, ".get"); ok && head != "" && c.fi.f.Lang == "python" {
		// view = self.view_functions.get(path): an entry of the container
		// (its default is not recorded with the binding).
		restore := c.readAt(b.Scope, b.Line)
		vs := c.valuesOf(b.Scope, head+"[]", depth)
		restore()
		if len(vs) > 0 {
			return vs
		}
	}
	if gen, ok := iteratedCall(b.FromExpr); ok {
		// for f in gen(), for f in collect(deploy): what the generator
		// function yields.
		// A builtin with arguments (sorted(hooks, key=f)) is left to
		// wrappedIter below.
		if fn, _ := c.lookupName(c.fi, b.Scope, gen, false, depth+1); fn.isFunc() && fn.fi == c.fi {
			var out []typ
			for _, bi := range c.fi.scopes[fn.idx] {
				if y := &c.fi.f.Bindings[bi]; y.Name == "yield[]" || y.Name == facts.ReturnName+"[]" {
					out = append(out, c.bindingValues(y, depth+1)...) // (for f in make_list(): return [a, b])
				}
			}
			return out
		} else if strings.HasSuffix(b.FromExpr, "()[]") {
			return nil
		}
	}
	if vs, ok := c.getattrValues(b.Scope, b.FromExpr, depth); ok {
		return vs
	}
	if b.FromExpr != "" && !strings.HasSuffix(b.FromExpr, "[]") {
		// handler = reducers[type] || commands.get(type): the entries
		restore := c.readAt(b.Scope, b.Line)
		vs, _ := c.entryValues(b.Scope, b.FromExpr, depth)
		restore()
		if len(vs) > 0 {
			return vs
		}
	}
	if inner, ok := wrappedIter(b.FromExpr); ok {
		// for f in sorted(hooks, key=...): the elements of hooks.
		return c.valuesOf(b.Scope, inner+"[]", depth)
	}
	if e, ok := cutSelf(c.fi, b.FromExpr); ok && strings.HasSuffix(e, "[]") && !strings.ContainsAny(e[:len(e)-2], ".()[]") {
		// for cb in self._callbacks: what the methods put there
		return c.valuesOf(b.Scope, b.FromExpr, depth)
	}
	if e := b.FromExpr; e != "" && !strings.ContainsAny(e, ".()") {
		// the name's value where it is read: the binding's own line
		restore := c.readAt(b.Scope, b.Line)
		vs := c.valuesOf(b.Scope, e, depth)
		restore()
		if len(vs) > 0 {
			return vs
		}
		if inner, ok := strings.CutSuffix(e, "[]"); ok {
			if head, ok := elementOf(inner); ok && c.fi.f.Lang == "python" {
				// for fn in hooks[event]: a dict of lists filled with
				// hooks.setdefault(event, []).append(fn) holds fn among
				// its elements.
				restore := c.readAt(b.Scope, b.Line)
				vs = c.valuesOf(b.Scope, head+"[]", depth)
				restore()
				return vs
			}
			return nil
		}
	}
	if t := c.bindingType(b, depth); t.known() {
		if b.FromExpr == "" && !t.fn.valid() {
			t.instance = true
		}
		return []typ{t}
	}
	return nil
}

// fieldValues is what self.name may hold when a method of the enclosing
// class (of this file) assigns it: `self.callback = callback` in __init__
// holds what the calls of the class pass for callback.
func (c *callCtx) fieldValues(scope int, self, name string) []typ {
	cls, ok := c.enclosingClass(scope)
	if !ok || !cls.cls.valid() || cls.cls.fi != c.fi {
		return nil
	}
	if m, ok := c.methodOf(cls, name, 0); ok && m.isFunc() {
		return nil // a method, not a field
	}
	var out []typ
	// The methods, and the functions defined in them, which see self as
	// a closure (a registering decorator inside route(): `def
	// decorator(f): self.view_functions[rule] = f`).
	var visit func(k, level int)
	visit = func(k, level int) {
		for _, bi := range c.fi.scopes[k] {
			if b := &c.fi.f.Bindings[bi]; b.Name == self+"."+name {
				out = append(out, c.bindingValues(b, 1)...)
			}
		}
		if level < 2 {
			for _, n := range c.fi.children[k] {
				if c.fi.f.Defs[n].Kind == facts.Func {
					visit(n, level+1)
				}
			}
		}
	}
	for _, k := range c.fi.children[cls.cls.idx] {
		visit(k, 0)
	}
	return out
}
