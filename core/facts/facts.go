// Package facts holds what parsing learns about one source file: its
// definitions, imports, call sites and typed bindings. It is plain data (no
// cgo), shared by the parser that produces it, the resolver that turns it into
// graph edges, and the store that persists it.
package facts

import (
	"strconv"
	"strings"
)

// DefKind tells what a definition is.
type DefKind uint8

const (
	// Class is any type-like definition: class, struct, interface, enum,
	// trait, Ruby module, TypeScript namespace.
	Class DefKind = iota + 1
	// Func is any callable: function, method, constructor, closure bound to a name.
	Func
)

func (k DefKind) String() string {
	switch k {
	case Class:
		return "class"
	case Func:
		return "func"
	}
	return "unknown"
}

// File is everything the resolver needs to know about one file.
type File struct {
	Path  string // slash-separated, relative to the workspace root
	Lang  string // language name from the config table ("python", "go", ...)
	Hash  string // hex content hash; decides whether a file changed
	Size  int64
	Lines int

	// SyntaxErrors counts ERROR and MISSING nodes. A file with syntax errors
	// still yields every definition and call the parser could recover.
	SyntaxErrors int
	// ErrorLine is the line of the first syntax error (0: none).
	ErrorLine int
	// Package is the declared package or namespace (Go package clause, Java
	// package declaration), when the language has one.
	Package string
	// Build is a Go file's build constraint as one expression (its
	// //go:build line and its name's _GOOS/_GOARCH suffix: "windows",
	// "linux && arm64"), "" when every build takes it (see core/gobuild).
	Build string
	// DefaultExport names the definition a module exports as its default
	// (JS `export default f`, `module.exports = F`), when it says so.
	DefaultExport string

	Defs     []Def
	Imports  []Import
	Calls    []Call
	Bindings []Binding
	// Refs are qualified references that are not calls (`pkg.T` in a type,
	// `pkg.Var`), kept only when the qualifier is an imported name: they
	// tell which files of an imported package a file uses.
	Refs []Ref
	// Values are the names of top-level variables and constants (Go), which
	// are not graph nodes but can be what an importer references.
	Values []string
}

// Ref is a reference to a name through a qualifier.
type Ref struct {
	Recv string // the qualifier as written ("pkg")
	Name string
	Line int
}

// Def is one definition. Defs are ordered by start position; Parent indexes
// into the same slice (-1 for top level).
type Def struct {
	Name   string
	Qual   string // qualified name inside the file: "Outer.Inner.method"
	Kind   DefKind
	Parent int

	StartLine, EndLine int // 1-based, inclusive
	StartByte, EndByte int

	// Signature is the declaration's head (up to its body), on one line.
	Signature string
	// Owner is the type a method belongs to when that type is not the
	// syntactic parent: Go receivers, Rust impl targets, C++ out-of-line
	// definitions ("Foo" for `void Foo::bar()`).
	Owner string
	// Bases are the base types as written (superclasses, implemented
	// interfaces, embedded structs, included Ruby modules).
	Bases []string
	// Result is the declared result type of a function, used to type
	// variables bound to its return value (Go `x := NewT()`). Where none
	// is declared it may be "=" and the expression the body returns
	// (JavaScript `return this`, `return new Option(flags)`).
	Result string
	// Decorators are decorator and annotation names (`Test`, `pytest.fixture`,
	// `test` for Rust's #[test]).
	Decorators []string
}

// AnonName is the name of the nth anonymous function (a callback, an
// arrow function, an IIFE) of the definition holding it, counted from 1
// in source order: "fn@2". Its id (qualified by its holders) stays the
// same when lines move. No identifier contains '@', so it names nothing
// else.
func AnonName(n int) string {
	return "fn@" + strconv.Itoa(n)
}

// IsAnonName reports whether name is an AnonName.
func IsAnonName(name string) bool {
	return strings.HasPrefix(name, "fn@")
}

// Anonymous reports whether d is an anonymous function.
func (d *Def) Anonymous() bool { return d.Kind == Func && IsAnonName(d.Name) }

// IsCallSite reports whether c is a call written in the source, not a
// function named as a value (Ref, instantiations included) or a callback
// handed to a callee (CallbackRecv): only call sites have a callee a
// language server can be asked about.
func (c *Call) IsCallSite() bool { return !c.Ref && !strings.HasPrefix(c.Recv, CallbackRecv) }

