package resolve

import (
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Methods looked up by name: getattr(obj, name[, default]).

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
		for _, bi := range c.fi.bindingsNamed(s, name) {
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
