package resolve

import (
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// What calls return (Python value flow): every return statement of a
// function is one of its results, a call of a call runs what the first
// returns, a container returned holds its elements, and a method call
// on a receiver holding such results reaches the methods of the
// instances' classes.

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
		for _, bi := range c.fi.bindingsNamed(s, name) {
			if b := &c.fi.f.Bindings[bi]; b.Name == name && b.FromCall != "" && !strings.Contains(b.FromCall, ".") && c.mayReturnClass(b.FromCall) {
				return true
			}
		}
		if s < 0 {
			return false
		}
	}
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
		for _, bi := range c.fi.bindingsNamed(s, name) {
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
