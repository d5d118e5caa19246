package index

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/resolve"
)

func TestGoModulePath(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"plain", "module example.com/m\n\ngo 1.22\n", "example.com/m"},
		{"quoted", "module \"example.com/q\"\n", "example.com/q"},
		{"quoted with comment", "module \"example.com/q\" // the module\n", "example.com/q"},
		{"trailing comment", "module example.com/m // comment\n", "example.com/m"},
		{"comments before", "// Copyright\n// module not/this\n\nmodule example.com/c\n", "example.com/c"},
		{"indented and spaced", "  module \t example.com/s  \n", "example.com/s"},
		{"CRLF", "module example.com/w\r\ngo 1.21\r\n", "example.com/w"},
		{"no final newline", "module example.com/n", "example.com/n"},
		{"after go line", "go 1.22\nmodule example.com/late\n", "example.com/late"},
		{"first module wins", "module a.com/one\nmodule b.com/two\n", "a.com/one"},
		{"single-segment", "module m\n", "m"},
		{"no module", "go 1.22\nrequire x.com/y v1.0.0\n", ""},
		{"module keyword alone", "module\n", ""},
		{"modulepath is not module", "modulex a.com/b\n", ""},
		{"require mentions module", "require module.com/x v1.0.0\n", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		if got := goModulePath([]byte(c.src)); got != c.want {
			t.Errorf("%s: goModulePath(%q) = %q; want %q", c.name, c.src, got, c.want)
		}
	}
	if got := goModulePath(nil); got != "" {
		t.Errorf("goModulePath(nil) = %q", got)
	}
}

func TestCargoName(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"package", "[package]\nname = \"mycrate\"\nversion = \"0.1.0\"\n", "mycrate"},
		{"dash to underscore", "[package]\nname = \"my-fancy-crate\"\n", "my_fancy_crate"},
		{"single quotes", "[package]\nname = 'sq-crate'\n", "sq_crate"},
		{"no spaces", "[package]\nname=\"tight\"\n", "tight"},
		{"indented", "[package]\n  name   =   \"spaced\"  \n", "spaced"},
		{"lib only", "[lib]\nname = \"libonly\"\npath = \"src/lib.rs\"\n", "libonly"},
		{"lib with dash", "[lib]\nname = \"lib-dash\"\n", "lib_dash"},
		{"package without name then lib", "[package]\nversion = \"1\"\n[lib]\nname = \"from-lib\"\n", "from_lib"},
		{"dependencies name ignored", "[dependencies]\nname = \"dep\"\n[package]\nname = \"real\"\n", "real"},
		{"bin table ignored", "[[bin]]\nname = \"tool\"\n[package]\nname = \"pkg\"\n", "pkg"},
		{"workspace ignored", "[workspace]\nmembers = [\"a\"]\nname = \"no\"\n", ""},
		{"package.metadata ignored", "[package.metadata]\nname = \"meta\"\n", ""},
		{"name-like key", "[package]\nnames = \"x\"\nname = \"y\"\n", "y"},
		{"CRLF", "[package]\r\nname = \"crlf\"\r\n", "crlf"},
		{"empty", "", ""},
		{"workspace-only manifest", "[workspace]\nmembers = [\"crates/*\"]\n", ""},
	}
	for _, c := range cases {
		if got := cargoName([]byte(c.src)); got != c.want {
			t.Errorf("%s: cargoName(%q) = %q; want %q", c.name, c.src, got, c.want)
		}
	}
}

// A [lib] name overrides the package name for `use` paths: with
// name = "my-pkg" and [lib] name = "mylib", other crates write `use mylib::`.
func TestCargoNameLibOverridesPackage(t *testing.T) {
	src := "[package]\nname = \"my-pkg\"\nversion = \"0.1.0\"\n\n[lib]\nname = \"mylib\"\n"
	if got := cargoName([]byte(src)); got != "mylib" {
		t.Fatalf("regression: cargoName with [package] name = \"my-pkg\" and [lib] name = \"mylib\" = %q; want \"mylib\" (the first name in either table wins)", got)
	}
}

