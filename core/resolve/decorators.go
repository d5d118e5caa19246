package resolve

import (
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Decorators (Python): a call of a decorated function runs the function
// its decorator returns, and the decorator runs where it decorates.

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

// stackedInner is what a decorator of a stack receives, when binding b,
// made under argument key (a bare decorator's "login_required()#0"), hands
// it a function of this file decorated by more than one: the decorator
// below it in the stack has already wrapped the function, so it receives
// that decorator's inner function (`@login_required @cached def profile`:
// login_required's view is cached's lookup_cache, which calls profile).
// ok is false for the innermost decorator, factories and decorators that
// return no inner function of their own.
func (c *callCtx) stackedInner(key string, b *facts.Binding) (defRef, bool) {
	fi := c.fi
	dec, ok := strings.CutSuffix(key, "()#0")
	if !ok || fi.f.Lang != "python" || b.FromExpr == "" || strings.ContainsAny(dec, ".()") {
		return defRef{}, false
	}
	target, _ := c.lookupName(fi, b.Scope, b.FromExpr, false, 0)
	if !target.isFunc() || target.fi != fi {
		return defRef{}, false
	}
	decs := target.def().Decorators
	for j := 0; j+1 < len(decs); j++ {
		if decs[j] != dec {
			continue
		}
		below := decs[j+1]
		if strings.ContainsAny(below, ".()") {
			return defRef{}, false // a factory or a method: not followed
		}
		deco, _ := c.lookupName(fi, target.def().Parent, below, false, 0)
		if !deco.isFunc() || deco.fi != fi {
			return defRef{}, false
		}
		return returnedInner(deco)
	}
	return defRef{}, false
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
