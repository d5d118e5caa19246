package resolve

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Value flow (Python, JavaScript/TypeScript), within a file: the functions and classes a called
// name may hold beyond the one the call binds to. A name may be bound
// several times (both arms of a conditional, tuple unpacking in branches),
// a container's elements are bound as name[] (x = [f, g]; a loop
// variable over it takes them), and a parameter holds what the call sites
// of its function pass (bindings "apply()#0" and "run()#=callback" made by
// the extractor; a decorator passes the function it decorates). Edges
// found this way are inferred.

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
	return out
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
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		var out []typ
		found := false
		from, to := c.live(s, name)
		for _, bi := range fi.scopes[s] {
			b := &fi.f.Bindings[bi]
			if b.Name != name || dead(b, from, to) {
				continue
			}
			found = true
			if c.steps != nil {
				*c.steps--
			}
			out = append(out, c.bindingValues(b, depth+1)...)
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
				if pos, ok := paramPos(defs[s].Signature, base); ok && fi.f.Lang == "python" {
					return c.paramElems(s, pos, base, depth+1)
				}
			}
		}
		if s < 0 {
			return nil
		}
	}
}

// isCallExpr reports whether e is a call of a name or of another call
// (`f(x)`, `curry(a)(b)`, not `a.f(x)` or `t[k](x)`).
func isCallExpr(e string) bool {
	i := strings.IndexByte(e, '(')
	return i > 0 && strings.HasSuffix(e, ")") && !strings.ContainsAny(e[:i], ".[]{} \"'")
}

// instanceMethods is what a Python method call may run when its
// receiver, a name or a call, holds instances of classes that flow there
// (a class taken from a table or returned by a factory, then called):
// each one's method of that name.
func (c *callCtx) instanceMethods(call *facts.Call, bound graph.Confidence) []defRef {
	var vals []typ
	if isCallExpr(call.Recv) {
		callee := calleeOf(call.Recv)
		if !c.mayReturnClass(callee) {
			return nil
		}
		vals = c.callResults(call.Caller, callee, 0)
	} else {
		if !c.boundToResult(call.Caller, call.Recv) && (bound > 0 || !c.paramPassed(call.Caller, call.Recv)) {
			// (a parameter's callers are read only when nothing else
			// bound the call: a name match already has the one method
			// of that name)
			return nil
		}
		vals = c.valuesOf(call.Caller, call.Recv, 0)
	}
	var out []defRef
	seen := map[defRef]bool{}
	for _, t := range vals {
		if !t.cls.valid() || !t.instance {
			continue
		}
		m, _ := c.methodOf(t, call.Name, 0)
		if !m.isFunc() || seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, m)
		if len(out) == maxFlow {
			break
		}
	}
	return out
}

// mayReturnClass reports cheaply whether a call of callee (a name, or a
// call) may return what instanceMethods looks for: callee is a name the
// file binds to values, a function of the file with return statements
// that return names, or an imported name.
func (c *callCtx) mayReturnClass(callee string) bool {
	for isCallExpr(callee) {
		callee = calleeOf(callee)
	}
	return callee != "" && (c.fi.bound[callee] || c.returners()[callee] || c.fi.binds[callee] != nil)
}

// boundToResult reports whether a binding of name visible from scope
// holds a call's result that mayReturnClass (handler = klass(path)).
func (c *callCtx) boundToResult(scope int, name string) bool {
	defs := c.fi.f.Defs
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		for _, bi := range c.fi.scopes[s] {
			if b := &c.fi.f.Bindings[bi]; b.Name == name && b.FromCall != "" && !strings.Contains(b.FromCall, ".") && c.mayReturnClass(b.FromCall) {
				return true
			}
		}
		if s < 0 {
			return false
		}
	}
}

// paramPassed reports cheaply whether name is an untyped parameter of
// the function at scope (or one around it) that some call in this file,
// or in a file importing it, passes a value for
// (`def handle(handler): handler.run()` with `handle(MyHandler())`).
func (c *callCtx) paramPassed(scope int, name string) bool {
	defs := c.fi.f.Defs
	for s := scope; s >= 0; s = defs[s].Parent {
		d := &defs[s]
		if d.Kind != facts.Func {
			continue
		}
		pos, ok := paramPos(d.Signature, name)
		if !ok {
			continue
		}
		if !untypedParam(d.Signature, name) {
			return false
		}
		for _, k := range c.argKeys(s, pos, name) {
			if len(c.fi.argFlows[k]) > 0 {
				return true
			}
		}
		return d.Parent < 0 && len(c.r.passers[d.Name]) > 0
	}
	return false
}

// returners are the names of the current file's functions that return
// names (facts.ReturnName bindings), made on first use.
func (c *callCtx) returners() map[string]bool {
	if c.rets == nil {
		c.rets = map[*fileInfo]map[string]bool{}
	}
	m, ok := c.rets[c.fi]
	if !ok {
		m = map[string]bool{}
		for i := range c.fi.f.Bindings {
			if b := &c.fi.f.Bindings[i]; b.Name == facts.ReturnName && b.Scope >= 0 {
				m[c.fi.f.Defs[b.Scope].Name] = true
			}
		}
		c.rets[c.fi] = m
	}
	return m
}

