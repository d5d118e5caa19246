package hooks

import "testing"

func TestSearchIdent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"price_of", "price_of"},
		{`\bprice_of\b`, "price_of"},
		{"def price_of", "price_of"},
		{`def price_of\(`, "price_of"},
		{"func (s *Server) Serve", "Serve"},
		{`func\s+ListenAndServe`, "ListenAndServe"},
		{"class Cart", "Cart"},
		{"Cart.total", "Cart.total"},
		{`Cart\.total`, "Cart.total"},
		{"^parse$", "parse"},
		{"tax included", ""},
		{"foo|bar", ""},
		{"[A-Z]+", ""},
		{"ab", ""},
		{"", ""},
		{"TODO:", "TODO"},
	}
	for _, c := range cases {
		if got := SearchIdent(c.in); got != c.want {
			t.Errorf("SearchIdent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGlobIdent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"**/*Serve*.go", "Serve"},
		{"**/pricing.py", "pricing"},
		{"src/**/*.ts", ""},
		{"*", ""},
	}
	for _, c := range cases {
		if got := GlobIdent(c.in); got != c.want {
			t.Errorf("GlobIdent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBashSearch(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"rg -n price_of", "price_of"},
		{"rg -n 'def price_of' shop", "price_of"},
		{`grep -rn "Cart.total" .`, "Cart.total"},
		{"grep -rn -E 'discount' --include=*.py .", "discount"},
		{"grep -rn --include '*.py' discount .", "discount"},
		{"rg -t py -g '!tests' compute_total", "compute_total"},
		{"cd /x && git grep -n total_with_discount", "total_with_discount"},
		{"git -C /x grep parse_args", "parse_args"},
		{"rg -e parse_args src", "parse_args"},
		{"ag --python readRequest", "readRequest"},
		{"find . -name '*pricing*.py'", "pricing"},
		{"FOO=1 rg handler", "handler"},
		{"cat a.txt | grep -v '^#'", ""},
		{"ls -la && python -m pytest -q", ""},
		{"rg 'some phrase here'", ""},
		{"git status", ""},
		{"echo 'rg price_of'", ""},
	}
	for _, c := range cases {
		if got := BashSearch(c.cmd); got != c.want {
			t.Errorf("BashSearch(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

func TestGitCommand(t *testing.T) {
	cases := []struct{ cmd, sub, dir string }{
		{"git clone https://github.com/a/calc.git", "clone", "calc"},
		{"git clone --depth 1 -b main https://github.com/a/calc.git work", "clone", "work"},
		{"git clone git@github.com:a/calc.git", "clone", "calc"},
		{"cd /app && git clone /src/repo/ && cd repo", "clone", "repo"},
		{"git checkout -b feature", "checkout", ""},
		{"git -C /x switch main", "switch", ""},
		{"git stash pop", "stash", ""},
		{"git pull --rebase", "pull", ""},
		{"git status", "", ""},
		{"git log --oneline", "", ""},
		{"make test", "", ""},
	}
	for _, c := range cases {
		sub, dir := gitCommand(c.cmd)
		if sub != c.sub || dir != c.dir {
			t.Errorf("gitCommand(%q) = %q, %q; want %q, %q", c.cmd, sub, dir, c.sub, c.dir)
		}
	}
}

func TestShellSegments(t *testing.T) {
	got := shellSegments(`a 'b c' "d \"e\"" f\ g | h; i && j`)
	want := [][]string{{"a", "b c", `d "e"`, "f g"}, {"h"}, {"i"}, {"j"}}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("segment %d: got %q, want %q", i, got[i], want[i])
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("segment %d word %d: got %q, want %q", i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestShellRead(t *testing.T) {
	for _, c := range []struct {
		cmd      string
		path     string
		from, to int
		ok       bool
	}{
		{"sed -n '1,200p' src/app.py", "src/app.py", 1, 200, true},
		{"sed -n 40p a.go", "a.go", 40, 40, true},
		{"nl -ba lib/x.js | sed -n '30,60p'", "lib/x.js", 30, 60, true},
		{"cat -n lib/x.js | sed -n '5,9p'", "lib/x.js", 5, 9, true},
		{"cat lib/x.js | head -n 20", "lib/x.js", 1, 20, true},
		{"head -n 50 README.md", "README.md", 1, 50, true},
		{"head -30 a.py", "a.py", 1, 30, true},
		{"cd /w && sed -n '10,20p' pkg/a.go", "pkg/a.go", 10, 20, true},
		{"bat src/app.py", "src/app.py", 1, 0, true},
		{"sed -i 's/a/b/' a.go", "", 0, 0, false},
		{"sed 's/a/b/' a.go", "", 0, 0, false},
		{"cat a.go b.go", "", 0, 0, false},
		{"cat a.go", "a.go", 1, 0, true},
		{"nl -ba a.go", "a.go", 1, 0, true},
		{"ls -la", "", 0, 0, false},
		{"rg -n foo", "", 0, 0, false},
		{"cat a.go | grep x", "", 0, 0, false},
	} {
		p, from, to, ok := ShellRead(c.cmd)
		if p != c.path || from != c.from || to != c.to || ok != c.ok {
			t.Errorf("ShellRead(%q) = %q %d %d %v, want %q %d %d %v", c.cmd, p, from, to, ok, c.path, c.from, c.to, c.ok)
		}
	}
}
