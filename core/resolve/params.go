package resolve

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

// Parameters: what the calls of a function pass for each parameter (in
// this file, and for Python from the files importing it), defaults,
// *args and **kwargs, callbacks' parameters typed by their callee, and
// the readers of parameter lists the rest of the resolver uses.

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
			b := &fi.f.Bindings[bi]
			if w, ok := c.stackedInner(k, b); ok {
				out = append(out, typ{fn: w, conf: graph.Inferred})
			} else {
				out = append(out, c.bindingValues(b, depth)...)
			}
			if len(out) >= maxFlow {
				return out
			}
		}
	}
	c.eachPasser(fn, keys, "", depth, func(in *callCtx, ab *facts.Binding) bool {
		out = append(out, in.bindingValues(ab, depth)...)
		return len(out) < maxFlow
	})
	return out
}

// passesAcross reports whether value flow follows what files of lang pass
// to functions they import (from lib import run_task; run_task(f);
// const compose = require('./compose'); compose(this.middleware)).
func passesAcross(lang string) bool {
	return lang == "python" || family(lang) == "js"
}

// eachPasser calls fn with the argument bindings (keys, each with suffix:
// "" for the value passed, "[]" for the elements of a literal passed)
// that other files importing function fn make for it, with a context in
// their file, while fn returns true.
func (c *callCtx) eachPasser(fn int, keys []string, suffix string, depth int, visit func(in *callCtx, ab *facts.Binding) bool) {
	fi := c.fi
	d := &fi.f.Defs[fn]
	if d.Parent >= 0 || !passesAcross(fi.f.Lang) {
		return
	}
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
			for _, bi := range b.argFlows[k+suffix] {
				ab := &b.f.Bindings[bi]
				var ref defRef
				if family(b.f.Lang) == "js" {
					// const compose = require('./compose'): the module's
					// export
					ref, _ = in.callable(ab.Scope, d.Name, depth+1)
				} else {
					ref, _ = c.lookupName(b, ab.Scope, d.Name, false, depth+1)
				}
				if ref != self {
					continue // another function of that name
				}
				if !visit(in, ab) {
					return
				}
			}
		}
	}
}

// indexPassers lists, for each function name, the Python and JavaScript
// files that pass values to an imported function of that name
// (resolver.passers).
func (r *resolver) indexPassers() {
	r.passers = map[string][]*fileInfo{}
	for _, fi := range r.list {
		if !passesAcross(fi.f.Lang) {
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
// in this file pass for it, named (`process(req, steps)`), returned by
// a function of the file (`process(req, build_pipeline())`) or written
// in the call (`compose([logger, router])`, bound as "compose()#0[]").
func (c *callCtx) paramElems(fn, pos int, name string, depth int) []typ {
	fi := c.fi
	var out []typ
	keys := c.argKeys(fn, pos, name)
	for _, k := range keys {
		for _, bi := range fi.argFlows[k] {
			b := &fi.f.Bindings[bi]
			out = append(out, c.exprElems(b.Scope, b.FromExpr, depth)...)
			if len(out) >= maxFlow {
				return out
			}
		}
		for _, bi := range fi.argFlows[k+"[]"] {
			out = append(out, c.bindingValues(&fi.f.Bindings[bi], depth+1)...)
			if len(out) >= maxFlow {
				return out
			}
		}
	}
	if family(fi.f.Lang) != "js" {
		return out // Python's elements come from this file (its surface tracks no more)
	}
	// what files importing fn pass: compose(this.middleware) elsewhere
	c.eachPasser(fn, keys, "", depth, func(in *callCtx, ab *facts.Binding) bool {
		out = append(out, in.exprElems(ab.Scope, ab.FromExpr, depth)...)
		return len(out) < maxFlow
	})
	c.eachPasser(fn, keys, "[]", depth, func(in *callCtx, ab *facts.Binding) bool {
		out = append(out, in.bindingValues(ab, depth+1)...)
		return len(out) < maxFlow
	})
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

// paramName is a parameter's text without its annotation or default.
func paramName(item string) string {
	if k := strings.IndexAny(item, ":="); k >= 0 {
		item = item[:k]
	}
	return strings.TrimSpace(item)
}

// starParam finds *name or JavaScript's ...name (kind 1, at position pos)
// or **name (kind 2) in the first parameter list of sig; kind 0 when there
// is neither.
func starParam(sig, name string) (pos, kind int) {
	if !strings.Contains(sig, "*"+name) && !strings.Contains(sig, "..."+name) {
		return 0, 0
	}
	eachParam(sig, func(i int, item string) bool {
		switch paramName(item) {
		case "*" + name, "..." + name: // JavaScript's rest parameter too
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
