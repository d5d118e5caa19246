package parse

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// Value flow through calls, read without a query pattern per case.
//
// Python's flow facts about calls (a lambda called in place, a container
// filled by append, a function handed to map or sorted(key=), the
// functions passed as arguments) were nine query patterns rooted at
// `call`. Every call in a file started a query state for each, and the
// argument patterns one more per argument: a quarter of the whole query's
// time on the standard library. Now one pattern captures each call with its callee and its
// arguments (cc.flow.call, cc.flow.callee, cc.flow.args), the query run
// lists the few levels of named nodes below those two captures (see
// expansion), and callFlow reads the same cases from that list, handing
// the extractor the same captures the patterns gave. One difference: an
// extra node among the arguments (a comment, a line continuation, the
// node of a syntax error) is skipped, where an anchored pattern
// (`(argument_list . (identifier))`) took it for the first argument and
// missed `hooks.append(  # why\n    fn)`, and the same with a backslash
// ending the first line.

// flowTables is what callFlow needs to know of a grammar: its symbols'
// kinds and the ids of the fields it reads.
type flowTables struct {
	expansion
	kind                                          []flowKind // by symbol
	function, object, attribute, name, value, key uint16
}

// flowKind is the type of a node, among those callFlow tells apart.
type flowKind uint8

const (
	kOther flowKind = iota
	kIdent
	kAttr
	kLambda
	kCall
	kSubscript
	kList
	kTuple
	kKeywordArg
	kArgList
	kParen
	kDict
	kPair
)

var flowKinds = map[string]flowKind{
	"identifier": kIdent, "attribute": kAttr, "lambda": kLambda, "call": kCall,
	"subscript": kSubscript, "list": kList, "tuple": kTuple, "keyword_argument": kKeywordArg,
	"argument_list": kArgList, "parenthesized_expression": kParen,
	"dictionary": kDict, "pair": kPair,
}

// flowDepth is how many levels below the callee and the argument list
// callFlow reads: the deepest cases are h.setdefault(k, []).append(f)
// (below the callee: a call, its callee attribute, that one's object)
// and f(key=make()) (below the arguments: the keyword argument, the call,
// its callee).
const flowDepth = 3

// newFlowTables returns the tables of a query that captures cc.flow.*,
// or nil.
func newFlowTables(ts *sitter.Language, roles []role, symbols []string) *flowTables {
	t := &flowTables{}
	for i, r := range roles {
		if r == roleFlowCallee || r == roleFlowArgs {
			if t.expand == nil {
				t.expand = make([]uint8, len(roles))
			}
			t.expand[i] = flowDepth
		}
	}
	if t.expand == nil {
		return nil
	}
	t.kind = make([]flowKind, len(symbols))
	t.descend = make([]uint8, len(symbols))
	for i, name := range symbols {
		t.kind[i] = flowKinds[name]
		switch t.kind[i] {
		case kAttr:
			t.descend[i] = 1 << 2 // the callee of a call that is a callee's object
		case kKeywordArg, kList, kTuple, kDict:
			t.descend[i] = 1 << 1 // an argument
		case kPair:
			t.descend[i] = 1 << 2 // an entry of a dict argument
		case kCall:
			// an argument or a callee's object (h.setdefault(k, []) in
			// h.setdefault(k, []).append(f)); only its callee when it is a
			// keyword's value
			t.descend[i] = 1<<1 | 1<<(4+2)
		}
	}
	fields := map[string]*uint16{"function": &t.function, "object": &t.object, "attribute": &t.attribute,
		"name": &t.name, "value": &t.value, "key": &t.key}
	for id := 1; id < 1<<16; id++ {
		name := ts.FieldName(id)
		if name == "" {
			break
		}
		if f := fields[name]; f != nil {
			*f = uint16(id)
		}
	}
	return t
}

// subtree is a capture and the named nodes listed below it, in document
// order; index -1 is the capture itself, -2 no node.
type subtree struct {
	root  *cnode
	nodes []capture
	ft    *flowTables
	src   []byte
}

func (t subtree) node(i int) *cnode {
	if i < 0 {
		return t.root
	}
	return &t.nodes[i].node
}

func (t subtree) depth(i int) int {
	if i < 0 {
		return 0
	}
	d, _, _ := t.nodes[i].sub()
	return d
}

