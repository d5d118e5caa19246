package parse

import (
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
	for _, im := range x.f.Imports {
		if im.Alias != "" {
			names[im.Alias] = true
		}
		if im.Name != "" {
			names[im.Name] = true
		}
	}
	for _, n := range x.refCands {
		text := strings.Join(strings.Fields(x.text(&n)), "")
		recv, name := "", text
		if i := strings.LastIndexByte(text, '.'); i >= 0 {
			recv, name = text[:i], text[i+1:]
		}
		if name == "" || !names[name] || strings.ContainsAny(recv, "()[]{}\"'") {
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
	pos := make([]uint32, len(x.locals))
	for i := range x.locals {
		pos[i] = x.locals[i].start
	}
	encl(pos, func(i, d int) {
		if n := &x.locals[i]; !x.defNames[n.start] && n.end-n.start <= 64 {
			shadow[local{x.text(n), d}] = true
		}
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
