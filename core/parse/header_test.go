package parse

import "testing"

func TestStripComments(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"python", "def get_cfws(value):\n    # ccd bench edit\n    ", "def get_cfws(value):\n    \n    "},
		{"python", "def f(a='#x', b=\"#y\"):  # note\n", "def f(a='#x', b=\"#y\"):  \n"},
		{"python", "def f(a):", "def f(a):"},
		{"go", "func F(s string) /* why */ error // done\n", "func F(s string)   error \n"},
		{"go", "func F(p string = `//x`) error", "func F(p string = `//x`) error"},
		{"typescript", "function f(url = 'http://x'): void // c", "function f(url = 'http://x'): void "},
		{"rust", "fn f<'a>(x: &'a str) -> &'a str // c", "fn f<'a>(x: &'a str) -> &'a str "},
		{"lua", "function f(a, b) -- helper", "function f(a, b) "},
		{"php", "function f($a) # c\n", "function f($a) \n"},
		{"python", "def f(a, b='it\\'s # not'):", "def f(a, b='it\\'s # not'):"},
		{"go", "func F() /* unterminated", "func F()  "},
	} {
		if got := stripComments(c.lang, c.in); got != c.want {
			t.Errorf("stripComments(%s, %q) = %q, want %q", c.lang, c.in, got, c.want)
		}
	}
}

func TestSignatureIgnoresComments(t *testing.T) {
	f := parseSrc(t, "python", "m.py", "def get_cfws(value):\n    # an edit\n    \"\"\"Doc.\"\"\"\n    return value\n\n\ndef g(a,  # first\n      b):\n    pass\n")
	checkSignatures(t, f, map[string]string{
		"get_cfws": "def get_cfws(value)",
		"g":        "def g(a, b)",
	})
}
