package parse

import "testing"

func TestGoFacts(t *testing.T) {
	src := `package shop

import (
	"fmt"
	str "strings"
	. "math"
	_ "embed"

	"example.com/shop/store"
)

import "os"

type Server[T any] struct {
	Base
	*store.Logger
	repo    *store.Repo
	a, b    int
	items   []T
	handler func(w Writer)
}

type Handler interface {
	fmt.Stringer
	Named
	Handle(req *Request) (*Response, error)
	Close() error
}

type Number interface {
	~int | ~float64
}

type ID int

type Alias = store.Repo

func (s *Server[T]) Serve(x int, a, b *T, opts ...Opt) (*Response, error) {
	var v Request
	y := Request{}
	p := &Response{}
	q := store.Item{}
	n := NewRepo()
	m := store.NewRepo()
	k, err := NewRepo()
	g := Make[int](x)
	h := store.Make[int](x)
	s.repo.Save(v)
	fmt.Println(y, p, q, n, m, k, err, g, h)
	go func(c Conn) { c.Close() }(nil)
	return nil, nil
}

func (Server[T]) Value() int { return Sqrt(2) }

func NewRepo() (*store.Repo, error) { return store.Open() }

func Make[T any](x T) T { return x }

func Pair[K comparable, V any](k K, v V) {}

func init() {
	Pair[string, int]("a", 1)
	store.Pair[string, int]("a", 1)
	str.ToUpper("x")
	os.Exit(0)
}

var (
	defaultRepo = store.NewRepo()
	started     = &Server[int]{}
	count, rate int = 1, 2
)

var logger store.Logger
`
	f := parseSrc(t, "go", "shop/server.go", src)
	checkFacts(t, f, []string{
		"package shop",

		// types: embedded fields and interfaces are bases, an alias's base is
		// the aliased type; interface methods nest in the interface
		"def class Server L14-21 bases=Base,store.Logger",
		"def class Handler L23-28 bases=fmt.Stringer,Named",
		"def func Handler.Handle L26-26 result=Response",
		"def func Handler.Close L27-27 result=error",
		"def class Number L30-32",
		"def class ID L34-34",
		"def class Alias L36-36 bases=store.Repo",

		// functions and methods: receivers own methods, results are typed
		"def func Server.Serve L38-52 owner=Server result=Response",
		"def func Server.Value L54-54 owner=Server result=int",
		"def func NewRepo L56-56 result=store.Repo",
		"def func Make L58-58 result=T",
		"def func Pair L60-60",
		"def func init L62-67",

		// imports
		"import spec=fmt L4",
		"import spec=strings alias=str L5",
		"import spec=math star L6",
		"import spec=embed alias=_ L7",
		"import spec=example.com/shop/store L9",
		"import spec=os L12",

		// calls, including generic instantiations
		"call NewRepo L43 in Server.Serve",
		"call store.NewRepo L44 in Server.Serve",
		"call NewRepo L45 in Server.Serve",
		"call Make L46 in Server.Serve",
		"call store.Make L47 in Server.Serve",
		"call s.repo.Save L48 in Server.Serve",
		"call fmt.Println L49 in Server.Serve",
		"call c.Close L50 in Server.Serve",
		"call Sqrt L54 in Server.Value",
		"call store.Open L56 in NewRepo",
		"call Pair L63 in init",
		"call store.Pair L64 in init",
		"call str.ToUpper L65 in init",
		"call os.Exit L66 in init",
		"call store.NewRepo L70 in <module>",

		// struct fields (embedded ones are named after their type)
		"bind Base type=Base in Server",
		"bind Logger type=store.Logger in Server",
		"bind repo type=store.Repo in Server",
		"bind a type=int in Server",
		"bind b type=int in Server",

		// receiver, parameters, locals
		"bind s type=Server in Server.Serve",
		"bind x type=int in Server.Serve",
		"bind a type=T in Server.Serve",
		"bind b type=T in Server.Serve",
		"bind v type=Request in Server.Serve",
		"bind y type=Request in Server.Serve",
		"bind p type=Response in Server.Serve",
		"bind q type=store.Item in Server.Serve",
		"bind n call=NewRepo in Server.Serve",
		"bind m call=store.NewRepo in Server.Serve",
		"bind k call=NewRepo in Server.Serve",
		"bind g call=Make in Server.Serve",
		"bind h call=store.Make in Server.Serve",
		"bind c type=Conn in Server.Serve",
		"bind x type=T in Make",
		"bind k type=K in Pair",
		"bind v type=V in Pair",

		// package level
		"bind defaultRepo call=store.NewRepo in <module>",
		"bind started type=Server in <module>",
		"bind count type=int in <module>",
		"bind rate type=int in <module>",
		"bind logger type=store.Logger in <module>",
	}, []string{
		// a constraint union is no base
		"def class Number L30-32 bases=~int",
		// interface method parameters and function-typed fields bind nothing
		"bind req type=Request in Handler.Handle",
		"bind w type=Writer in Server",
		// a variadic parameter holds a slice
		"bind opts type=Opt in Server.Serve",
		// only the first name of a multi-value assignment is typed
		"bind err call=NewRepo in Server.Serve",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("valid source: %d syntax errors", f.SyntaxErrors)
	}
	sigs := map[string]string{
		"Server":        "Server[T any] struct",
		"Handler":       "Handler interface",
		"Handler.Close": "Close() error",
		"Server.Serve":  "func (s *Server[T]) Serve(x int, a, b *T, opts ...Opt) (*Response, error)",
		"Server.Value":  "func (Server[T]) Value() int",
	}
	for _, d := range f.Defs {
		if want, ok := sigs[d.Qual]; ok && d.Signature != want {
			t.Errorf("%s: signature %q, want %q", d.Qual, d.Signature, want)
		}
	}
}

// TestGoSyntaxErrors: syntax the grammar does not know (Go 1.26 new(expr))
// and a file cut off mid-function lose only the damaged parts.
func TestGoSyntaxErrors(t *testing.T) {
	src := `package main

func ptr(v int) *int {
	p := new(v * 2)
	use(p)
	return p
}

func after(s *Server) {
	s.Run()
}

func tail() {
	last(
`
	f := parseSrc(t, "go", "main.go", src)
	checkFacts(t, f, []string{
		"package main",
		"def func ptr L3-7 result=int",
		"def func after L9-11",
		"def func tail L13-13",
		"call new L4 in ptr",
		"call use L5 in ptr",
		"call s.Run L10 in after",
		"bind v type=int in ptr",
		"bind s type=Server in after",
	}, nil)
	if f.SyntaxErrors == 0 {
		t.Errorf("syntax errors not counted")
	}
	if f.ErrorLine != 4 {
		t.Errorf("first syntax error on line %d, want 4 (new(expr), the first damage)", f.ErrorLine)
	}
	if g := parseSrc(t, "go", "ok.go", "package ok\n\nfunc F() {}\n"); g.ErrorLine != 0 {
		t.Errorf("valid file: error line %d", g.ErrorLine)
	}
}