// TOML allows a comment after a value.
func TestCargoNameInlineComment(t *testing.T) {
	src := "[package]\nname = \"commented\" # the crate name\n"
	if got := cargoName([]byte(src)); got != "commented" {
		t.Fatalf("regression: cargoName(`name = \"commented\" # the crate name`) = %q; want \"commented\" (the value is not cut at the closing quote)", got)
	}
}

func TestParseTSConfig(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		ok     bool
		base   string
		paths  map[string][]string
		reason string
	}{
		{name: "baseUrl only", src: `{"compilerOptions": {"baseUrl": "./src"}}`, ok: true, base: "./src"},
		{name: "paths only", src: `{"compilerOptions": {"paths": {"@app/*": ["src/app/*"]}}}`, ok: true,
			paths: map[string][]string{"@app/*": {"src/app/*"}}},
		{name: "both", src: `{"compilerOptions": {"baseUrl": ".", "paths": {"~/*": ["./*"], "lib": ["lib/index.ts", "lib/alt.ts"]}}}`, ok: true,
			base: ".", paths: map[string][]string{"~/*": {"./*"}, "lib": {"lib/index.ts", "lib/alt.ts"}}},
		{name: "comments and trailing commas", ok: true, base: "src",
			paths: map[string][]string{"@/*": {"./*", "gen/*"}},
			src: `// tsconfig with comments
{
  /* block
     comment */
  "compilerOptions": {
    "baseUrl": "src", // line comment
    "paths": {
      "@/*": ["./*", "gen/*",], // trailing comma in an array
    },
    "strict": true, /* trailing */
  },
  "include": ["src/**/*",],
}
`},
		{name: "slashes inside strings kept", ok: true, base: "http://example.com//x",
			paths: map[string][]string{"a//b/*": {"src//x/*", "/*not a comment*/"}},
			src:   `{"compilerOptions": {"baseUrl": "http://example.com//x", "paths": {"a//b/*": ["src//x/*", "/*not a comment*/"]}}}`},
		{name: "escaped quote in string", ok: true, base: `a"//b`,
			src: `{"compilerOptions": {"baseUrl": "a\"//b"}} // done`},
		{name: "no compilerOptions", src: `{"extends": "./base.json", "include": ["src"]}`, ok: false},
		{name: "compilerOptions without baseUrl or paths", src: `{"compilerOptions": {"strict": true, "target": "es2020"}}`, ok: false},
		{name: "empty paths", src: `{"compilerOptions": {"paths": {}}}`, ok: false},
		{name: "invalid JSON", src: `{"compilerOptions": {"baseUrl": }`, ok: false},
		{name: "unterminated block comment", src: `{"compilerOptions": {"baseUrl": "x"}} /* never closed`, ok: true, base: "x"},
		{name: "unterminated comment inside", src: `{"compilerOptions": /* {"baseUrl": "x"}}`, ok: false},
		{name: "empty", src: ``, ok: false},
		{name: "comment only", src: `// nothing`, ok: false},
	}
	for _, c := range cases {
		tc, ok := parseTSConfig([]byte(c.src))
		if ok != c.ok {
			t.Errorf("%s: ok = %v; want %v (%+v)", c.name, ok, c.ok, tc)
			continue
		}
		if !ok {
			if !reflect.DeepEqual(tc, resolve.TSConfig{}) {
				t.Errorf("%s: not ok but returned %+v", c.name, tc)
			}
			continue
		}
		if tc.BaseURL != c.base {
			t.Errorf("%s: BaseURL = %q; want %q", c.name, tc.BaseURL, c.base)
		}
		if len(tc.Paths) != 0 || len(c.paths) != 0 {
			if !reflect.DeepEqual(tc.Paths, c.paths) {
				t.Errorf("%s: Paths = %v; want %v", c.name, tc.Paths, c.paths)
			}
		}
		if tc.Dir != "" {
			t.Errorf("%s: Dir = %q; parseTSConfig leaves it to the caller", c.name, tc.Dir)
		}
	}
	if _, ok := parseTSConfig(nil); ok {
		t.Error("parseTSConfig(nil) ok")
	}
}

