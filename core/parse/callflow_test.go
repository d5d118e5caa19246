package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// flowLines renders the call and binding facts callFlow adds: calls as
// "call NAME Lline" ("ref" for a function named as a value), bindings as
// "bind NAME=VALUE".
func flowLines(f *facts.File) map[string]int {
	out := map[string]int{}
	for _, c := range f.Calls {
		l := fmt.Sprintf("call %s L%d", c.Name, c.Line)
		if c.Recv != "" {
			l = fmt.Sprintf("call %s.%s L%d", c.Recv, c.Name, c.Line)
		}
		if c.Ref {
			l += " ref"
		}
		out[l]++
	}
	for _, b := range f.Bindings {
		out[fmt.Sprintf("bind %s=%s%s%s", b.Name, b.Type, b.FromCall, b.FromExpr)]++
	}
	return out
}

// TestCallFlow covers each case callFlow reads from one call pattern (see
// callflow.go), with the readings that must not be made.
func TestCallFlow(t *testing.T) {
	cases := []struct {
		name, src   string
		want, unwan []string
	}{
		{"append and its kin",
			"HOOKS = []\ndef register(fn):\n    HOOKS.append(fn)\n    self.cbs.append(fn)\n    q.put_nowait(fn)\n    q.push(fn)\n",
			[]string{"bind HOOKS[]=fn", "bind self.cbs[]=fn", "bind q[]=fn"}, nil},
		{"insert and setdefault take the second argument",
			"def f(a, g):\n    steps.insert(0, g)\n    d.setdefault('k', g)\n    steps.insert(g)\n",
			[]string{"bind steps[]=g", "bind d[]=g"}, nil},
		{"extend takes the elements of a literal",
			"def f(a, b):\n    steps.extend([a, b, 3])\n    more.extendleft((a,))\n    other.extend(a)\n",
			[]string{"bind steps[]=a", "bind steps[]=b", "bind more[]=a"}, []string{"bind other[]=a"}},
		{"a dict of lists filled in place",
			"L = {}\ndef listen(fn):\n    L.setdefault('e', []).append(fn)\n    M.get('e', []).append(fn)\n",
			[]string{"bind L[]=fn"}, []string{"bind M[]=fn"}},
		{"builtins that call the function they are given",
			"def key(x): return x\ndef run(xs):\n    map(key, xs)\n    filter(key, xs)\n    sorted(xs, key=key)\n    xs.sort(key=key)\n    heapq.nlargest(3, xs, key=key)\n    mysorted(xs, key=key)\n    sorted(xs, reverse=key)\n",
			[]string{"call key L3", "call key L4", "call key L5", "call key L6", "call key L7"},
			[]string{"call key L8", "call key L9"}},
		{"a lambda called in place",
			"x = (lambda: f())()\ny = (lambda a: a)(1)\n",
			[]string{"call fn@1 L1", "call fn@2 L2", "call f L1"}, nil},
		{"functions passed by position and keyword",
			"def apply(fn, *a): return fn(*a)\ndef square(x): return x\napply(square, 2)\napply(fn=square)\napply(make(), square)\napply(lambda: 1)\n",
			[]string{"bind apply()#0=square", "bind apply()#=fn=square", "bind apply()#1=square", "bind apply()#0=fn@1",
				"call square L3 ref", "call square L4 ref", "call square L5 ref"}, nil},
		{"a comment before an argument does not hide it",
			"def apply(fn, g): return fn()\ndef sq(x): return x\napply(  # first\n    sq, sq)\nhooks.append(  # c\n    sq)\nsteps.insert(  # c\n  0, sq)\n",
			[]string{"bind apply()#0=sq", "bind apply()#1=sq", "bind hooks[]=sq", "bind steps[]=sq"}, nil},
		{"a line continuation before an argument does not hide it either",
			"def f(g, fn):\n    hooks.append(\\\n        g)\n    steps.insert(0, \\\n        fn)\n",
			[]string{"bind hooks[]=g", "bind steps[]=fn"}, nil},
		{"the names of a list or tuple passed bind the parameter's elements",
			"def run(checks, steps): pass\ndef a(x): pass\ndef b(x): pass\nrun([a, b], (b,))\nrun([1, a()], [x for x in y])\nSTEPS = [a]\nrun(STEPS, other)\n",
			[]string{"bind run()#0[]=a", "bind run()#0[]=b", "bind run()#1[]=b", "bind run()#0=STEPS"},
			[]string{"bind run()#0=a", "bind run()#1=other", "bind run()#0[]=a()"}},
		{"the values of a dict passed bind the parameter's elements",
			"def run(table): pass\ndef a(): pass\nrun({'x': a, 'y': 1})\n",
			[]string{"bind run()#0[]=a"}, []string{"bind run()#0=a"}},
		{"update fills a dict under its keys",
			"def a(): pass\nT = {}\nT.update({'k': a, name: a})\nT.update(a)\n",
			[]string{"bind T[]=a", `bind T["k"]=a`}, nil},
		{"an element of a filled container passed binds the parameter",
			"def run(fn): fn()\ndef a(): pass\nT = {'k': a}\nrun(T['k'])\nrun(other['k'])\n",
			[]string{"bind run()#0=T['k']"}, []string{"bind run()#0=other['k']"}},
		{"an element read is kept when value flow can follow it",
			"T = [f]\ndef f(): pass\ndef g(fns, rows):\n    h = fns[0]\n    r = rows[1]\n    t = T[0]\n    u = unknown[0]\n    def inner():\n        k = fns[2]\n",
			[]string{"bind h=fns[0]", "bind r=rows[1]", "bind t=T[0]", "bind k=fns[2]"}, []string{"bind u=unknown[0]"}},
		{"a called value is a call of its __call__",
			"get_handler()(req)\n_dispatch[k](x)\n",
			[]string{"call get_handler().__call__ L1", "call get_handler L1", "call _dispatch[k].__call__ L2"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := flowLines(parseSrc(t, "python", "m.py", tc.src))
			bad := false
			for _, w := range tc.want {
				if got[w] == 0 {
					t.Errorf("missing: %s", w)
					bad = true
				}
			}
			for _, u := range tc.unwan {
				if got[u] > 0 {
					t.Errorf("unexpected: %s", u)
					bad = true
				}
			}
			if bad {
				var all []string
				for l := range got {
					all = append(all, l)
				}
				t.Logf("facts:\n  %s", strings.Join(all, "\n  "))
			}
		})
	}
}