// getattrValues is what a Python getattr(obj, name[, default]) may
// return when obj is self or of a known class: the methods of its class
// and bases named by name, a string literal or a concatenation or
// f-string that starts with one ("visit_" + kind: every visit_ method),
// and the default. ok is false when expr is no such call.
func (c *callCtx) getattrValues(scope int, expr string, depth int) ([]typ, bool) {
	rest, ok := strings.CutPrefix(expr, "getattr(")
	if !ok || c.fi.f.Lang != "python" || closing(expr, len("getattr")) != len(expr)-1 {
		return nil, false
	}
	var args []string
	eachParam("("+rest, func(_ int, item string) bool {
		args = append(args, strings.TrimSpace(item))
		return true
	})
	if len(args) < 2 || len(args) > 3 {
		return nil, false
	}
	var out []typ
	if len(args) == 3 {
		if vs := c.valuesOf(scope, args[2], depth+1); len(vs) > 0 {
			out = append(out, vs...)
		} else if t := c.typeOf(scope, args[2], depth+1); t.fn.valid() {
			out = append(out, t)
		}
	}
	name := args[1]
	if !strings.ContainsAny(name, "\"'(") {
		name = c.stringOf(scope, name) // method = "visit_" + kind; getattr(self, method)
	}
	prefix, exact := literalPrefix(name)
	if prefix == "" && !exact {
		return out, true
	}
	var t typ
	if c.fi.lang.isSelf(args[0]) && c.fi == c.origin {
		cls, ok := c.enclosingClass(scope)
		if !ok {
			return out, true
		}
		t = cls
		t.instance = true
	} else {
		t = c.typeOf(scope, args[0], depth+1)
	}
	if !t.cls.valid() || !t.instance {
		return out, true
	}
	if exact {
		if m, _ := c.methodOf(t, prefix, depth+1); m.isFunc() {
			out = append(out, typ{fn: m, conf: graph.Inferred})
		}
		return out, true
	}
	seen := map[string]bool{}
	classes := append([]defRef{t.cls}, c.ancestors(t.cls)...)
	if c.fi.lang.isSelf(args[0]) {
		// self may be a subclass's instance (ast.NodeVisitor.visit finds
		// the visit_ methods of the visitor subclasses): this file's
		classes = append(classes, c.subclasses()[t.cls]...)
	}
	for _, k := range classes {
		for _, i := range k.fi.children[k.idx] {
			d := &k.fi.f.Defs[i]
			if d.Kind == facts.Func && strings.HasPrefix(d.Name, prefix) && !seen[d.Name] {
				seen[d.Name] = true // an override hides its base's
				out = append(out, typ{fn: defRef{k.fi, i}, conf: graph.Inferred})
			}
		}
		if len(out) >= maxFlow {
			break
		}
	}
	return out, true
}

// stringOf is the string expression a name is bound to, seen from
// scope (`method = "visit_" + kind`), "" when it is bound to none or to
// several.
func (c *callCtx) stringOf(scope int, name string) string {
	defs := c.fi.f.Defs
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		var found string
		n := 0
		for _, bi := range c.fi.scopes[s] {
			if b := &c.fi.f.Bindings[bi]; b.Name == name {
				found = b.FromExpr
				n++
			}
		}
		if n > 0 {
			if n > 1 {
				return ""
			}
			return found
		}
		if s < 0 {
			return ""
		}
	}
}

// literalPrefix reads the name argument of getattr: a string literal is
// exact, a concatenation or f-string starting with a literal gives its
// prefix ("visit_" of `"visit_" + name` and `f"visit_{name}"`).
func literalPrefix(e string) (prefix string, exact bool) {
	e = strings.TrimSpace(e)
	f := strings.HasPrefix(e, "f") || strings.HasPrefix(e, "F")
	if f {
		e = e[1:]
	}
	if len(e) < 2 || e[0] != '"' && e[0] != '\'' {
		return "", false
	}
	end := strings.IndexByte(e[1:], e[0])
	if end < 0 {
		return "", false
	}
	lit := e[1 : 1+end]
	if f {
		if i := strings.IndexByte(lit, '{'); i >= 0 {
			return lit[:i], false
		}
	}
	if strings.ContainsAny(lit, "\\{") {
		return "", false
	}
	if rest := strings.TrimSpace(e[2+end:]); rest != "" {
		if !strings.HasPrefix(rest, "+") {
			return "", false
		}
		return lit, false
	}
	return lit, !f || !strings.Contains(lit, "{")
}

// calleeOf is what call expression e calls: `f` of `f(g(x))`, `curry(a)`
// of `curry(a)(b)`; "" when e does not end with a call's arguments.
func calleeOf(e string) string {
	if !strings.HasSuffix(e, ")") {
		return ""
	}
	depth := 0
	for i := len(e) - 1; i > 0; i-- {
		switch e[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth--; depth == 0 {
				if e[i] != '(' {
					return ""
				}
				return e[:i]
			}
		}
	}
	return ""
}

