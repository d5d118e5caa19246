package parse

import (
	"testing"
	"unicode/utf8"
)

// FuzzParsePython feeds arbitrary text to the Python extractor, whose
// call reading (callFlow) walks nodes the query run lists from C: no
// input may crash it or yield facts that point outside the file.
func FuzzParsePython(f *testing.F) {
	seeds := []string{
		"HOOKS.append(fn)\nsteps.insert(0, g)\nsteps.extend([a, b])\nL.setdefault('e', []).append(fn)\n",
		"map(key, xs)\nsorted(xs, key=key)\nx = (lambda: f())()\napply(square, fn=square)\n",
		"apply(  # c\n    sq, sq)\nhooks.append(  # c\n    sq)\n",
		"f(((((((a)))))))\nf(x for x in y)\nf(*a, **k)\n",
		"def broken(:\n    g(\n",
		"a.b.c.d.e(f)(g)[h](i)\n",
		"",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	r, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		p := r.NewParser()
		defer p.Close()
		fs, err := p.Parse("f.py", "python", src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		for _, c := range fs.Calls {
			if c.Caller >= len(fs.Defs) || c.Line < 1 || c.Line > fs.Lines+1 {
				t.Fatalf("call %+v outside the file (%d defs, %d lines)", c, len(fs.Defs), fs.Lines)
			}
			if !utf8.ValidString(c.Name) || !utf8.ValidString(c.Recv) {
				t.Fatalf("call %+v: not UTF-8", c)
			}
		}
		for _, b := range fs.Bindings {
			if b.Scope >= len(fs.Defs) {
				t.Fatalf("binding %+v outside the file's definitions", b)
			}
		}
	})
}
