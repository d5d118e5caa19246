package resolve

import (
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// Overrides (Python, JavaScript/TypeScript): a call through an instance
// runs the method of the instance's class, which may be a subclass that
// overrides the method the call binds to. `self.setup()` in a base
// class's template method runs StreamHandler.setup when self is one; a
// parameter typed by an abstract base runs the concrete classes' put.
// The call keeps its edge to the method it binds to and gains an
// inferred edge to each override by a subclass defined in the same file
// as the call (a subclass in another file would make this file's edges
// depend on that file's content, which incremental updates do not
// track).

// overrides returns the methods of this file's subclasses that override
// to, the method a call through an instance binds to.
func (c *callCtx) overrides(call *facts.Call, to defRef) []defRef {
	fi := c.fi
	if call.New || call.Ref || !to.isFunc() || (fi.f.Lang != "python" && family(fi.f.Lang) != "js") {
		return nil
	}
	owner := to.def().Parent
	if owner < 0 || to.fi.f.Defs[owner].Kind != facts.Class {
		return nil
	}
	base := defRef{to.fi, owner}
	subs := c.subclasses()[base]
	if len(subs) == 0 {
		return nil
	}
	recv := call.Recv
	var rc defRef // the receiver's class: overrides come from it and below
	switch {
	case recv == "" || recv == "super" || strings.HasPrefix(recv, "super("):
		return nil
	case fi.lang.isSelf(recv):
		cls, ok := c.enclosingClass(call.Caller)
		if !ok || !cls.cls.valid() {
			return nil
		}
		rc = cls.cls
		if rc != base && !c.isAncestor(rc, base) {
			// self.response_class(rv): a class an attribute holds,
			// not a method of self's.
			rc = base
		}
	case strings.HasSuffix(recv, ")") && !strings.HasPrefix(recv, "("):
		// A call's result: Storage().put() has exactly that class; a
		// factory's result (make_parser().parse()) is typed by what it
		// returns or declares, often a base.
		if head, _, _ := strings.Cut(recv, "("); c.typeName(c.fi, call.Caller, head, 0).cls.valid() {
			return nil
		}
		fallthrough
	default:
		t := c.typeOf(call.Caller, recv, 0)
		if !t.instance || t.cls != base && !c.isAncestor(t.cls, base) {
			return nil
		}
		rc = t.cls
	}
	name := to.def().Name
	var out []defRef
	for _, k := range subs {
		if k != rc && !c.isAncestor(k, rc) {
			continue // a sibling of the receiver's class
		}
		if m, ok := c.ownMethod(typ{cls: k}, name); ok && m != to && m.isFunc() {
			out = append(out, m)
			if len(out) == maxFlow {
				break
			}
		}
	}
	return out
}

// isAncestor reports whether class a is among the bases of class k, at
// any depth.
func (c *callCtx) isAncestor(k, a defRef) bool {
	if !k.valid() {
		return false
	}
	for _, b := range c.ancestors(k) {
		if b == a {
			return true
		}
	}
	return false
}

// ancestors lists the workspace classes class k inherits from, nearest
// first (Python: its C3 linearization).
func (c *callCtx) ancestors(k defRef) []defRef {
	t := typ{cls: k}
	var out []defRef
	if k.fi.f.Lang == "python" {
		if out, ok := c.ancs[k]; ok {
			return out
		}
		if mro, ok := c.mro(t, 0); ok {
			out = make([]defRef, 0, len(mro)-1)
			for _, b := range mro[1:] {
				out = append(out, b.cls)
			}
			if c.ancs == nil {
				c.ancs = map[defRef][]defRef{}
			}
			c.ancs[k] = out
			return out
		}
	}
	seen := map[defRef]bool{k: true}
	queue := []typ{t}
	for depth := 0; len(queue) > 0 && depth <= maxDepth; depth++ {
		var next []typ
		for _, q := range queue {
			for _, b := range c.bases(q, depth) {
				if b.cls.valid() && !seen[b.cls] {
					seen[b.cls] = true
					out = append(out, b.cls)
					next = append(next, b)
				}
			}
		}
		queue = next
	}
	return out
}

// subclasses maps each class to the classes of this file that inherit
// from it (directly or not), in the file's order; computed once per file.
func (c *callCtx) subclasses() map[defRef][]defRef {
	if c.subs != nil {
		return c.subs
	}
	c.subs = map[defRef][]defRef{}
	defs := c.fi.f.Defs
	for k := range defs {
		if defs[k].Kind != facts.Class || len(defs[k].Bases) == 0 {
			continue
		}
		cls := defRef{c.fi, k}
		for _, a := range c.ancestors(cls) {
			c.subs[a] = append(c.subs[a], cls)
		}
	}
	return c.subs
}
