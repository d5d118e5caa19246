package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
)

// TestIncrementalDependencies covers, one case each, the ways a file's
// resolution depends on another file without naming what changed there:
// the update must find the dependent (the edge named in want changes) and
// still resolve fewer files than all. Each case has bystander files that
// must not be resolved again.
func TestIncrementalDependencies(t *testing.T) {
	bystanders := map[string]string{
		"zz/one.py": "def lone():\n    return 1\n",
		"zz/two.py": "from zz.one import lone\n\ndef other():\n    lone()\n",
		"zz/x.go":   "package zz\n\nfunc Lone() int { return 1 }\n",
		"zz/y.go":   "package zz\n\nfunc Other() int { return Lone() }\n",
	}
	cases := []struct {
		name  string
		files map[string]string
		edit  map[string]string // new contents; "" deletes
		// want is an edge line of the graph after the edit that differs
		// from before (prefix "-" for one that must disappear).
		want string
	}{{
		name: "constructor inherited through a subclass",
		files: map[string]string{
			"a.py": "class Base:\n    pass\n",
			"b.py": "from a import Base\n\nclass Child(Base):\n    pass\n",
			"c.py": "from b import Child\n\ndef f():\n    Child()\n",
		},
		edit: map[string]string{"a.py": "class Base:\n    def __init__(self):\n        pass\n"},
		want: "call c.py::f -> a.py::Base.__init__",
	}, {
		name: "result type resolved through a local variable of the same name",
		files: map[string]string{
			"go.mod":     "module example.com/m\n\ngo 1.22\n",
			"store/t.go": "package store\n\ntype conn struct{}\n\nfunc (c *conn) Close() {}\n\ntype pipe struct{}\n\nfunc (p *pipe) Close() {}\n",
			"store/n.go": "package store\n\nfunc NewConn() *conn {\n\tconn := &pipe{}\n\treturn nil\n}\n",
			"main.go":    "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tx := store.NewConn()\n\tx.Close()\n}\n",
		},
		edit: map[string]string{"store/n.go": "package store\n\nfunc NewConn() *conn {\n\tconn := &conn{}\n\treturn nil\n}\n"},
		want: "call main.go::main -> store/t.go::conn.Close",
	}, {
		name: "local variable typed by a call into another file",
		files: map[string]string{
			"go.mod":     "module example.com/m\n\ngo 1.22\n",
			"store/t.go": "package store\n\ntype conn struct{}\n\nfunc (c *conn) Close() {}\n\ntype pipe struct{}\n\nfunc (p *pipe) Close() {}\n",
			"store/b.go": "package store\n\nfunc build() *pipe { return nil }\n",
			"store/n.go": "package store\n\nfunc NewConn() *conn {\n\tconn := build()\n\treturn nil\n}\n",
			"main.go":    "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tx := store.NewConn()\n\tx.Close()\n}\n",
		},
		edit: map[string]string{"store/b.go": "package store\n\nfunc build() *conn { return nil }\n"},
		want: "call main.go::main -> store/t.go::conn.Close",
	}, {
		name: "JS default import of a module's only function",
		files: map[string]string{
			"a.js": "export function one() {}\n",
			"b.js": "import pick from './a';\n\nexport function f() {\n  pick();\n}\n",
		},
		edit: map[string]string{"a.js": "export function one() {}\nexport function two() {}\n"},
		want: "-call b.js::f -> a.js::one",
	}, {
		name: "base class named by a module-level variable",
		files: map[string]string{
			"a.py": "class Model:\n    def save(self):\n        pass\n\nclass Other:\n    def save(self):\n        pass\n",
			"b.py": "from a import Model, Other\n\nBase = Model()\n\nclass User(Base):\n    pass\n",
			"c.py": "from b import User\n\ndef f(u: User):\n    u.save()\n",
		},
		edit: map[string]string{"b.py": "from a import Model, Other\n\nBase = Other()\n\nclass User(Base):\n    pass\n"},
		want: "call c.py::f -> a.py::Other.save",
	}, {
		name: "result type imported from elsewhere",
		files: map[string]string{
			"a.py": "class Repo:\n    def save(self):\n        pass\n",
			"d.py": "class Repo:\n    def save(self):\n        pass\n",
			"b.py": "from a import Repo\n\ndef make() -> Repo:\n    return Repo()\n",
			"c.py": "from b import make\n\ndef f():\n    r = make()\n    r.save()\n",
		},
		edit: map[string]string{"b.py": "from d import Repo\n\ndef make() -> Repo:\n    return Repo()\n"},
		want: "call c.py::f -> d.py::Repo.save",
	}, {
		name: "re-export under another name",
		files: map[string]string{
			"a.py": "def helper():\n    pass\n",
			"d.py": "def helper():\n    pass\n",
			"b.py": "from a import helper as assist\n",
			"c.py": "from b import assist\n\ndef f():\n    assist()\n",
		},
		edit: map[string]string{"a.py": "from d import helper\n"},
		want: "call c.py::f -> d.py::helper",
	}, {
		name: "Go result type renamed in another file",
		files: map[string]string{
			"go.mod":       "module example.com/m\n\ngo 1.22\n",
			"store/t.go":   "package store\n\ntype Repo struct{}\n\ntype Other struct{}\n\nfunc (o *Other) Save() {}\n",
			"store/new.go": "package store\n\nfunc NewRepo() *Repo { return nil }\n",
			"main.go":      "package main\n\nimport \"example.com/m/store\"\n\nfunc main() {\n\tr := store.NewRepo()\n\tr.Save()\n}\n",
		},
		edit: map[string]string{"store/t.go": "package store\n\ntype Other struct{}\n\ntype Repo = Other\n\nfunc (o *Repo) Save() {}\n"},
		want: "call main.go::main -> store/t.go::Repo.Save",
	}, {
		name: "JS default export changes",
		files: map[string]string{
			"a.js": "export function one() {}\nexport function two() {}\nexport default one;\n",
			"b.js": "import pick from './a';\n\nexport function f() {\n  pick();\n}\n",
		},
		edit: map[string]string{"a.js": "export function one() {}\nexport function two() {}\nexport default two;\n"},
		want: "call b.js::f -> a.js::two",
	}, {
		name: "Ruby class reopened in another file",
		files: map[string]string{
			"a.rb": "class Cart\n  def total\n    helper()\n  end\nend\n",
			"b.rb": "class Cart\nend\n",
		},
		edit: map[string]string{"b.rb": "class Cart\n  def helper\n  end\nend\n"},
		want: "call a.rb::Cart.total -> b.rb::Cart.helper",
	}, {
		name: "C function moves between files",
		files: map[string]string{
			"a.c": "int util(void) { return 1; }\n",
			"b.c": "int other(void) { return 2; }\n",
			"m.c": "int main(void) { return util(); }\n",
		},
		edit: map[string]string{"a.c": "int nothing(void) { return 1; }\n", "b.c": "int other(void) { return 2; }\nint util(void) { return 3; }\n"},
		want: "call m.c::main -> b.c::util",
	}, {
		name: "new file a submodule call reaches",
		files: map[string]string{
			"pkg/__init__.py": "",
			"m.py":            "import pkg\n\ndef f():\n    pkg.sub.run()\n",
		},
		edit: map[string]string{"pkg/sub.py": "def run():\n    pass\n"},
		want: "call m.py::f -> pkg/sub.py::run",
	}, {
		name: "new file an import names",
		files: map[string]string{
			"a.py": "import util\n",
		},
		edit: map[string]string{"util.py": "def x():\n    pass\n"},
		want: "import a.py -> util.py",
	}, {
		name: "deleted module an import named",
		files: map[string]string{
			"a.py": "def run():\n    pass\n",
			"b.py": "from a import run\n\ndef f():\n    run()\n",
		},
		edit: map[string]string{"a.py": ""},
		want: "-call b.py::f -> a.py::run",
	}, {
		name: "TypeScript field type changes",
		files: map[string]string{
			"a.ts": "export class Repo { save() {} }\nexport class Cache { save() {} }\n",
			"b.ts": "import { Repo, Cache } from './a';\nexport class Service { repo: Repo; }\n",
			"c.ts": "import { Service } from './b';\nexport function f(s: Service) { s.repo.save(); }\n",
		},
		edit: map[string]string{"b.ts": "import { Repo, Cache } from './a';\nexport class Service { repo: Cache; }\n"},
		want: "call c.ts::f -> a.ts::Cache.save",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, data := range bystanders {
				writeFile(t, filepath.Join(dir, p), data)
			}
			for p, data := range tc.files {
				writeFile(t, filepath.Join(dir, p), data)
			}
			res, err := Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			before := res.Graph.Text()
			var hint []string
			structural := false
			for p, data := range tc.edit {
				hint = append(hint, p)
				if _, err := os.Stat(filepath.Join(dir, p)); err != nil || data == "" {
					structural = true
				}
				if data == "" {
					os.Remove(filepath.Join(dir, p))
				} else {
					writeFile(t, filepath.Join(dir, p), data)
				}
			}
			var next *Result
			if structural {
				next, _, err = res.Update(hint)
			} else {
				var ok bool
				next, _, ok, err = res.UpdateFiles(hint)
				if !ok {
					t.Fatal("UpdateFiles refused an edit of indexed files")
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			clean, err := Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			got, want := next.Graph.Text(), clean.Graph.Text()
			if got != want {
				t.Fatalf("incremental graph differs from a clean build (%+v):\n%s", next.ResolveStats(), lineDiff(want, got))
			}
			// The case must test something: the edge changed.
			edge, gone := strings.CutPrefix(tc.want, "-")
			if has := strings.Contains(want, edge+" ") || strings.Contains(want, edge+"\n"); has == gone {
				t.Fatalf("after the edit, %q present = %v; the case does not test what it says:\n%s", edge, has, want)
			}
			if had := strings.Contains(before, edge+" ") || strings.Contains(before, edge+"\n"); had != gone {
				t.Fatalf("before the edit, %q present = %v; the case does not test what it says:\n%s", edge, had, before)
			}
			st := next.ResolveStats()
			if st.Mode == "full" || st.Resolved >= len(next.Files)-1 {
				t.Errorf("resolved %+v of %d files: the bystanders should have been left alone", st, len(next.Files))
			}
		})
	}
}
