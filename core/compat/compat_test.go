package compat

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct{ lang, sig, want string }{
		{"python", "def process_data(records, strict=False)", "records strict?"},
		{"python", "async def f(self, a: int, /, b: 'x,y' = (1, 2), *args, c, d=None, **kw) -> dict[str, int]", "self/ a:int/ b:'x,y'? *args c*kw d*kw? **kw"},
		{"python", "def g(*, key)", "key*kw"},
		{"python", "lambda a, b=1, *rest", "a b? *rest"},
		{"python", "lambda", ""},
		{"go", "func (s *Server) Serve(l net.Listener) error", "l:net.Listener -> 1 error"},
		{"go", "func Decode(data []byte, v any) (n int, err error)", "data:[]byte v:any -> 2 int, error"},
		{"go", "func f(a, b int, opts ...Option)", "a:int b:int opts:...Option... -> 0"},
		{"go", "func Map[K comparable, V any](m map[K]V, f func(K, V) bool) []V", "m:map[K]V f:func(K, V) bool -> 1 []V"},
		{"go", "func F(int, string) bool", "#1:int #2:string -> 1 bool"},
		{"javascript", "function handle(counter, opts = {}, ...rest)", "counter opts? ...rest"},
		{"typescript", "async function reload(repo: UserRepository, force?: boolean): Promise<void>", "repo:UserRepository force:boolean?"},
		{"typescript", "constructor(public id: string, private readonly n = 1)", "id:string n?"},
		{"typescript", "get<T extends Map<string, number>>(this: Svc, key: string, fallback: T = x => x > 1): T", "key:string fallback:T?"},
		{"typescript", "key(): string", ""},
	}
	for _, c := range cases {
		s := Parse(c.lang, c.sig)
		var got []string
		for _, p := range s.Params {
			x := p.Name
			if p.Type != "" && c.lang != "python" || (c.lang == "python" && p.Type != "" && p.Kind != Var && p.Kind != VarKw) {
				x += ":" + p.Type
			}
			switch p.Kind {
			case PosOnly:
				x += "/"
			case KwOnly:
				x += "*kw"
			case Var:
				if c.lang == "go" {
					x += "..."
				} else if c.lang == "python" {
					x = "*" + x
				} else {
					x = "..." + x
				}
			case VarKw:
				x = "**" + x
			}
			if p.Optional {
				x += "?"
			}
			got = append(got, x)
		}
		g := strings.Join(got, " ")
		if c.lang == "go" {
			g += fmt.Sprintf(" -> %d %s", s.Results, s.ResultTypes)
		}
		if !s.OK || strings.TrimSpace(g) != c.want {
			t.Errorf("Parse(%s, %q) = %q (ok %v), want %q", c.lang, c.sig, g, s.OK, c.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	cases := []struct{ lang, old, new, want string }{
		{"python", "def process_data(records, strict=False)", "def process_data(records, strict=False, limit=None)", "new optional parameter `limit`"},
		{"python", "def process_data(records, strict=False)", "def process_data(records, schema, strict=False)", "new required parameter `schema`"},
		{"python", "def f(a, b)", "def f(a)", "parameter `b` removed"},
		{"python", "def f(a, key=1)", "def f(a, name=1)", "parameter `key` renamed to `name`"},
		{"python", "def f(a, b)", "def f(b, a)", "parameters reordered"},
		{"python", "def f(a, b=1)", "def f(a, b)", "`b` is now required"},
		{"go", "func F(a int) error", "func F(a int) (int, error)", "results: 1 → 2"},
		{"go", "func F(a int)", "func F(a int64)", "`a`: int → int64"},
		{"typescript", "function f(a: string)", "function f(a: string, b?: number)", "new optional parameter `b`"},
	}
	for _, c := range cases {
		if got := Describe(Parse(c.lang, c.old), Parse(c.lang, c.new)); got != c.want {
			t.Errorf("Describe(%q → %q) = %q, want %q", c.old, c.new, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	const pd = "process_data"
	cases := []struct {
		name, lang, old, new string
		call                 Call
		want                 Verdict
		reason               string
	}{
		{"optional added: positional call fine", "python", "def process_data(records, strict=False)", "def process_data(records, strict=False, limit=None)", Call{Positional: 1}, Fine, ""},
		{"optional added: keyword call fine", "python", "def process_data(records, strict=False)", "def process_data(records, strict=False, limit=None)", Call{Positional: 1, Keywords: []string{"strict"}}, Fine, ""},
		{"required added: breaks", "python", "def process_data(records, strict=False)", "def process_data(records, schema, strict=False)", Call{Positional: 1}, Breaks, "passes 1 positional argument, process_data now also requires `schema`"},
		{"required added, passed by keyword", "python", "def process_data(records)", "def process_data(records, *, schema)", Call{Positional: 1, Keywords: []string{"schema"}}, Fine, ""},
		{"removed param still passed by keyword", "python", "def f(a, strict=False)", "def f(a)", Call{Positional: 1, Keywords: []string{"strict"}}, Breaks, "passes keyword `strict`, which process_data no longer takes"},
		{"removed param passed positionally", "python", "def f(a, b)", "def f(a)", Call{Positional: 2}, Breaks, "passes 2 positional arguments, process_data now takes at most 1"},
		{"**kwargs absorbs a removed keyword", "python", "def f(a, b=1)", "def f(a, **kw)", Call{Positional: 1, Keywords: []string{"b"}}, Fine, ""},
		{"*args call cannot be checked", "python", "def f(a)", "def f(a, b)", Call{Positional: 0, Spread: true}, Unknown, ""},
		{"bound method drops self", "python", "def m(self, a)", "def m(self, a, b=2)", Call{Positional: 1, Bound: true}, Fine, ""},
		{"bound method, required added", "python", "def m(self, a)", "def m(self, a, b)", Call{Positional: 1, Bound: true}, Breaks, "now also requires `b`"},
		{"unbound method call passes self", "python", "def m(self, a)", "def m(self, a, b=2)", Call{Positional: 2}, Fine, ""},
		{"positional-only passed by keyword", "python", "def f(a, b)", "def f(a, b, /)", Call{Positional: 1, Keywords: []string{"b"}}, Breaks, "passes keyword `b`"},
		{"go: added param breaks", "go", "func F(a int)", "func F(a int, b string)", Call{Positional: 1}, Breaks, "passes 1 argument, process_data now takes 2"},
		{"go: trailing variadic is compatible", "go", "func F(a int)", "func F(a int, opts ...Option)", Call{Positional: 1}, Fine, ""},
		{"go: type change breaks", "go", "func F(a int)", "func F(a string)", Call{Positional: 1}, Breaks, "(int → string)"},
		{"go: results 1→2, statement call fine", "go", "func F() error", "func F() (int, error)", Call{Results: 0}, Fine, ""},
		{"go: results 1→2, assigned breaks", "go", "func F() error", "func F() (int, error)", Call{Results: 1}, Breaks, "assigns 1 result, process_data now returns 2"},
		{"go: results 1→2, used as value breaks", "go", "func F() error", "func F() (int, error)", Call{Results: -1}, Breaks, "uses the result as one value"},
		{"go: param renamed only", "go", "func F(a int)", "func F(b int)", Call{Positional: 1, Results: 0}, Fine, ""},
		{"ts: optional added", "typescript", "function f(a: string)", "function f(a: string, b?: number)", Call{Positional: 1}, Fine, ""},
		{"ts: required added", "typescript", "function f(a: string)", "function f(a: string, b: number)", Call{Positional: 1}, Breaks, "passes 1 positional argument, process_data now requires 2 (a, b)"},
		{"ts: param removed, extra arg", "typescript", "function f(a, b)", "function f(a)", Call{Positional: 2}, Breaks, "now takes at most 1"},
		{"js: param removed, extra arg ignored", "javascript", "function f(a, b)", "function f(a)", Call{Positional: 2}, Unknown, "ignored"},
		{"js: spread", "javascript", "function f(a)", "function f(a, b)", Call{Spread: true}, Unknown, ""},
		{"js: rest param", "javascript", "function f(a)", "function f(a, ...more)", Call{Positional: 4}, Fine, ""},
		{"optional added: an unpacking call still fits", "python", "def f(a)", "def f(a, b=None)", Call{Spread: true}, Fine, ""},
		{"optional added: an unpacking call still fits (js)", "javascript", "function f(a)", "function f(a, b = 1)", Call{Spread: true}, Fine, ""},
		{"a call that did not fit before is not this change's", "python", "def f(a)", "def f(a, b)", Call{Positional: 1, Keywords: []string{"zz"}}, Fine, ""},
		{"go: results changed is not only-optional", "go", "func F(a int) error", "func F(a int, o ...int) (int, error)", Call{Positional: 1, Results: 1}, Breaks, "assigns"},
	}
	for _, c := range cases {
		v, why := Check(Parse(c.lang, c.old), Parse(c.lang, c.new), c.call, pd)
		if v != c.want || !strings.Contains(why, c.reason) {
			t.Errorf("%s: %v %q, want %v %q", c.name, v, why, c.want, c.reason)
		}
	}
}

func TestFits(t *testing.T) {
	cases := []struct {
		sig  string
		call Call
		want Verdict
	}{
		{"lambda a, b", Call{Positional: 2}, Fine},
		{"lambda a, b", Call{Positional: 1}, Breaks},
		{"lambda a", Call{Positional: 2}, Breaks},
		{"def clamp(a, lo=0, hi=1)", Call{Positional: 1}, Fine},
		{"def f(*args)", Call{Positional: 5}, Fine},
		{"def m(self, x)", Call{Positional: 1, Bound: true}, Fine},
		{"def m(self, x)", Call{Positional: 1}, Breaks},
		{"not a signature", Call{Positional: 1}, Unknown},
	}
	for _, c := range cases {
		if got := Fits(Parse("python", c.sig), c.call); got != c.want {
			t.Errorf("Fits(%q, %+v) = %v, want %v", c.sig, c.call, got, c.want)
		}
	}
}