// callResults is what a call of callee (as written: a name, or a call
// `curry(a)` whose result is called) may return, seen from scope: the
// values of the return statements of the functions of this file it may
// be (`return render_bold`, `return AdminUser`), an instance of a class.
func (c *callCtx) callResults(scope int, callee string, depth int) []typ {
	if depth > maxDepth {
		return nil
	}
	fns := c.calleeValues(scope, callee, depth)
	var out []typ
	for _, f := range fns {
		switch {
		case f.fn.valid() && f.fn.fi.f.Lang == "python":
			// (a function of another file: read there; its def's
			// surface entry refers to its return statements)
			in := c.in(f.fn.fi)
			for _, bi := range f.fn.fi.scopes[f.fn.idx] {
				if b := &f.fn.fi.f.Bindings[bi]; b.Name == facts.ReturnName {
					out = append(out, in.bindingValues(b, depth+1)...)
				}
			}
		case f.cls.valid() && !f.instance:
			f.instance = true
			out = append(out, f)
		}
		if len(out) >= maxFlow {
			break
		}
	}
	return out
}

// callElems is what the elements of a call's result may hold: the
// elements of the containers the called functions return (`return [f,
// g]`, `return {"a": f}`), under key when it is a literal and every
// element of the function's returned containers has one.
func (c *callCtx) callElems(scope int, callee, key string, depth int) []typ {
	if depth > maxDepth {
		return nil
	}
	var out []typ
	for _, f := range c.calleeValues(scope, callee, depth) {
		if !f.fn.valid() || f.fn.fi.f.Lang != "python" {
			continue
		}
		in := c.in(f.fn.fi)
		bs := f.fn.fi.f.Bindings
		var all, keyed []int
		complete := key != ""
		for _, bi := range f.fn.fi.scopes[f.fn.idx] {
			switch name := bs[bi].Name; {
			case name == facts.ReturnName+"[]":
				all = append(all, bi)
				twin := bi+1 < len(bs) && bs[bi+1].Line == bs[bi].Line && bs[bi+1].FromExpr == bs[bi].FromExpr &&
					strings.HasPrefix(bs[bi+1].Name, facts.ReturnName+"[") && bs[bi+1].Name != name
				complete = complete && twin
			case name == facts.ReturnName+"["+key+"]":
				keyed = append(keyed, bi)
			}
		}
		pick := all
		if complete && len(keyed) > 0 {
			pick = keyed
		}
		for _, bi := range pick {
			out = append(out, in.bindingValues(&bs[bi], depth+1)...)
		}
		if len(out) >= maxFlow {
			break
		}
	}
	return out
}

// boundCall is the callee of the call a name is bound to, seen from
// scope (`handlers = make()`), when its one binding is one.
func (c *callCtx) boundCall(scope int, name string) string {
	defs := c.fi.f.Defs
	for s := scope; ; s = defs[s].Parent {
		s = skipClassBody(defs, s, scope)
		call, n := "", 0
		for _, bi := range c.fi.scopes[s] {
			if b := &c.fi.f.Bindings[bi]; b.Name == name {
				call = b.FromCall
				n++
			}
		}
		if n > 0 {
			if n > 1 || strings.Contains(call, ".") {
				return ""
			}
			return call
		}
		if s < 0 {
			return ""
		}
	}
}

