package parse

import (
	"fmt"
	"testing"
)

func TestCallsOnLine(t *testing.T) {
	reg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	p := reg.NewParser()
	defer p.Close()
	cases := []struct {
		lang, src string
		line      int
		want      string
	}{
		{"python", "x = process_data(rows, strict=True, limit=3)\n", 1, "[process_data() 1 pos [strict limit]]"},
		{"python", "obj.m(*args, **kw)\n", 1, "[m(obj) 0 pos [] spread kwspread]"},
		{"python", "f(x for x in y)\n", 1, "[f() 1 pos []]"},
		{"python", "a = 1\nself.h.run(1,\n  2)\n", 2, "[run(self.h) 2 pos []]"},
		{"python", "outer(inner(1), 2)\n", 1, "[outer() 2 pos [] inner() 1 pos []]"},
		{"go", "package p\nfunc f() {\n\tDecode(v)\n\tx, err := NewDecoder(r).Decode(v)\n\tg(xs...)\n\tuse(h(1))\n}\n", 3, "[Decode() 1 pos [] results 0]"},
		{"go", "package p\nfunc f() {\n\tDecode(v)\n\tx, err := NewDecoder(r).Decode(v)\n\tg(xs...)\n\tuse(h(1))\n}\n", 4, "[Decode(NewDecoder(r)) 1 pos [] results 2 NewDecoder() 1 pos [] results -1]"},
		{"go", "package p\nfunc f() {\n\tDecode(v)\n\tx, err := NewDecoder(r).Decode(v)\n\tg(xs...)\n\tuse(h(1))\n}\n", 5, "[g() 1 pos [] spread results 0]"},
		{"go", "package p\nfunc f() {\n\tDecode(v)\n\tx, err := NewDecoder(r).Decode(v)\n\tg(xs...)\n\tuse(h(1))\n}\n", 6, "[use() 1 pos [] results 0 h() 1 pos [] results -1]"},
		{"javascript", "app.use(a, ...mw)\nnew Router(opts)\n", 1, "[use(app) 1 pos [] spread]"},
		{"javascript", "app.use(a, ...mw)\nnew Router(opts)\n", 2, "[new Router() 1 pos []]"},
		{"typescript", "const r = svc.get<User>(id, { cache: true })\n", 1, "[get(svc) 2 pos []]"},
	}
	for _, c := range cases {
		calls, err := p.CallsOnLine(c.lang, []byte(c.src), c.line)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range calls {
			s := fmt.Sprintf("%s(%s) %d pos %v", a.Name, a.Receiver, a.Positional, a.Keywords)
			if a.New {
				s = "new " + s
			}
			if a.Keywords == nil {
				s = fmt.Sprintf("%s(%s) %d pos []", a.Name, a.Receiver, a.Positional)
				if a.New {
					s = "new " + s
				}
			}
			if a.Spread {
				s += " spread"
			}
			if a.KwSpread {
				s += " kwspread"
			}
			if c.lang == "go" {
				s += fmt.Sprintf(" results %d", a.Results)
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%s line %d of %q:\n got %v\nwant %s", c.lang, c.line, c.src, got, c.want)
		}
	}
}
