package parse

import "testing"

func TestPyArity(t *testing.T) {
	cases := []struct {
		src  string
		want uint8 // positional arguments + 1; 0: not recorded
	}{
		{"f()", 1},
		{"f(a)", 2},
		{"f(a, b)", 3},
		{"f(a, b,)", 3},
		{"f (a)", 2},
		{"f(g(a, b), [1, 2], {'k': (3, 4)})", 4},
		{"f('a, b', \"c)\", '''x, (y''')", 4},
		{"f(a,  # a comment, with commas (\n  b)", 3},
		{"f(x for x in y)", 2},
		{"f(a == b, c <= d, e != g)", 4},
		{"f((y := 3))", 2},
		{"f(lambda x=1: x)", 2},
		{"f(a, key=1)", 0},
		{"f(a, key = 1)", 0},
		{"f(*args)", 0},
		{"f(a, **kw)", 0},
		{"f(a * b)", 2},
		{"f(a", 0},
		{"f(,)", 0},
		{"f['k'](a)", 2}, // the callee ends before the brackets; see callee below
	}
	for _, c := range cases {
		from := 1
		if c.src[1] == '[' {
			from = 6
		}
		if got := pyArity([]byte(c.src), from, len(c.src)); got != c.want {
			t.Errorf("pyArity(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