// kind is node i's type among those callFlow tells apart (kOther for -2).
func (t subtree) kind(i int) flowKind {
	if i == -2 {
		return kOther
	}
	if s := int(t.node(i).sym); s < len(t.ft.kind) {
		return t.ft.kind[s]
	}
	return kOther
}

// isValue: [(identifier) (attribute) (lambda)].
func (t subtree) isValue(i int) bool {
	k := t.kind(i)
	return k == kIdent || k == kAttr || k == kLambda
}

// isName: [(identifier) (attribute)].
func (t subtree) isName(i int) bool {
	k := t.kind(i)
	return k == kIdent || k == kAttr
}

// isCallOfName: (call function: (identifier)).
func (t subtree) isCallOfName(i int) bool {
	return t.kind(i) == kCall && t.kind(t.field(i, t.ft.function)) == kIdent
}

func (t subtree) text(i int) []byte {
	n := t.node(i)
	return t.src[n.start:n.end]
}

// children calls fn with each child of node i that is not an extra (a
// comment, a line continuation, an error), in order, until fn returns
// false.
func (t subtree) children(i int, fn func(k int) bool) {
	d := t.depth(i)
	for k := i + 1; k < len(t.nodes); k++ {
		kd := t.depth(k)
		if kd <= d {
			return
		}
		if kd == d+1 && t.nodes[k].index&subExtra == 0 && !fn(k) {
			return
		}
	}
}

// field returns the child of node i in the given field, or -2.
func (t subtree) field(i int, f uint16) int {
	out := -2
	t.children(i, func(k int) bool {
		if _, kf, _ := t.nodes[k].sub(); kf == f {
			out = k
			return false
		}
		return true
	})
	return out
}

// nth returns the n-th child of node i (from 0), or -2.
func (t subtree) nth(i, n int) int {
	out := -2
	t.children(i, func(k int) bool {
		if n == 0 {
			out = k
			return false
		}
		n--
		return true
	})
	return out
}

// The methods and builtins callFlow knows, by name (a switch on the
// name's bytes: regular expressions cost a tenth of the extraction).
func flowAdder(m []byte) bool {
	switch string(m) {
	case "append", "add", "appendleft", "put", "put_nowait":
		return true
	}
	return false
}

func flowInserter(m []byte) bool { return string(m) == "insert" || string(m) == "setdefault" }

func flowExtender(m []byte) bool { return string(m) == "extend" || string(m) == "extendleft" }

func flowEntryAdd(m []byte) bool { return string(m) == "append" || string(m) == "add" }

func flowMapper(m []byte) bool { return string(m) == "map" || string(m) == "filter" }

// flowKeyed reports whether a callee as written (sorted, xs.sort,
// heapq.nlargest) takes a key function.
func flowKeyed(callee []byte) bool {
	if i := bytes.LastIndexByte(callee, '.'); i >= 0 {
		callee = callee[i+1:]
	}
	switch string(callee) {
	case "sorted", "min", "max", "sort", "nlargest", "nsmallest", "groupby":
		return true
	}
	return false
}