// calleeValues is what callee (as written: a name, a call whose result is
// called, recv.method) may be: functions and classes.
func (c *callCtx) calleeValues(scope int, callee string, depth int) []typ {
	var fns []typ
	switch {
	case isCallExpr(callee):
		fns = c.callResults(scope, calleeOf(callee), depth+1)
	case callee != "" && !strings.ContainsAny(callee, ".()[]{} \"'"):
		fns = c.valuesOf(scope, callee, depth+1)
		if len(fns) == 0 {
			if t := c.typeOf(scope, callee, depth+1); t.fn.valid() || t.cls.valid() && !t.instance {
				fns = []typ{t}
			}
		}
	case strings.Count(callee, ".") == 1 && !strings.ContainsAny(callee, "()[]{} \"'"):
		// method = handler.lookup(command): the method of the receiver's
		// class (or of the classes whose instances flow there)
		recv, name, _ := strings.Cut(callee, ".")
		recvs := []typ{c.typeOf(scope, recv, depth+1)}
		if !recvs[0].known() && !c.fi.lang.isSelf(recv) {
			recvs = c.valuesOf(scope, recv, depth+1)
		}
		for _, t := range recvs {
			if !t.cls.valid() || !t.instance {
				continue
			}
			if m, _ := c.methodOf(t, name, depth+1); m.isFunc() {
				fns = append(fns, typ{fn: m, conf: graph.Inferred})
			}
		}
	}
	return fns
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
	if gen, ok := strings.CutSuffix(b.FromExpr, "()[]"); ok && !strings.ContainsAny(gen, ".()[]") {
		// for f in gen(): what the generator function yields.
		fn, _ := c.lookupName(c.fi, b.Scope, gen, false, depth+1)
		if !fn.isFunc() || fn.fi != c.fi {
			return nil
		}
		var out []typ
		for _, bi := range c.fi.scopes[fn.idx] {
			if y := &c.fi.f.Bindings[bi]; y.Name == "yield[]" || y.Name == facts.ReturnName+"[]" {
				out = append(out, c.bindingValues(y, depth+1)...) // (for f in make_list(): return [a, b])
			}
		}
		return out
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
		if strings.HasSuffix(e, "[]") {
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

// defaultValues is what parameter name of function fn holds when a call
// leaves it out: the function or class its default names
// (`def copytree(files, copy_function=copy2)`, `(cb = noop) => ...`),
// looked up where the definition stands.
func (c *callCtx) defaultValues(fn int, name string, depth int) []typ {
	d := &c.fi.f.Defs[fn]
	var def string
	eachParam(d.Signature, func(_ int, item string) bool {
		if paramName(item) != name {
			return true
		}
		def = paramDefault(item)
		return false
	})
	if def == "" || strings.ContainsAny(def, "()[]{} \"'`+-*/%<>=!&|?:,") || def == "None" || def == "null" || def == "undefined" {
		return nil
	}
	if vs := c.valuesOf(d.Parent, def, depth); len(vs) > 0 {
		return vs
	}
	if t := c.typeOf(d.Parent, def, depth); t.fn.valid() || t.cls.valid() && !t.instance {
		return []typ{t}
	}
	return nil
}

// paramDefault is the default value's text of one parameter's text
// (`key=f`, `key: T = f`, `key = f`), "" when it has none.
func paramDefault(item string) string {
	depth := 0
	for i := 0; i < len(item); i++ {
		switch item[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case '=':
			next := byte(0)
			if i+1 < len(item) {
				next = item[i+1]
			}
			if depth == 0 && next != '>' && next != '=' && (i == 0 || !strings.ContainsRune("=!<>", rune(item[i-1]))) {
				return strings.TrimSpace(item[i+1:])
			}
		}
	}
	return ""
}

// argKeys are the argument bindings (see facts.Binding and the
// extractor's addArgFlows) that pass parameter name, at position pos of
// function fn: by position or keyword, through an instance (a method's
// self is implicit), as a decorator factory's result, to a constructor.
func (c *callCtx) argKeys(fn, pos int, name string) []string {
	fi := c.fi
	d := &fi.f.Defs[fn]
	// A Python method's calls through an instance pass self implicitly.
	method := fi.f.Lang == "python" && d.Parent >= 0 && fi.f.Defs[d.Parent].Kind == facts.Class
	var keys []string
	switch {
	case pos < 0:
	case method:
		if pos > 0 {
			keys = append(keys, "."+d.Name+"()#"+strconv.Itoa(pos-1))
		}
	default:
		keys = append(keys, d.Name+"()#"+strconv.Itoa(pos), "."+d.Name+"()#"+strconv.Itoa(pos))
	}
	keys = append(keys, d.Name+"()#="+name, "."+d.Name+"()#="+name)
	if pos == 0 && d.Parent >= 0 {
		// The function a decorator factory returns gets the decorated
		// definition: `def retry(n): def decorator(func): ...; return
		// decorator`, applied as @retry(3) ("retry()()#0").
		if p := &fi.f.Defs[d.Parent]; p.Kind == facts.Func && p.Result == "="+d.Name {
			keys = append(keys, p.Name+"()()#0", "."+p.Name+"()()#0")
		}
	}
	if method && (d.Name == "__init__" || d.Name == "__new__") && pos > 0 {
		// A constructor's parameters: what calls of the class pass.
		cls := fi.f.Defs[d.Parent].Name
		keys = append(keys, cls+"()#"+strconv.Itoa(pos-1), cls+"()#="+name)
	}
	if d.Name == "constructor" && pos >= 0 && d.Parent >= 0 && fi.f.Defs[d.Parent].Kind == facts.Class {
		keys = append(keys, fi.f.Defs[d.Parent].Name+"()#"+strconv.Itoa(pos)) // new C(f)
	}
	return keys
}

// paramValues is what parameter name, at position pos of function fn,
// may hold: the values the calls of fn in this file pass for it, by
// position or by keyword (a method's calls through an instance pass
// self implicitly).
func (c *callCtx) paramValues(fn, pos int, name string, depth int) []typ {
	fi := c.fi
	if d := &fi.f.Defs[fn]; d.Anonymous() && family(fi.f.Lang) == "js" {
		return c.elementParam(fn, pos, depth)
	}
	// Memoized while origin's calls resolve: a function's parameter is
	// read by every call on it (msg.get_payload(), msg.get_param(), ...).
	// Only answers found with most of the depth left are kept.
	key := paramAt{defRef{fi, fn}, pos, name}
	if vs, ok := c.paramMemo[key]; ok {
		return vs
	}
	out := c.passedValues(fn, pos, name, depth)
	if depth <= 2 {
		if c.paramMemo == nil {
			c.paramMemo = map[paramAt][]typ{}
		}
		c.paramMemo[key] = out
	}
	return out
}

// paramAt names a parameter: its function, position and name.
type paramAt struct {
	fn   defRef
	pos  int
	name string
}

// passedValues is paramValues without the memo.
func (c *callCtx) passedValues(fn, pos int, name string, depth int) []typ {
	fi := c.fi
	var out []typ
	keys := c.argKeys(fn, pos, name)
	for _, k := range keys {
		for _, bi := range fi.argFlows[k] {
			out = append(out, c.bindingValues(&fi.f.Bindings[bi], depth)...)
			if len(out) >= maxFlow {
				return out
			}
		}
	}
	if d := &fi.f.Defs[fn]; d.Parent < 0 && fi.f.Lang == "python" {
		// from lib import run_task; run_task(callback): what files
		// importing it pass
		self := defRef{fi, fn}
		for _, b := range c.r.passers[d.Name] {
			if b == fi {
				continue
			}
			in := c.in(b)
			for _, k := range keys {
				if k[0] == '.' {
					continue
				}
				for _, bi := range b.argFlows[k] {
					ab := &b.f.Bindings[bi]
					if ref, _ := c.lookupName(b, ab.Scope, d.Name, false, depth+1); ref != self {
						continue // another function of that name
					}
					out = append(out, in.bindingValues(ab, depth)...)
					if len(out) >= maxFlow {
						return out
					}
				}
			}
		}
	}
	return out
}

// indexPassers lists, for each function name, the Python files that
// pass values to an imported function of that name (resolver.passers).
func (r *resolver) indexPassers() {
	r.passers = map[string][]*fileInfo{}
	for _, fi := range r.list {
		if fi.f.Lang != "python" {
			continue
		}
		for _, name := range passedTo(fi) {
			r.passers[name] = append(r.passers[name], fi)
		}
	}
}

// passedTo names the functions a Python file passes values to that it
// does not define (imported ones): its argument bindings "name()#0" and
// "name()#=kw" of such names, each name once, in order.
func passedTo(fi *fileInfo) []string {
	var out []string
	for key := range fi.argFlows {
		name, _, ok := strings.Cut(key, "()#")
		if !ok || name == "" || name[0] == '.' || strings.Contains(name, "()") || len(fi.top[name]) > 0 || slices.Contains(out, name) {
			continue
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// paramElems is what the elements of parameter name (at position pos of
// function fn) may hold: the elements of the containers the calls of fn
// in this file pass for it, named (`process(req, steps)`) or returned by
// a function of the file (`process(req, build_pipeline())`).
func (c *callCtx) paramElems(fn, pos int, name string, depth int) []typ {
	fi := c.fi
	var out []typ
	for _, k := range c.argKeys(fn, pos, name) {
		for _, bi := range fi.argFlows[k] {
			b := &fi.f.Bindings[bi]
			out = append(out, c.exprElems(b.Scope, b.FromExpr, depth)...)
			if len(out) >= maxFlow {
				return out
			}
		}
	}
	return out
}

// exprElems is what the elements of expression e (seen from scope) may
// hold: a container's name, self's field, or the call of a function of
// this file that returns one.
func (c *callCtx) exprElems(scope int, e string, depth int) []typ {
	if depth > maxDepth || e == "" {
		return nil
	}
	if i := strings.IndexByte(e, '('); i > 0 && closing(e, i) == len(e)-1 {
		head := e[:i]
		if strings.ContainsAny(head, ".()[]{} \"'") {
			return nil
		}
		fn, _ := c.lookupName(c.fi, scope, head, false, depth+1)
		if !fn.isFunc() || fn.fi != c.fi {
			return nil
		}
		ret, ok := strings.CutPrefix(fn.def().Result, "=")
		if !ok {
			return nil
		}
		return c.exprElems(fn.idx, ret, depth+1)
	}
	if strings.ContainsAny(e, "()[]{} \"'") {
		return nil
	}
	if _, ok := cutSelf(c.fi, e); !ok && strings.Contains(e, ".") {
		return nil
	}
	return c.valuesOf(scope, e+"[]", depth+1)
}

// iterators are the array methods that call their callback with each
// element: the element is the callback's parameter at this position.
var iterators = map[string]int{
	"forEach": 0, "map": 0, "filter": 0, "some": 0, "every": 0, "find": 0, "findIndex": 0,
	"findLast": 0, "flatMap": 0, "reduce": 1, "reduceRight": 1,
}

// elementParam is what parameter pos of anonymous function fn holds when
// fn is handed to an array method of a named array: `handlers.forEach(
// (h) => h(req))` and `fns.reduce((acc, f) => f(acc), x)` take the
// array's elements.
func (c *callCtx) elementParam(fn, pos, depth int) []typ {
	fi := c.fi
	d := &fi.f.Defs[fn]
	if c.handed == nil {
		c.handed = map[*fileInfo]map[anonAt]string{}
	}
	handed := c.handed[fi]
	if handed == nil {
		handed = map[anonAt]string{}
		for i := range fi.f.Calls {
			if call := &fi.f.Calls[i]; strings.HasPrefix(call.Recv, facts.CallbackRecv) {
				handed[anonAt{call.Name, call.Caller}] = call.Recv[len(facts.CallbackRecv):]
			}
		}
		c.handed[fi] = handed
	}
	recv, ok := handed[anonAt{d.Name, d.Parent}]
	if !ok {
		return nil
	}
	callee, arg := facts.CallbackCallee(recv)
	if k := strings.LastIndexByte(callee, '.'); k > 0 {
		base, method := callee[:k], callee[k+1:]
		if at, ok := iterators[method]; ok {
			switch {
			case at != pos:
				return nil
			case !strings.ContainsAny(base, ".()[]"):
				return c.valuesOf(d.Parent, base+"[]", depth)
			case strings.HasPrefix(base, "this."):
				// this.options.find((option) => ...): what the field's
				// array holds (/** @type {Option[]} */ this.options = [])
				if t := c.elemType(d.Parent, base, depth); t.cls.valid() {
					t.instance = true
					return []typ{t}
				}
				// this.listeners.forEach((fn) => fn(x)): what the
				// methods put there (this.listeners.push(fn))
				return c.valuesOf(d.Parent, base+"[]", depth)
			}
		}
	}
	if arg < 0 || (pos < 0 && pos != thisParam) {
		return nil
	}
	if t := c.declaredCallbackParam(d.Parent, callee, arg, pos, depth); t.known() {
		return []typ{t}
	}
	return nil
}

// declaredCallbackParam types parameter pos of a function passed as
// argument arg to callee (as written, seen from scope) by what the callee
// declares for that argument: a TypeScript function type, `operate(init:
// (source: Observable<T>, subscriber: Subscriber<R>) => void)` makes the
// second parameter of `operate((source, subscriber) => ...)` a Subscriber.
// A class called (`new Observable((subscriber) => ...)`) declares it in
// its constructor; overload signatures are read when the implementation
// does not say.
func (c *callCtx) declaredCallbackParam(scope int, callee string, arg, pos, depth int) typ {
	if callee == "" || strings.ContainsAny(callee, "()[]{}<>") || depth > maxDepth {
		return typ{}
	}
	call := facts.Call{Name: callee, Caller: scope}
	if i := strings.LastIndexByte(callee, '.'); i > 0 {
		call.Recv, call.Name = callee[:i], callee[i+1:]
	}
	ref, conf := c.resolveCall(&call)
	if !ref.valid() || conf <= graph.NameMatch {
		return typ{}
	}
	if ref.def().Kind == facts.Class {
		ctor, ok := c.methodOf(typ{cls: ref, name: ref.def().Name, ctx: ref.fi}, ref.fi.lang.ctor, depth+1)
		if !ok || !ctor.isFunc() {
			return typ{}
		}
		ref = ctor
	}
	if ref.fi.f.Lang != "typescript" && ref.fi.f.Lang != "tsx" {
		return typ{}
	}
	d := ref.def()
	// the definition and its overload signatures (its siblings of the
	// same name), the implementation first
	siblings := ref.fi.top[d.Name]
	if d.Parent >= 0 {
		siblings = ref.fi.children[d.Parent]
	}
	cands := []int{ref.idx}
	for _, k := range siblings {
		if o := &ref.fi.f.Defs[k]; k != ref.idx && o.Name == d.Name && o.Owner == d.Owner {
			cands = append(cands, k)
		}
	}
	for _, k := range cands {
		if tname := callbackParamType(ref.fi.f.Defs[k].Signature, arg, pos); tname != "" {
			t := c.typeName(ref.fi, k, tname, depth+1)
			if t.cls.valid() {
				t.instance = true
				t.conf = graph.Inferred
				return t
			}
		}
	}
	return typ{}
}

// thisParam asks callbackParamType for the type of `this`.
const thisParam = -2

// callbackParamType reads, in sig, the type of parameter arg and, when it
// is a function type, the type of that function's parameter pos, as one
// type name (`Subscriber<R> | undefined` is Subscriber); a `this:`
// parameter of the function type does not count, and pos thisParam asks
// for it. "" when not declared.
func callbackParamType(sig string, arg, pos int) string {
	fnType := strings.TrimSpace(paramType(paramText(sig, arg)))
	if !strings.Contains(fnType, "=>") {
		return ""
	}
	if fnType[0] == '<' {
		if end := closingAngle(fnType); end > 0 {
			fnType = strings.TrimSpace(fnType[end+1:])
		}
	}
	if fnType == "" || fnType[0] != '(' {
		return ""
	}
	if pos == thisParam {
		return declaredThis(fnType)
	}
	var out string
	n := 0
	eachParam(fnType, func(_ int, item string) bool {
		if strings.HasPrefix(strings.TrimSpace(item), "this:") || strings.HasPrefix(strings.TrimSpace(item), "this :") {
			return true
		}
		if n == pos {
			out = oneTypeName(paramType(item))
			return false
		}
		n++
		return true
	})
	return out
}

// paramText is the text of parameter pos in sig's parameter list.
func paramText(sig string, pos int) string {
	var out string
	eachParam(sig, func(i int, item string) bool {
		if i == pos {
			out = item
			return false
		}
		return true
	})
	return out
}

// oneTypeName reduces a TypeScript type to the one type it names
// (`Subscriber<R>` and `Subscriber<R> | undefined` are Subscriber, `ns.T`
// stays), "" for function, object, tuple, literal and other unions.
func oneTypeName(t string) string {
	t = strings.TrimSpace(t)
	for _, suf := range []string{"| undefined", "| null"} {
		t = strings.TrimSpace(strings.TrimSuffix(t, suf))
	}
	if i := strings.IndexByte(t, '<'); i >= 0 {
		if end := closingAngle(t[i:]); end > 0 {
			t = t[:i] + t[i+end+1:]
		}
	}
	t = strings.TrimSpace(t)
	if t == "" || strings.ContainsAny(t, " |&()[]{}<>'\"`=:,") {
		return ""
	}
	return t
}

// paramType is the declared type of one parameter's text (`init?: T =
// x` is T), "" when it has none.
func paramType(item string) string {
	depth := 0
	for i := 0; i < len(item); i++ {
		switch ch := item[i]; ch {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ':':
			if depth == 0 {
				t := item[i+1:]
				// a default value after the type
				d := 0
				for j := 0; j < len(t); j++ {
					switch t[j] {
					case '(', '[', '{', '<':
						d++
					case ')', ']', '}':
						d--
					case '>':
						if j > 0 && t[j-1] == '=' {
							continue // =>
						}
						d--
					case '=':
						if d == 0 && (j+1 >= len(t) || t[j+1] != '>') {
							return strings.TrimSpace(t[:j])
						}
					}
				}
				return strings.TrimSpace(t)
			}
		}
	}
	return ""
}

// closingAngle returns the index of the '>' closing the '<' at s[0], or -1.
func closingAngle(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if i > 0 && s[i-1] == '=' {
				continue
			}
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// paramPos returns the position of parameter name in the first parameter
// list of sig (`def apply(func, *args)`: func is 0; annotated or with a
// default alike), or -1 when it comes after *args or * and is passed by
// keyword only; a starred name is not a plain parameter (see starParam).
func paramPos(sig, name string) (int, bool) {
	if !strings.Contains(sig, name) {
		return 0, false
	}
	pos, found, kwOnly := 0, false, false
	eachParam(sig, func(i int, item string) bool {
		item = paramName(item)
		switch {
		case item == name:
			pos, found = i, true
			if kwOnly {
				pos = -1 // passed by keyword only
			}
			return false
		case strings.HasPrefix(item, "**"):
			return false
		case strings.HasPrefix(item, "*"):
			kwOnly = true // after *args or *: by keyword only
		}
		return true
	})
	return pos, found
}

// eachParam calls fn with the position and the text of each parameter in
// the first bracketed list of sig (`x`, `x: int = 1`, `*args`), or an
// arrow function's unbracketed one (`x =>`), until fn returns false. paramName cuts a text to the name.
func eachParam(sig string, fn func(pos int, item string) bool) {
	open := strings.IndexByte(sig, '(')
	if arrow := strings.Index(sig, "=>"); arrow >= 0 && (open < 0 || open > arrow) {
		// An arrow function's one bare parameter: `x => x()`.
		if f := strings.Fields(sig[:arrow]); len(f) > 0 {
			fn(0, f[len(f)-1])
		}
		return
	}
	if open < 0 {
		return
	}
	end := closing(sig, open)
	if end < 0 {
		return
	}
	pos, depth, start := 0, 0, open+1
	for i := open + 1; i <= end; i++ {
		switch ch := sig[i]; {
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case (ch == ')' || ch == ']' || ch == '}') && i < end:
			depth--
		case ch == ',' && depth == 0 || i == end:
			if !fn(pos, sig[start:i]) {
				return
			}
			pos++
			start = i + 1
		}
	}
}

// decorated returns the function a call of Python function ref runs when
// its outermost decorator, a function of the same file, returns a
// function defined inside it: `@logged def store()` binds store to
// logged's inner, and calls of store run inner (which calls store
// through its parameter); a decorator factory's (`@retry(3)`, a method
// `@app.route("/")`) result returns its own inner function. wraps is
// true when that inner function presents itself as the decorated one
// (functools.wraps): calls run it all the same, but the caller means the
// decorated function, which keeps its edge.
func (c *callCtx) decorated(ref defRef) (inner defRef, wraps, ok bool) {
	if !ref.isFunc() || ref.fi != c.fi {
		// Calls from other files keep their edge to the decorated
		// function: the decorator's body is not part of what they
		// depend on (incremental updates would not redo them).
		return defRef{}, false, false
	}
	d := ref.def()
	if ref.fi.f.Lang != "python" || len(d.Decorators) == 0 {
		return defRef{}, false, false
	}
	dec := d.Decorators[0]
	last := dec
	if i := strings.LastIndexByte(dec, '.'); i >= 0 {
		last = dec[i+1:]
	}
	// The decorator left a binding of its parameter to the function: a
	// bare one (@logged) "logged()#0", a factory (@retry(3)) "retry()()#0".
	applied := func(key string) bool {
		for _, bi := range ref.fi.argFlows[key] {
			if b := &ref.fi.f.Bindings[bi]; b.FromExpr == d.Name && b.Scope == d.Parent {
				return true
			}
		}
		return false
	}
	factory := false
	switch {
	case !strings.Contains(dec, ".") && applied(dec+"()#0"):
	case applied(dec+"()()#0") || applied("."+last+"()()#0"):
		factory = true
	default:
		return defRef{}, false, false
	}
	var deco defRef
	if recv, name, dotted := strings.Cut(dec, "."); dotted && factory {
		if strings.Contains(name, ".") {
			return defRef{}, false, false
		}
		t := c.in(ref.fi).typeOf(d.Parent, recv, 0)
		if !t.known() || t.module != nil {
			return defRef{}, false, false
		}
		deco, _ = c.in(ref.fi).methodOf(t, name, 0)
	} else {
		deco, _ = c.lookupName(ref.fi, d.Parent, dec, false, 0)
	}
	if !deco.isFunc() || deco == ref || deco.fi != ref.fi {
		return defRef{}, false, false
	}
	if factory {
		if deco, ok = returnedInner(deco); !ok {
			return defRef{}, false, false
		}
	}
	w, ok := returnedInner(deco)
	if !ok {
		return defRef{}, false, false
	}
	for _, dec := range w.def().Decorators {
		if dec == "wraps" || strings.HasSuffix(dec, ".wraps") {
			return w, true, true // presents itself as the decorated function
		}
	}
	return w, false, true
}

// returnedInner is the function defined inside fn that fn returns
// (`return wrapper`), if any.
func returnedInner(fn defRef) (defRef, bool) {
	expr, ok := strings.CutPrefix(fn.def().Result, "=")
	if !ok {
		return defRef{}, false
	}
	for _, k := range fn.fi.children[fn.idx] {
		if inner := &fn.fi.f.Defs[k]; inner.Name == expr && inner.Kind == facts.Func {
			return defRef{fn.fi, k}, true
		}
	}
	return defRef{}, false
}

// decoratorEdges are the calls a decorator factory's result makes where
// it decorates: `@retry(3)` calls the decorator retry returns with the
// function below it (a bare `@logged` is a call of logged, captured as
// one).
func (c *callCtx) decoratorEdges() []graph.EdgeSpec {
	fi := c.fi
	var out []graph.EdgeSpec
	for key, bis := range fi.argFlows {
		callee, ok := strings.CutSuffix(key, "()()#0")
		if !ok {
			continue
		}
		method := strings.HasPrefix(callee, ".")
		callee = strings.TrimPrefix(callee, ".")
		for _, bi := range bis {
			b := &fi.f.Bindings[bi]
			var factory defRef
			if method {
				// @app.route("/"): the one method of this file of that
				// name that returns an inner function, else none.
				for k := range fi.f.Defs {
					fd := &fi.f.Defs[k]
					if fd.Name != callee || fd.Kind != facts.Func || fd.Parent < 0 || fi.f.Defs[fd.Parent].Kind != facts.Class {
						continue
					}
					if _, ok := returnedInner(defRef{fi, k}); ok {
						if factory.valid() {
							factory = defRef{}
							break
						}
						factory = defRef{fi, k}
					}
				}
			} else {
				factory, _ = c.lookupName(fi, b.Scope, callee, false, 0)
			}
			if !factory.isFunc() || factory.fi != fi {
				continue
			}
			if inner, ok := returnedInner(factory); ok {
				out = append(out, graph.EdgeSpec{From: fi.idOf(b.Scope), To: inner.id(), Type: graph.Call, Confidence: graph.Inferred, Line: b.Line})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].To < out[j].To
	})
	return out
}

// paramName is a parameter's text without its annotation or default.
func paramName(item string) string {
	if k := strings.IndexAny(item, ":="); k >= 0 {
		item = item[:k]
	}
	return strings.TrimSpace(item)
}

// starParam finds *name (kind 1, at position pos) or **name (kind 2) in
// the first parameter list of sig; kind 0 when there is neither.
func starParam(sig, name string) (pos, kind int) {
	if !strings.Contains(sig, "*"+name) {
		return 0, 0
	}
	eachParam(sig, func(i int, item string) bool {
		switch paramName(item) {
		case "*" + name:
			pos, kind = i, 1
		case "**" + name:
			pos, kind = i, 2
		}
		return kind == 0
	})
	return pos, kind
}

// starValues is what a function's *args (the positional arguments from
// pos on) or **kwargs (the keyword arguments) may hold: what its call
// sites in this file pass there.
func (c *callCtx) starValues(fn, pos, kind, depth int) []typ {
	fi := c.fi
	d := &fi.f.Defs[fn]
	method := fi.f.Lang == "python" && d.Parent >= 0 && fi.f.Defs[d.Parent].Kind == facts.Class
	keys := make([]string, 0, len(fi.argFlows))
	for key := range fi.argFlows {
		keys = append(keys, key)
	}
	sort.Strings(keys) // the same values in the same order every time
	var out []typ
	for _, key := range keys {
		bis := fi.argFlows[key]
		k := strings.TrimPrefix(key, ".")
		rest, ok := strings.CutPrefix(k, d.Name+"()#")
		if !ok {
			continue
		}
		if kind == 2 {
			if !strings.HasPrefix(rest, "=") {
				continue
			}
		} else {
			n, err := strconv.Atoi(rest)
			if err != nil {
				continue
			}
			if method && strings.HasPrefix(key, ".") {
				n++ // self is passed implicitly
			}
			if n < pos {
				continue
			}
		}
		for _, bi := range bis {
			out = append(out, c.bindingValues(&fi.f.Bindings[bi], depth)...)
		}
		if len(out) >= maxFlow {
			break
		}
	}
	return out
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
	for _, k := range c.fi.children[cls.cls.idx] {
		for _, bi := range c.fi.scopes[k] {
			if b := &c.fi.f.Bindings[bi]; b.Name == self+"."+name {
				out = append(out, c.bindingValues(b, 1)...)
			}
		}
	}
	return out
}