// CallbackRecv prefixes the receiver of a Call that passes an anonymous
// function (Name) to a callee outside the file, followed by the callee as
// written and the argument's position ("=>arr.forEach#0"): a callee
// outside the workspace is expected to call it, where it is passed.
const CallbackRecv = "=>"

// CallbackCallee splits the receiver of a callback Call (after
// CallbackRecv) into the callee as written and the argument's position
// (-1 when not known).
func CallbackCallee(recv string) (callee string, arg int) {
	recv = strings.TrimPrefix(recv, CallbackRecv)
	i := strings.LastIndexByte(recv, '#')
	if i < 0 || i == len(recv)-1 {
		return recv, -1
	}
	n := 0
	for _, ch := range recv[i+1:] {
		if ch < '0' || ch > '9' {
			return recv, -1
		}
		n = n*10 + int(ch-'0')
	}
	return recv[:i], n
}

// ReturnName names the Bindings of a function's return statements, one
// per statement returning a name (`return render_bold`, `return User`),
// scoped to the function: together they are what a call of it may be.
// No identifier is a keyword, so it names nothing else.
const ReturnName = "return"

// ObjectLiteral is a Binding's FromExpr when the value is a JavaScript
// object literal (`this.out = { write(s) {...} }`): its methods are
// definitions of the function the binding lives in.
const ObjectLiteral = "{}"

// Import is one imported module, or one name imported from a module.
type Import struct {
	Spec  string // module as written: "os.path", "./util", "github.com/x/y", "crate::a::b"
	Name  string // imported symbol, empty when the whole module is imported
	Alias string // local name the import binds, empty for the default
	Star  bool   // wildcard: `from m import *`, `import a.*`, `use a::*`
	// Kind distinguishes import flavours a resolver treats differently:
	// "" (plain), "require", "require_relative", "include_system", "source",
	// "mod", "default" (JS default import), "reexport".
	Kind string
	Line int
}

// Call is one call site.
type Call struct {
	Name string // callee identifier: "f" in `a.b.f(x)`
	// Recv is the receiver or qualifier as written ("self", "a.b", "pkg",
	// "Type"); empty for a bare call.
	Recv string
	// New marks a constructor call (`new X()`, Ruby `X.new`).
	New bool
	// Ref marks a function named as a value, not called: passed as an
	// argument (`sort.Slice(x, less)`, `http.HandlerFunc(mx.routeHTTP)`),
	// assigned (`lx.state = lexText`), put in a table or returned. Whoever
	// holds the value may call it; the resolver makes a reference edge.
	Ref bool
	// Arity is one more than the number of positional arguments the
	// call passes, recorded for Python calls of a value (`cb(x)`,
	// `table[k](a, b)`), whose targets flow analysis guesses; 0 when not
	// recorded, when the call passes keywords or unpacks (*xs, **kw), or
	// passes more than 254. (A byte: it fits beside New and Ref.)
	Arity uint8
	// Caller indexes Defs: the innermost enclosing definition, or -1 when the
	// call runs at module top level.
	Caller int
	Line   int
}

// Binding records a name whose type is known: a parameter or variable with a
// declared type, a variable assigned a constructor or call result, or a
// class field.
type Binding struct {
	Name string
	// Type is the declared or constructed type as written ("T", "pkg.T").
	Type string
	// FromCall is set instead of Type when the value is a call whose result
	// type has to be looked up ("NewT", "pkg.NewT").
	FromCall string
	// FromExpr is set instead when the value is another expression whose
	// type is looked up ("hs.c", "self.parser").
	FromExpr string
	// Scope indexes Defs: the function or class the binding lives in, -1 for
	// module level. A binding scoped to a class is a field.
	Scope int
	Line  int
	// Straight marks a binding made by a statement of its scope's body
	// itself, under no branch or loop (Python): the code after it in
	// that scope sees this value, not the ones bound before.
	Straight bool
}

// ElemKey normalises a literal key of a container's element, as written
// in a subscript or a dict literal: an integer stays as it is, a string
// literal becomes its text in double quotes (`'a'` and `"a"` are `"a"`).
// false when the key is no such literal (a name, an expression, an
// f-string, a string with escapes).
func ElemKey(k string) (string, bool) {
	k = strings.TrimSpace(k)
	if k == "" {
		return "", false
	}
	if n, err := strconv.Atoi(k); err == nil && n >= 0 {
		return strconv.Itoa(n), true
	}
	if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
		body := k[1 : len(k)-1]
		if strings.ContainsAny(body, "\\\"'{}") {
			return "", false
		}
		return `"` + body + `"`, true
	}
	return "", false
}