// callFlow reads one cc.flow.call match: the call, its callee and its
// arguments with the nodes below them.
func (x *extractor) callFlow(caps []capture) {
	var call *cnode
	callee := subtree{ft: x.s.flow, src: x.src}
	args := callee
	for k := 0; k < len(caps); k++ {
		if caps[k].index&subMark != 0 {
			continue
		}
		end := k + 1
		for end < len(caps) && caps[end].index&subMark != 0 {
			end++
		}
		switch x.s.roles[caps[k].index] {
		case roleFlowCall:
			call = &caps[k].node
		case roleFlowCallee:
			callee.root, callee.nodes = &caps[k].node, caps[k+1:end]
		case roleFlowArgs:
			args.root, args.nodes = &caps[k].node, caps[k+1:end]
		}
	}
	if call == nil || callee.root == nil || args.root == nil {
		return
	}
	// (lambda: f())() calls the lambda in place
	if callee.kind(-1) == kParen {
		callee.children(-1, func(k int) bool {
			if callee.kind(k) == kLambda {
				x.add(&matchCaps{target: callee.node(k), callNode: call})
			}
			return true
		})
	}
	if args.kind(-1) != kArgList {
		return
	}
	x.fillFlow(callee, args)
	// map(f, xs), filter(f, xs): the builtin calls f (the function's name
	// is the call's node)
	if first := args.nth(-1, 0); callee.kind(-1) == kIdent && flowMapper(callee.text(-1)) && args.kind(first) == kIdent {
		x.add(&matchCaps{target: args.node(first), callNode: args.node(first)})
	}
	// sorted(xs, key=f), xs.sort(key=f), max(xs, key=f)
	keyed := false
	switch callee.kind(-1) {
	case kIdent:
		keyed = flowKeyed(callee.text(-1))
	case kAttr:
		keyed = callee.kind(callee.field(-1, callee.ft.attribute)) == kIdent && flowKeyed(callee.text(-1))
	}
	// the values passed, by position or keyword: they bind the callee's
	// parameters
	args.children(-1, func(k int) bool {
		if args.isValue(k) || args.isCallOfName(k) {
			x.add(&matchCaps{argCallee: callee.root, argValue: args.node(k), argList: args.root})
			return true
		}
		if args.kind(k) == kSubscript {
			// run(handlers["a"]): an element of a container
			x.add(&matchCaps{argCallee: callee.root, argValue: args.node(k), argList: args.root})
			return true
		}
		if args.kind(k) == kDict {
			// run({"a": f}): the values are the parameter's elements
			args.children(k, func(p int) bool {
				if v := args.field(p, args.ft.value); args.kind(p) == kPair && args.isName(v) {
					x.add(&matchCaps{argCallee: callee.root, argValue: args.node(v), argList: args.root, argElem: true})
				}
				return true
			})
			return true
		}
		if kind := args.kind(k); kind == kList || kind == kTuple {
			// run([validate, save]): the elements of the parameter
			args.children(k, func(e int) bool {
				if args.isName(e) {
					x.add(&matchCaps{argCallee: callee.root, argValue: args.node(e), argList: args.root, argElem: true})
				}
				return true
			})
			return true
		}
		if args.kind(k) != kKeywordArg {
			return true
		}
		name, value := args.field(k, args.ft.name), args.field(k, args.ft.value)
		if args.kind(name) != kIdent {
			return true
		}
		if keyed && args.kind(value) == kIdent && string(args.text(name)) == "key" {
			x.add(&matchCaps{target: args.node(value), callNode: args.node(value)})
		}
		if args.isValue(value) || args.isCallOfName(value) {
			x.add(&matchCaps{argCallee: callee.root, argKw: args.node(name), argValue: args.node(value)})
		}
		return true
	})
}

// fillFlow reads the containers a call fills in place: hooks.append(f),
// steps.insert(0, f), steps.extend([f, g]) and
// hooks.setdefault(event, []).append(fn) bind the elements of hooks and
// steps.
func (x *extractor) fillFlow(callee, args subtree) {
	ft := callee.ft
	if callee.kind(-1) != kAttr {
		return
	}
	obj, attr := callee.field(-1, ft.object), callee.field(-1, ft.attribute)
	if callee.kind(attr) != kIdent {
		return
	}
	method := callee.text(attr)
	first, second := args.nth(-1, 0), args.nth(-1, 1)
	bind := func(elems *cnode, value int) {
		x.add(&matchCaps{bindName: elems, elems: true, bindValue: args.node(value)})
	}
	if callee.isName(obj) {
		switch {
		case flowAdder(method) && args.isValue(first):
			bind(callee.node(obj), first)
		case flowInserter(method) && first != -2 && args.isValue(second):
			bind(callee.node(obj), second)
		case string(method) == "update" && args.kind(first) == kDict:
			// table.update({"a": f}): entries under their keys
			args.children(first, func(p int) bool {
				if k, v := args.field(p, ft.key), args.field(p, ft.value); args.kind(p) == kPair && args.isValue(v) && k >= 0 {
					x.add(&matchCaps{bindName: callee.node(obj), elems: true, bindValue: args.node(v), key: args.node(k)})
				}
				return true
			})
		case flowExtender(method) && (args.kind(first) == kList || args.kind(first) == kTuple):
			args.children(first, func(k int) bool {
				if args.isValue(k) {
					bind(callee.node(obj), k)
				}
				return true
			})
		}
		return
	}
	if callee.kind(obj) != kCall || !flowEntryAdd(method) || !args.isValue(first) {
		return
	}
	inner := callee.field(obj, ft.function)
	if callee.kind(inner) != kAttr {
		return
	}
	iobj, iattr := callee.field(inner, ft.object), callee.field(inner, ft.attribute)
	if callee.isName(iobj) && callee.kind(iattr) == kIdent && string(callee.text(iattr)) == "setdefault" {
		bind(callee.node(iobj), first)
	}
}
