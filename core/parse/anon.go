package parse

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ccd-dev/ccd/core/facts"
)

// anonBuild is an anonymous function as captured: its node and where its
// body starts (a function bound to a name is captured with the same body,
// and is not anonymous).
type anonBuild struct {
	node cnode
	body uint32
}

// anonTypes are the node types of anonymous functions.
var anonTypes = map[string]bool{
	"arrow_function":      true,
	"function_expression": true,
	"generator_function":  true,
	"lambda":              true, // Python
}

// tmpAnon prefixes the name an anonymous function goes by until finish
// numbers it: its start byte.
const tmpAnon = "fn@@"

// addAnons makes definitions of the anonymous functions no named pattern
// claimed: callbacks, IIFEs, returned and stored functions. finish names
// each facts.AnonName of its rank among its holder's (numberAnon); calls
// in its body are its own, and the places that pass, store or return it
// name it that way (valueText), so value flow reaches it like a named
// function.
func (x *extractor) addAnons() {
	if len(x.anons) == 0 {
		return
	}
	named := make(map[uint32]bool, len(x.order))
	for _, d := range x.order {
		if d.hasBody {
			named[d.bodyStart] = true
		}
	}
	for _, a := range x.anons {
		sp := span{a.node.start, a.node.end}
		if named[a.body] || x.defs[sp] != nil {
			continue
		}
		named[a.body] = true
		d := &defBuild{
			kind: facts.Func, name: x.anonName(&a.node), start: sp.start, end: sp.end,
			startLine: a.node.line(), endLine: a.node.endLine(),
			bodyStart: a.body, hasBody: true, anon: true,
		}
		if own := ownName(x.src[sp.start:sp.end]); own != "" {
			// function onmount(parent) {} passed or returned: it goes
			// by its own name, which is what a person searches for;
			// what passes or returns it names it that way too.
			d.name, d.anon = x.in(own), false
			if x.anonNames == nil {
				x.anonNames, x.anonCount = map[uint32]string{}, map[int]int{}
			}
			x.anonNames[sp.start] = d.name
		}
		x.defs[sp] = d
		x.order = append(x.order, d)
	}
}

// numberAnon names anonymous definition d by its rank among the
// anonymous functions of its holder (d.parent), in source order.
func (x *extractor) numberAnon(d *defBuild) {
	if x.anonNames == nil {
		x.anonNames, x.anonCount = map[uint32]string{}, map[int]int{}
	}
	x.anonCount[d.parent]++
	d.name = x.in(facts.AnonName(x.anonCount[d.parent]))
	x.anonNames[d.start] = d.name
}

// renameAnons replaces the provisional names of anonymous functions in
// what was gathered before finish numbered them: results (`return
// function () {}`), bindings and calls (IIFEs).
func (x *extractor) renameAnons() {
	if len(x.anons) == 0 {
		return
	}
	final := func(s string) string {
		if !strings.HasPrefix(s, tmpAnon) {
			return s
		}
		start, err := strconv.ParseUint(s[len(tmpAnon):], 10, 32)
		if err != nil {
			return s
		}
		if n, ok := x.anonNames[uint32(start)]; ok {
			return n
		}
		// A function a pattern named (this.m = function () {}) is no
		// anonymous one: nothing names it by position.
		return ""
	}
	for i := range x.f.Defs {
		if r := x.f.Defs[i].Result; strings.HasPrefix(r, "="+tmpAnon) {
			x.f.Defs[i].Result = "=" + final(r[1:])
		}
	}
	kept := x.binds[:0]
	for _, b := range x.binds {
		if b.FromExpr = final(b.FromExpr); b.FromExpr != "" || b.Type != "" || b.FromCall != "" {
			kept = append(kept, b)
		}
	}
	x.binds = kept
	for i := range x.callList {
		x.callList[i].Name = final(x.callList[i].Name)
	}
}

// anonName is the name of the anonymous function at n: its final name
// once finish has numbered it, else a provisional one.
func (x *extractor) anonName(n *cnode) string {
	if name, ok := x.anonNames[n.start]; ok {
		return name
	}
	return tmpAnon + strconv.FormatUint(uint64(n.start), 10)
}

// isAnon reports whether n is an anonymous function's node.
func (x *extractor) isAnon(n *cnode) bool {
	return int(n.sym) < len(x.s.anon) && x.s.anon[n.sym]
}

// valueText is the text of an expression in a value position, whitespace
// removed, with an anonymous function named as finish names it.
func (x *extractor) valueText(n *cnode) string {
	if x.isAnon(n) {
		return x.anonName(n)
	}
	return x.squeezed(n)
}

// passAnon records an anonymous function passed as argument a. Passed to
// a callee of this file (local), which binds it to a parameter (see
// addArgFlows), the place that passes it names it: a reference. Passed to
// a callee outside the file (arr.forEach(fn), new Promise(fn),
// it('...', fn)), the callee is expected to call it, from the call that
// passes it (on the callee's line): a callback fact, which the resolver
// tells apart by the callee as written (facts.CallbackRecv).
func (x *extractor) passAnon(a *argCand, local bool) {
	call := facts.Call{Name: x.anonName(&a.value), Line: a.value.line()}
	if local {
		call.Ref = true
	} else {
		recv := facts.CallbackRecv
		if t := x.squeezed(&a.callee); len(t) <= 120 {
			recv += t
		}
		if a.kw == "" {
			// the argument's position: what the callee declares for
			// it types the function's parameters (see resolve)
			slot := 0
			if a.hasList && a.listStart < a.value.start {
				slot = argIndex(x.src[a.listStart:a.value.start])
			}
			recv += "#" + strconv.Itoa(slot)
		}
		call.Recv, call.Line = x.in(recv), a.callee.line()
	}
	x.callList = append(x.callList, callBuild{Call: call, pos: a.callee.start})
}

// ownName is the name a JavaScript function expression gives itself
// (`function protocol() {}`, `async function* walk() {}`), "" for an
// arrow function, a lambda or an unnamed expression.
func ownName(text []byte) string {
	t := bytes.TrimLeft(text, " \t\r\n(")
	if rest, ok := bytes.CutPrefix(t, []byte("async")); ok && len(rest) > 0 && isSpace(rest[0]) {
		t = bytes.TrimLeft(rest, " \t\r\n")
	}
	rest, ok := bytes.CutPrefix(t, []byte("function"))
	if !ok || len(rest) == 0 || (!isSpace(rest[0]) && rest[0] != '*') {
		return ""
	}
	t = bytes.TrimLeft(rest, " \t\r\n*")
	n := 0
	for n < len(t) {
		r, size := utf8.DecodeRune(t[n:])
		if r != '_' && r != '$' && !unicode.IsLetter(r) && (n == 0 || !unicode.IsDigit(r)) {
			break
		}
		n += size
	}
	if n == 0 {
		return ""
	}
	if after := bytes.TrimLeft(t[n:], " \t\r\n"); len(after) == 0 || (after[0] != '(' && after[0] != '<') {
		return ""
	}
	return string(t[:n])
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