// Editors (Visual Studio among them) save tsconfig.json with a UTF-8 byte
// order mark, which tsc accepts.
func TestParseTSConfigBOM(t *testing.T) {
	tc, ok := parseTSConfig([]byte("\uFEFF{\"compilerOptions\": {\"baseUrl\": \"src\"}}"))
	if !ok || tc.BaseURL != "src" {
		t.Fatal("regression: parseTSConfig rejects a tsconfig.json that starts with a UTF-8 BOM (json.Unmarshal fails on it); want BaseURL \"src\"")
	}
}

func TestStripJSONComments(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\"a\": 1} // c", "{\"a\": 1} \n"},
		{"// c\n{}", "\n{}"}, // the comment and its newline become one newline
		{"{/* c */\"a\": 1}", `{"a": 1}`},
		{"{/* multi\nline */}", `{}`},
		{`{"u": "http://x"}`, `{"u": "http://x"}`},
		{`{"u": "/* x */"}`, `{"u": "/* x */"}`},
		{`{"q": "a\"//b"} // c`, "{\"q\": \"a\\\"//b\"} \n"},
		{`{"q": "a\\"} // c`, "{\"q\": \"a\\\\\"} \n"}, // escaped backslash closes the string
		{`{"a": 1 /`, `{"a": 1 /`},                     // a lone slash is kept
		{"{} /* open", "{} "},                          // unterminated block comment ends the output
		{"", ""},
	}
	for _, c := range cases {
		if got := string(stripJSONComments([]byte(c.in))); got != c.want {
			t.Errorf("stripJSONComments(%q) = %q; want %q", c.in, got, c.want)
		}
	}
	// Whatever is left of a commented config must be valid JSON.
	var v any
	src := "{\n  // c\n  \"a\": \"//\", /* x */ \"b\": [1, 2]\n}\n"
	if err := json.Unmarshal(stripJSONComments([]byte(src)), &v); err != nil {
		t.Errorf("stripped JSON invalid: %v", err)
	}
}

func TestProjectIncludeDirs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"include/a.h":                  "int a;\n",
		"lib/include/sub/b.hpp":        "int b;\n",
		"lib/include/c.h":              "int c;\n",
		"lib/src/c.c":                  "int c;\n",
		"src/include.c":                "int x;\n", // a file named include is not a directory
		"src/includes/d.h":             "int d;\n", // nor is "includes"
		"deep/x/include/y/include/z.h": "int z;\n",
		"docs/include/readme.md":       "no source here\n",
		"build/include/gen.h":          "int g;\n", // skipped directory
	})
	cfg := testConfig()
	cfg.IncludeDirs = []string{"zz/extra", "aa/extra"}
	d := discover(root, cfg, registry(t))
	p := d.project(cfg)
	want := []string{
		"zz/extra", "aa/extra", // configured ones first, in their order
		"deep/x/include", "deep/x/include/y/include", "include", "lib/include", // then the discovered ones, sorted
	}
	sameStrings(t, "IncludeDirs", p.IncludeDirs, want)

	cfg.IncludeDirs = nil
	p = discover(root, cfg, registry(t)).project(cfg)
	sameStrings(t, "IncludeDirs without config", p.IncludeDirs, want[2:])
}

