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
	kind                                     []flowKind // by symbol
	function, object, attribute, name, value uint16
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
)

var flowKinds = map[string]flowKind{
	"identifier": kIdent, "attribute": kAttr, "lambda": kLambda, "call": kCall,
	"subscript": kSubscript, "list": kList, "tuple": kTuple, "keyword_argument": kKeywordArg,
	"argument_list": kArgList, "parenthesized_expression": kParen,
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
		case kKeywordArg, kList, kTuple:
			t.descend[i] = 1 << 1 // an argument
		case kCall:
			// an argument or a callee's object (h.setdefault(k, []) in
			// h.setdefault(k, []).append(f)); only its callee when it is a
			// keyword's value
			t.descend[i] = 1<<1 | 1<<(4+2)
		}
	}
	for id := 1; id < 1<<16; id++ {
		name := ts.FieldName(id)
		if name == "" {
			break
		}
		f := uint16(id)
		switch name {
		case "function":
			t.function = f
		case "object":
			t.object = f
		case "attribute":
			t.attribute = f
		case "name":
			t.name = f
		case "value":
			t.value = f
		}
	}
	return t
}

// subtree is a capture and the named nodes listed below it, in document
// order; index -1 is the capture itself.
type subtree struct {
	root  *cnode
	nodes []capture
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
	ft := x.s.flow
	var call *cnode
	var callee, args subtree
	for k := 0; k < len(caps); k++ {
		if _, _, ok := caps[k].sub(); ok {
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
			callee = subtree{&caps[k].node, caps[k+1 : end]}
		case roleFlowArgs:
			args = subtree{&caps[k].node, caps[k+1 : end]}
		}
	}
	if call == nil || callee.root == nil || args.root == nil {
		return
	}
	kind := func(t subtree, i int) flowKind {
		if i == -2 {
			return kOther
		}
		if s := int(t.node(i).sym); s < len(ft.kind) {
			return ft.kind[s]
		}
		return kOther
	}
	isValue := func(t subtree, i int) bool { // [(identifier) (attribute) (lambda)]
		k := kind(t, i)
		return k == kIdent || k == kAttr || k == kLambda
	}
	isName := func(t subtree, i int) bool { // [(identifier) (attribute)]
		k := kind(t, i)
		return k == kIdent || k == kAttr
	}
	text := func(t subtree, i int) []byte {
		n := t.node(i)
		return x.src[n.start:n.end]
	}
	calleeKind := kind(callee, -1)

	// (lambda: f())() calls the lambda in place
	if calleeKind == kParen {
		callee.children(-1, func(k int) bool {
			if kind(callee, k) == kLambda {
				x.add(&matchCaps{target: callee.node(k), callNode: call})
			}
			return true
		})
	}
	if kind(args, -1) != kArgList {
		return
	}
	first, second := args.nth(-1, 0), args.nth(-1, 1)

	// containers filled in place: hooks.append(f), steps.insert(0, f),
	// steps.extend([f, g]), hooks.setdefault(event, []).append(fn)
	if calleeKind == kAttr {
		obj, attr := callee.field(-1, ft.object), callee.field(-1, ft.attribute)
		if kind(callee, attr) == kIdent {
			method := text(callee, attr)
			if isName(callee, obj) {
				elems := callee.node(obj)
				switch {
				case flowAdder(method) && isValue(args, first):
					x.add(&matchCaps{bindName: elems, elems: true, bindValue: args.node(first)})
				case flowInserter(method) && first != -2 && isValue(args, second):
					x.add(&matchCaps{bindName: elems, elems: true, bindValue: args.node(second)})
				case flowExtender(method) && (kind(args, first) == kList || kind(args, first) == kTuple):
					args.children(first, func(k int) bool {
						if isValue(args, k) {
							x.add(&matchCaps{bindName: elems, elems: true, bindValue: args.node(k)})
						}
						return true
					})
				}
			} else if kind(callee, obj) == kCall && flowEntryAdd(method) && isValue(args, first) {
				inner := callee.field(obj, ft.function)
				if kind(callee, inner) == kAttr {
					iobj, iattr := callee.field(inner, ft.object), callee.field(inner, ft.attribute)
					if isName(callee, iobj) && kind(callee, iattr) == kIdent && string(text(callee, iattr)) == "setdefault" {
						x.add(&matchCaps{bindName: callee.node(iobj), elems: true, bindValue: args.node(first)})
					}
				}
			}
		}
	}
	// map(f, xs), filter(f, xs): the builtin calls f (the function's name
	// is the call's node)
	if calleeKind == kIdent && flowMapper(text(callee, -1)) && kind(args, first) == kIdent {
		x.add(&matchCaps{target: args.node(first), callNode: args.node(first)})
	}
	// sorted(xs, key=f), xs.sort(key=f), max(xs, key=f)
	keyed := false
	if calleeKind == kIdent {
		keyed = flowKeyed(text(callee, -1))
	} else if calleeKind == kAttr {
		keyed = kind(callee, callee.field(-1, ft.attribute)) == kIdent && flowKeyed(text(callee, -1))
	}
	// the values passed, by position or keyword: they bind the callee's
	// parameters
	args.children(-1, func(k int) bool {
		switch kind(args, k) {
		case kIdent, kAttr, kLambda:
			x.add(&matchCaps{argCallee: callee.root, argValue: args.node(k), argList: args.root})
		case kCall:
			if kind(args, args.field(k, ft.function)) == kIdent {
				x.add(&matchCaps{argCallee: callee.root, argValue: args.node(k), argList: args.root})
			}
		case kKeywordArg:
			name, value := args.field(k, ft.name), args.field(k, ft.value)
			if kind(args, name) != kIdent {
				break
			}
			if keyed && kind(args, value) == kIdent && string(text(args, name)) == "key" {
				x.add(&matchCaps{target: args.node(value), callNode: args.node(value)})
			}
			switch kind(args, value) {
			case kIdent, kAttr, kLambda:
				x.add(&matchCaps{argCallee: callee.root, argKw: args.node(name), argValue: args.node(value)})
			case kCall:
				if kind(args, args.field(value, ft.function)) == kIdent {
					x.add(&matchCaps{argCallee: callee.root, argKw: args.node(name), argValue: args.node(value)})
				}
			}
		}
		return true
	})
}
