package resolve

import (
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/compat"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Go code hands its values to the standard library, which calls their
// methods back: sort.Sort(ns) calls ns.Len, fmt prints a Key through
// Key.String, an http.Server calls Mux.ServeHTTP. No call site names
// those methods. callbackMethods are the method names of the standard
// interfaces that work this way (io's Read and Write are left out: code
// calls them by name far more often than io.Copy does); a function that holds a value of a
// workspace type (a parameter, a variable) gets a reference edge to that
// type's methods of these names, and so does the type (for its own
// methods), marked inferred: whoever reaches the function may reach them
// (affected tests follow references).
var callbackMethods = map[string][2]int{ // name → parameters, results
	"String": {0, 1}, "GoString": {0, 1}, "Format": {2, 0}, "Error": {0, 1}, "Unwrap": {0, 1}, // fmt, errors
	"ServeHTTP": {2, 0},                                 // net/http.Handler
	"Len":       {0, 1}, "Less": {2, 1}, "Swap": {2, 0}, // sort.Interface
	"Push": {1, 0}, "Pop": {0, 1}, // container/heap.Interface
	"MarshalJSON": {0, 2}, "UnmarshalJSON": {1, 1}, // encoding/json
	"MarshalText": {0, 2}, "UnmarshalText": {1, 1}, // encoding
	"MarshalBinary": {0, 2}, "UnmarshalBinary": {1, 1},
}

// callbackNames lists callbackMethods' names, sorted (for mentions).
var callbackNames = func() []string {
	var ns []string
	for n := range callbackMethods {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}()

// fitsCallback reports whether method d has the parameter and result
// counts of the standard method of its name (FlagSet.String(name, value,
// usage) is no fmt.Stringer).
func fitsCallback(d *facts.Def) bool {
	want, ok := callbackMethods[d.Name]
	if !ok {
		return false
	}
	sig := compat.Parse("go", d.Signature)
	return sig.OK && len(sig.Params) == want[0] && sig.Results == want[1]
}

// callbackEdges are the reference edges from each function of a Go file to
// the callback methods of the workspace types it holds values of.
func (c *callCtx) callbackEdges() []graph.EdgeSpec {
	fi := c.fi
	if fi.f.Lang == "python" {
		return c.implicitEdges()
	}
	if fi.f.Lang != "go" {
		return nil
	}
	type key struct {
		from int
		to   string
	}
	seen := map[key]bool{}
	var out []graph.EdgeSpec
	add := func(scope int, t typ, line int) {
		if !t.known() || t.module != nil || t.fn.valid() {
			return
		}
		tname := t.name
		if t.cls.valid() {
			tname = t.cls.def().Name
		}
		for _, own := range c.r.owned[tname] {
			name := own.def().Name
			if own.fi.f.Lang != "go" || !fitsCallback(own.def()) {
				continue
			}
			// The method of that name t has (the type named tname in
			// t's package, not another package's namesake).
			m, ok := c.methodOf(t, name, 0)
			if !ok || !m.isFunc() || (m.fi == fi && m.idx == scope) || !fitsCallback(m.def()) {
				continue
			}
			k := key{scope, m.id()}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, graph.EdgeSpec{From: fi.ids[scope], To: m.id(), Type: graph.Ref, Confidence: graph.Inferred, Line: line})
		}
	}
	defs := fi.f.Defs
	for i := range fi.f.Bindings {
		b := &fi.f.Bindings[i]
		if b.Scope < 0 || defs[b.Scope].Kind != facts.Func {
			continue
		}
		if d := &defs[b.Scope]; d.Owner != "" && b.Line == d.StartLine && strings.TrimLeft(b.Type, "*") == d.Owner {
			continue // the receiver: its type holds the edges (below)
		}
		if b.Type != "" {
			// A declared type: skip resolving it unless a type of
			// that name has callbacks at all (most do not).
			tn := strings.TrimLeft(b.Type, "*[]")
			if i := strings.LastIndexByte(tn, '.'); i >= 0 {
				tn = tn[i+1:]
			}
			if !c.holdsCallbacks(tn) {
				continue
			}
		}
		add(b.Scope, c.bindingType(b, 0), b.Line)
	}
	// The type itself holds its callbacks: its methods hand the receiver
	// on (nodes.Sort calls sort.Sort(ns)), and the tests search of the
	// graph reaches a type through any of its methods. One edge per type
	// and method, not one per method of the type.
	for i := range defs {
		if d := &defs[i]; d.Kind == facts.Class {
			add(i, typ{cls: defRef{fi, i}, name: d.Name, ctx: fi, instance: true, conf: graph.Resolved}, d.StartLine)
		}
	}
	return out
}

// holdsCallbacks reports whether some Go type named tname has a method
// of callbackMethods with the standard method's shape.
func (c *callCtx) holdsCallbacks(tname string) bool {
	for _, m := range c.r.owned[tname] {
		if d := m.def(); m.fi.f.Lang == "go" {
			if _, ok := callbackMethods[d.Name]; ok && fitsCallback(d) {
				return true
			}
		}
	}
	return false
}

// implicitEdges are Python's calls no call site names: the special methods
// the interpreter runs (`for x in s` runs s.__iter__ and __next__,
// sorted() runs __lt__, `with` runs __enter__ and __exit__, print runs
// __str__) and properties (attribute syntax runs the function). Each gets
// a reference edge from its class, marked inferred: whoever reaches the
// class (through any of its methods, the constructor included) may run
// them.
func (c *callCtx) implicitEdges() []graph.EdgeSpec {
	fi := c.fi
	defs := fi.f.Defs
	var out []graph.EdgeSpec
	for i := range defs {
		d := &defs[i]
		if d.Kind != facts.Func || d.Parent < 0 || defs[d.Parent].Kind != facts.Class {
			continue
		}
		if !implicitlyRun(d) {
			continue
		}
		out = append(out, graph.EdgeSpec{From: fi.ids[d.Parent], To: fi.ids[i], Type: graph.Ref, Confidence: graph.Inferred, Line: d.StartLine})
	}
	return out
}

// implicitlyRun reports whether Python runs method d without a call of its
// name: a special method (other than __init__ and __new__, which calls of
// the class reach) or a property.
func implicitlyRun(d *facts.Def) bool {
	n := d.Name
	if len(n) > 4 && strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") {
		return n != "__init__" && n != "__new__" && n != "__init_subclass__" && n != "__class_getitem__"
	}
	for _, dec := range d.Decorators {
		if dec == "property" || dec == "cached_property" || dec == "functools.cached_property" ||
			strings.HasSuffix(dec, ".setter") || strings.HasSuffix(dec, ".getter") || strings.HasSuffix(dec, ".deleter") {
			return true
		}
	}
	return false
}