// Build reads every kind of project file it discovers.
func TestBuildProjectFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                        "// root module\nmodule \"example.com/root\" // quoted\n\ngo 1.22\n",
		"tools/go.mod":                  "module example.com/root/tools\n",
		"tools/main.go":                 "package main\n",
		"web/tsconfig.json":             "{\n  // comment\n  \"compilerOptions\": {\"baseUrl\": \"src\", \"paths\": {\"@/*\": [\"src/*\"],},},\n}\n",
		"web/src/a.ts":                  "export const a = 1\n",
		"web/jsconfig.json":             "{\"compilerOptions\": {\"baseUrl\": \".\"}}",
		"plain/tsconfig.json":           "{\"include\": [\"x\"]}", // no mappings: not recorded
		"web/package.json":              "{\"name\": \"@acme/web\", \"main\": \"dist/index.js\", \"module\": \"src/index.ts\"}",
		"pkgs/b/package.json":           "{\"name\": \"b\", \"main\": \"lib/b.js\"}",
		"pkgs/noname/package.json":      "{\"version\": \"1.0.0\"}",
		"pkgs/bad/package.json":         "{not json",
		"Cargo.toml":                    "[workspace]\nmembers = [\"crates/*\"]\n",
		"crates/my-crate/Cargo.toml":    "[package]\nname = \"my-crate\"\n",
		"crates/my-crate/src/lib.rs":    "pub fn f() {}\n",
		"node_modules/dep/package.json": "{\"name\": \"dep\"}",
		"vendor/x/go.mod":               "module vendored.com/x\n",
		"README.md":                     "# readme\n",
	})
	res := build(t, root, testConfig())
	p := res.Project
	wantGo := []resolve.GoModule{{Dir: ".", Path: "example.com/root"}, {Dir: "tools", Path: "example.com/root/tools"}}
	if !reflect.DeepEqual(p.GoModules, wantGo) {
		t.Errorf("GoModules = %+v; want %+v", p.GoModules, wantGo)
	}
	wantTS := []resolve.TSConfig{
		{Dir: "web", BaseURL: "src", Paths: map[string][]string{"@/*": {"src/*"}}},
		{Dir: "web", BaseURL: "."},
	}
	if !reflect.DeepEqual(p.TSConfigs, wantTS) {
		t.Errorf("TSConfigs = %+v; want %+v", p.TSConfigs, wantTS)
	}
	wantJS := []resolve.JSPackage{{Dir: "pkgs/b", Name: "b", Main: "lib/b.js"}, {Dir: "web", Name: "@acme/web", Main: "src/index.ts"}}
	if !reflect.DeepEqual(p.JSPackages, wantJS) {
		t.Errorf("JSPackages = %+v; want %+v", p.JSPackages, wantJS)
	}
	wantCrates := []resolve.Crate{{Dir: ".", Name: ""}, {Dir: "crates/my-crate", Name: "my_crate"}}
	if !reflect.DeepEqual(p.Crates, wantCrates) {
		t.Errorf("Crates = %+v; want %+v", p.Crates, wantCrates)
	}
	if len(p.IncludeDirs) != 0 {
		t.Errorf("IncludeDirs = %v; want none", p.IncludeDirs)
	}
}

// Project files are read only from the part of the tree discovery indexes:
// an ignored directory is never entered, and an ignored project file
// should not be read either.
func TestProjectFilesHonourGitignore(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":            "gen/\nsub/go.mod\n",
		"go.mod":                "module example.com/kept\n",
		"gen/go.mod":            "module example.com/gen\n",
		"sub/go.mod":            "module example.com/ignored\n",
		"sub/a.go":              "package sub\n",
		"node_modules/go.mod":   "module example.com/skipped\n",
		"ok/tsconfig.json":      `{"compilerOptions": {"baseUrl": "."}}`,
		"ok/gen/tsconfig.json":  `{"compilerOptions": {"baseUrl": "."}}`,
		"ok/gen/package.json":   `{"name": "gen"}`,
		"ok/node_modules/x.txt": "",
	})
	d := discover(root, testConfig(), registry(t))
	p := d.project(testConfig())
	var mods []string
	for _, m := range p.GoModules {
		mods = append(mods, m.Path)
	}
	if len(p.TSConfigs) != 1 || p.TSConfigs[0].Dir != "ok" || len(p.JSPackages) != 0 {
		t.Errorf("TSConfigs %+v, JSPackages %+v: only ok/tsconfig.json should be read", p.TSConfigs, p.JSPackages)
	}
	if reflect.DeepEqual(mods, []string{"example.com/kept", "example.com/ignored"}) {
		t.Fatal("regression: discover records project files before the .gitignore check, so a gitignored sub/go.mod still yields module example.com/ignored")
	}
	sameStrings(t, "GoModules", mods, []string{"example.com/kept"})
}

// TestProjectDigest: the digest follows the project facts, not the
// Project value: equal facts give equal digests, a module path changed
// gives another.
func TestProjectDigest(t *testing.T) {
	mods := func(path string) *Result {
		return &Result{Project: &resolve.Project{GoModules: []resolve.GoModule{{Dir: ".", Path: path}}}}
	}
	a, b, c := mods("example.com/a"), mods("example.com/a"), mods("example.com/b")
	if a.ProjectDigest() != b.ProjectDigest() {
		t.Error("equal project facts, different digests")
	}
	if a.ProjectDigest() == c.ProjectDigest() {
		t.Error("a module path changed, same digest")
	}
	if (&Result{}).ProjectDigest() == a.ProjectDigest() {
		t.Error("no project facts, same digest as some")
	}
}

func TestGopathImportPath(t *testing.T) {
	for _, c := range []struct{ root, want string }{
		{"/usr/local/go/src/net/http", "net/http"},
		{"/home/u/go/src/github.com/u/p", "github.com/u/p"},
		{"/home/u/src/work/go/src/example.com/x", "example.com/x"}, // the last src
		{"/home/u/go/src", ""},                                     // GOPATH/src itself: no package
		{"/home/u/project", ""},
		{"/", ""},
	} {
		if got := gopathImportPath(c.root); got != c.want {
			t.Errorf("gopathImportPath(%q) = %q, want %q", c.root, got, c.want)
		}
	}
}

// TestGopathLayout: a Go tree without a go.mod, laid out as GOROOT and
// GOPATH are (a copy of $GOROOT/src/net/http), imports its own packages
// by their path under src/; a tree with a go.mod at its root keeps it.
func TestGopathLayout(t *testing.T) {
	root := filepath.Join(t.TempDir(), "src", "net", "http")
	writeTree(t, root, map[string]string{
		"server.go":           "package http\n\nimport \"net/http/internal/ascii\"\n\nfunc Serve() { ascii.Lower() }\n",
		"internal/ascii/a.go": "package ascii\n\nfunc Lower() {}\n",
	})
	res := build(t, root, testConfig())
	if want := []resolve.GoModule{{Dir: ".", Path: "net/http"}}; !reflect.DeepEqual(res.Project.GoModules, want) {
		t.Errorf("GoModules = %+v, want %+v", res.Project.GoModules, want)
	}
	if !hasCall(res.Graph, "server.go::Serve", "internal/ascii/a.go::Lower") {
		t.Errorf("Serve → ascii.Lower not resolved through the GOPATH layout")
	}
	writeTree(t, root, map[string]string{"go.mod": "module example.com/own\n"})
	res = build(t, root, testConfig())
	if want := []resolve.GoModule{{Dir: ".", Path: "example.com/own"}}; !reflect.DeepEqual(res.Project.GoModules, want) {
		t.Errorf("with a go.mod: GoModules = %+v, want %+v", res.Project.GoModules, want)
	}
}

func hasCall(g *graph.Graph, from, to string) bool {
	f, ok1 := g.Index(from)
	t, ok2 := g.Index(to)
	if !ok1 || !ok2 {
		return false
	}
	for _, ei := range g.Out(f) {
		if e := g.Edge(ei); e.Type == graph.Call && e.To == t {
			return true
		}
	}
	return false
}
