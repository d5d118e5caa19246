package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
)

// ignoreCase checks one path against the rules of a root .gitignore.
type ignoreCase struct {
	name     string
	patterns string
	path     string
	dir      bool
	want     bool
}

func runIgnoreCases(t *testing.T, cases []ignoreCase) {
	t.Helper()
	for _, c := range cases {
		f := parseIgnore("", []byte(c.patterns))
		if got := ignored([]*ignoreFile{f}, c.path, c.dir); got != c.want {
			kind := "file"
			if c.dir {
				kind = "dir"
			}
			t.Errorf("%s: patterns %q, %s %q: ignored = %v; want %v", c.name, c.patterns, kind, c.path, got, c.want)
		}
	}
}

func TestIgnoreSyntax(t *testing.T) {
	runIgnoreCases(t, []ignoreCase{
		// Comments and blank lines.
		{"comment line", "# a.go\n", "a.go", false, false},
		{"comment is not a pattern", "#a.go\n", "#a.go", false, false},
		{"blank lines skipped", "\n\n   \n\t\na.go\n\n", "a.go", false, true},
		{"only comments and blanks", "# x\n\n# y\n", "x", false, false},
		{"trailing spaces trimmed", "a.go   \n", "a.go", false, true},
		{"CRLF line endings", "a.go\r\nb.go\r\n", "b.go", false, true},
		{"no final newline", "a.go", "a.go", false, true},
		{"leading space is significant", " a.go\n", "a.go", false, false},

		// Negation: the last matching rule wins.
		{"negation re-includes", "*.go\n!keep.go\n", "keep.go", false, false},
		{"negation leaves others", "*.go\n!keep.go\n", "drop.go", false, true},
		{"later rule re-ignores", "*.go\n!keep.go\nkeep.go\n", "keep.go", false, true},
		{"negation before rule loses", "!keep.go\n*.go\n", "keep.go", false, true},
		{"negation without match", "!keep.go\n", "keep.go", false, false},
		{"lone bang ignored", "!\n", "x", false, false},

		// Trailing slash: directories only.
		{"dir-only matches dir", "out/\n", "out", true, true},
		{"dir-only skips file", "out/\n", "out", false, false},
		{"dir-only at any depth", "out/\n", "a/b/out", true, true},
		{"dir-only with inner slash anchored", "a/out/\n", "a/out", true, true},
		{"dir-only with inner slash not deep", "a/out/\n", "x/a/out", true, false},
		{"negated dir-only", "out*/\n!out2/\n", "out2", true, false},
		{"lone slash ignored", "/\n", "x", true, false},

		// Leading slash anchors to the .gitignore's directory.
		{"leading slash matches top", "/top.go\n", "top.go", false, true},
		{"leading slash not deep", "/top.go\n", "a/top.go", false, false},
		{"leading slash dir", "/build2/\n", "build2", true, true},
		{"leading slash dir not deep", "/build2/\n", "src/build2", true, false},

		// An inner slash anchors too.
		{"inner slash anchored", "a/b.go\n", "a/b.go", false, true},
		{"inner slash not deep", "a/b.go\n", "x/a/b.go", false, false},
		{"inner slash and star", "a/*.go\n", "a/x.go", false, true},
		{"inner slash star no cross", "a/*.go\n", "a/b/x.go", false, false},

		// No slash: any depth.
		{"basename at top", "gen.go\n", "gen.go", false, true},
		{"basename deep", "gen.go\n", "x/y/gen.go", false, true},
		{"basename dir deep", "gen\n", "x/gen", true, true},
		{"basename is whole component", "gen.go\n", "x/agen.go", false, false},
		{"basename not a prefix", "gen\n", "x/gen2", true, false},

		// Wildcards.
		{"star suffix", "*.pb.go\n", "api/x.pb.go", false, true},
		{"star matches empty", "a*.go\n", "a.go", false, true},
		{"star is not slash", "a*b\n", "a/b", false, false},
		{"dot is literal", "*.go\n", "ago", false, false},
		{"question one char", "file?.go\n", "file1.go", false, true},
		{"question not two", "file?.go\n", "file12.go", false, false},
		{"question not zero", "file?.go\n", "file.go", false, false},
		{"question not slash", "a?b\n", "a/b", false, false},
		{"class", "[abc].go\n", "b.go", false, true},
		{"class miss", "[abc].go\n", "d.go", false, false},
		{"negated class", "[!abc].go\n", "d.go", false, true},
		{"negated class miss", "[!abc].go\n", "a.go", false, false},
		{"range", "v[0-9].go\n", "v7.go", false, true},
		{"range miss", "v[0-9].go\n", "vx.go", false, false},
		{"unclosed bracket literal", "a[b.go\n", "a[b.go", false, true},
		{"regexp metachars literal", "a+b(c).go\n", "a+b(c).go", false, true},
		{"regexp metachars not special", "a+b.go\n", "aab.go", false, false},

		// Double star.
		{"**/x top", "**/gen\n", "gen", true, true},
		{"**/x deep", "**/gen\n", "a/b/gen", true, true},
		{"**/x file", "**/gen.go\n", "a/gen.go", false, true},
		{"**/x whole name", "**/gen\n", "a/xgen", true, false},
		{"**/a/b", "**/a/b.go\n", "x/y/a/b.go", false, true},
		{"x/** inside", "logs/**\n", "logs/a.log", false, true},
		{"x/** deep", "logs/**\n", "logs/a/b/c.log", false, true},
		{"x/** not x itself", "logs/**\n", "logs", true, false},
		{"x/** anchored", "logs/**\n", "src/logs/a.log", false, false},
		{"a/**/b direct", "a/**/b.go\n", "a/b.go", false, true},
		{"a/**/b one level", "a/**/b.go\n", "a/x/b.go", false, true},
		{"a/**/b many levels", "a/**/b.go\n", "a/x/y/z/b.go", false, true},
		{"a/**/b anchored", "a/**/b.go\n", "q/a/x/b.go", false, false},
		{"a/**/b whole name", "a/**/b.go\n", "a/x/cb.go", false, false},

		// Escapes.
		{"escaped hash", "\\#tmp.go\n", "#tmp.go", false, true},
		{"escaped hash deep", "\\#tmp.go\n", "d/#tmp.go", false, true},
		{"escaped bang", "\\!bang.go\n", "!bang.go", false, true},
		{"escaped bang is not negation", "*.go\n\\!bang.go\n", "x.go", false, true},
		{"escaped star literal", "a\\*.go\n", "a*.go", false, true},
		{"escaped star not wildcard", "a\\*.go\n", "ab.go", false, false},
		{"escaped question literal", "a\\?.go\n", "ab.go", false, false},
	})
}

// Git's documented example: everything except foo/bar is excluded.
func TestIgnoreGitDocExample(t *testing.T) {
	const pats = "/*\n!/foo\n/foo/*\n!/foo/bar\n"
	runIgnoreCases(t, []ignoreCase{
		{"other top file", pats, "x.go", false, true},
		{"other top dir", pats, "lib", true, true},
		{"foo kept", pats, "foo", true, false},
		{"foo/bar kept", pats, "foo/bar", true, false},
		{"foo/baz excluded", pats, "foo/baz", false, true},
	})
}

// A .gitignore in a subdirectory applies only below it, anchors to it, and
// the deepest file with a matching rule decides.
func TestIgnoreNestedStack(t *testing.T) {
	root := parseIgnore("", []byte("*.gen.go\n/top.go\nlogs/\n"))
	sub := parseIgnore("sub", []byte("!keep.gen.go\n/anchored.go\nany.go\nlogs/\n!logs/\n"))
	stack := []*ignoreFile{root, sub}
	cases := []struct {
		path string
		dir  bool
		want bool
	}{
		{"x.gen.go", false, true},
		{"sub/x.gen.go", false, true},            // root rule, sub has no match
		{"sub/keep.gen.go", false, false},        // sub re-includes
		{"keep.gen.go", false, true},             // sub rules do not apply above sub
		{"other/keep.gen.go", false, true},       // nor beside it
		{"sub/anchored.go", false, true},         // "/x" anchors to sub
		{"sub/deep/anchored.go", false, false},   // not deeper
		{"anchored.go", false, false},            // nor in the root
		{"sub/a/b/any.go", false, true},          // unanchored: any depth below sub
		{"any.go", false, false},                 // but not outside sub
		{"subway/any.go", false, false},          // "sub" is a directory, not a prefix
		{"top.go", false, true},                  // root anchored rule
		{"sub/top.go", false, false},             // does not reach sub
		{"logs", true, true},                     // root dir rule
		{"sub/logs", true, false},                // sub's last rule re-includes
		{"sub", true, false},                     // a .gitignore never matches its own dir
		{"sub/x.gen.go", true, true},             // a dir matching a file pattern
		{"sub/deeper/keep.gen.go", false, false}, // unanchored negation reaches deeper
	}
	for _, c := range cases {
		if got := ignored(stack, c.path, c.dir); got != c.want {
			t.Errorf("ignored(%q, dir=%v) = %v; want %v", c.path, c.dir, got, c.want)
		}
	}
	// An outer negation cannot undo an inner ignore.
	outer := parseIgnore("", []byte("!*.txt\n"))
	inner := parseIgnore("a", []byte("*.txt\n"))
	if !ignored([]*ignoreFile{outer, inner}, "a/x.txt", false) {
		t.Error("inner ignore must beat outer negation")
	}
	if ignored([]*ignoreFile{outer, inner}, "x.txt", false) {
		t.Error("outer negation: x.txt must not be ignored")
	}
	if ignored(nil, "anything", false) {
		t.Error("empty stack ignores nothing")
	}
}

func TestReadIgnore(t *testing.T) {
	dir := t.TempDir()
	if readIgnore(filepath.Join(dir, "missing"), "") != nil {
		t.Error("missing file gives rules")
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if readIgnore(empty, "") != nil {
		t.Error("empty file gives rules")
	}
	if readIgnore(dir, "") != nil {
		t.Error("a directory gives rules")
	}
	f := filepath.Join(dir, "gi")
	if err := os.WriteFile(f, []byte("# c\n\na\n!b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ig := readIgnore(f, "x/y")
	if ig == nil || ig.base != "x/y" || len(ig.rules) != 2 || !ig.rules[1].negate {
		t.Errorf("readIgnore = %+v", ig)
	}
}

// Discovery end to end: .gitignore files at several levels, the
// .git/info/exclude file, and ignored directories that are never entered.
func TestDiscoverGitignore(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/info/exclude": "# local excludes\nexcluded.py\nlocal/\nrescued.py\n",
		".gitignore": strings.Join([]string{
			"# root rules",
			"*.gen.go",
			"/only_top.py",
			"tmp/",
			"secret",
			"!rescued.py",
			"docs/**/*.js",
			"\\#hash.py",
			"\\!bang.py",
			"gen/",
			"[0-9]*.py",
			"",
		}, "\n"),
		"main.go":               "package main\n",
		"a.gen.go":              "package main\n",
		"only_top.py":           "x = 1\n",
		"pkg/only_top.py":       "x = 1\n",
		"excluded.py":           "x = 1\n",
		"pkg/excluded.py":       "x = 1\n",
		"rescued.py":            "x = 1\n",
		"local/l.py":            "x = 1\n",
		"tmp/t.py":              "x = 1\n",
		"pkg/tmp/t.py":          "x = 1\n",
		"tmp.py":                "x = 1\n",
		"pkg/secret/s.py":       "x = 1\n",
		"secret.py":             "x = 1\n",
		"docs/a/b/c.js":         "let c\n",
		"docs/top.js":           "let t\n",
		"docs/keep.py":          "x = 1\n",
		"#hash.py":              "x = 1\n",
		"!bang.py":              "x = 1\n",
		"1st.py":                "x = 1\n",
		"first.py":              "x = 1\n",
		"gen/.gitignore":        "!*.go\n",
		"gen/g.go":              "package gen\n",
		"gen/sub/h.go":          "package sub\n",
		"sub/.gitignore":        "!keep.gen.go\n/anchored.py\n*.rb\n",
		"sub/keep.gen.go":       "package sub\n",
		"sub/drop.gen.go":       "package sub\n",
		"sub/anchored.py":       "x = 1\n",
		"sub/deep/anchored.py":  "x = 1\n",
		"sub/deep/r.rb":         "r = 1\n",
		"r.rb":                  "r = 1\n",
		"sub/deep/.gitignore":   "!r.rb\n",
		"sub/deep/other/r2.rb":  "r = 2\n",
		"sub/deep/other/r.rb":   "r = 1\n",
		"sub/deep/other/ok.py":  "x = 1\n",
		"sub/deep/.gitignore2":  "ignored: not a .gitignore\n",
		"crlf/.gitignore":       "a.py\r\nb.py\r\n",
		"crlf/a.py":             "x = 1\n",
		"crlf/b.py":             "x = 1\n",
		"crlf/c.py":             "x = 1\n",
		"empty/.gitignore":      "",
		"empty/e.py":            "x = 1\n",
		"commented/.gitignore":  "# *.py\n",
		"commented/c.py":        "x = 1\n",
		"negdir/.gitignore":     "*\n!*/\n!*.go\n",
		"negdir/n.go":           "package n\n",
		"negdir/n.py":           "x = 1\n",
		"negdir/inner/m.go":     "package inner\n",
		"negdir/inner/m.py":     "x = 1\n",
		"wild/.gitignore":       "**/gen_*\nout/**\nx/**/y.py\n",
		"wild/a/b/gen_x.py":     "x = 1\n",
		"wild/out/o.py":         "x = 1\n",
		"wild/out/deep/o.py":    "x = 1\n",
		"wild/x/y.py":           "x = 1\n",
		"wild/x/1/2/y.py":       "x = 1\n",
		"wild/x/1/2/z.py":       "x = 1\n",
		"wild/q/x/1/y.py":       "x = 1\n",
		"wild/keep.py":          "x = 1\n",
		"dironly/.gitignore":    "thing/\n",
		"dironly/thing":         "not a dir",
		"dironly/thing.py":      "x = 1\n",
		"dironly/a/thing/t.py":  "x = 1\n",
		"dironly/b/thing.py/.k": "",
	})
	got := discovered(t, root, testConfig())
	want := []string{
		"commented/c.py",
		"crlf/c.py",
		"dironly/thing.py",
		"docs/keep.py", // docs/**/*.js also ignores docs/top.js (** matches no directory)
		"empty/e.py",
		"first.py",
		"main.go",
		"negdir/inner/m.go",
		"negdir/n.go",
		"pkg/only_top.py", // pkg/excluded.py: the exclude rule has no slash, so any depth
		"r.rb",
		"rescued.py", // .gitignore's negation beats .git/info/exclude
		"secret.py",
		"sub/deep/anchored.py",
		"sub/deep/other/ok.py",
		"sub/deep/other/r.rb",
		"sub/deep/r.rb",
		"sub/keep.gen.go",
		"tmp.py",
		"wild/keep.py",
		"wild/q/x/1/y.py",
		"wild/x/1/2/z.py",
	}
	sameStrings(t, "discovered", got, want)
}

// An ignored directory is not descended into: a .gitignore inside it that
// re-includes files has no effect, and nothing below it is read.
func TestDiscoverIgnoredDirNotEntered(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":        "out\n",
		"out/.gitignore":    "!*\n",
		"out/a.go":          "package out\n",
		"out/deep/b.go":     "package deep\n",
		"src/out/c.go":      "package out\n",
		"src/main.go":       "package main\n",
		"out.go":            "package main\n",
		"src/out.go/x.py":   "x = 1\n",
		"src/outer/keep.go": "package outer\n",
	})
	// Were out/ entered, out/.gitignore (the deepest file) would re-include
	// out/a.go and out/deep/b.go.
	got := discovered(t, root, testConfig())
	sameStrings(t, "discovered", got, []string{"out.go", "src/main.go", "src/out.go/x.py", "src/outer/keep.go"})
}

// .git/info/exclude is honoured and a .gitignore can override it (it
// ranks below every .gitignore, as in git).
func TestDiscoverInfoExclude(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/info/exclude": "*.py\nscratch/\n",
		".gitignore":        "!keep.py\n",
		"a.py":              "x = 1\n",
		"keep.py":           "x = 1\n",
		"lib/b.py":          "x = 1\n",
		"lib/c.go":          "package lib\n",
		"scratch/s.go":      "package scratch\n",
		"lib/scratch/t.go":  "package scratch\n",
	})
	got := discovered(t, root, testConfig())
	sameStrings(t, "discovered", got, []string{"keep.py", "lib/c.go"})
}

// Ignored files are not counted anywhere in the summary.
func TestBuildIgnoredNotCounted(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore": "*.bin.py\nhuge.py\n",
		"ok.py":      "x = 1\n",
		"a.bin.py":   "\x00",
		"huge.py":    strings.Repeat("#", 5000),
	})
	cfg := testConfig()
	cfg.MaxFileSize = 1000
	res := build(t, root, cfg)
	if s := res.Summary; s.Files != 1 || s.Parsed != 1 || s.Skipped() != 0 {
		t.Errorf("summary = %s; ignored files must not be counted", s)
	}
}

// Git: "Trailing spaces are ignored unless they are quoted with backslash".
func TestIgnoreEscapedTrailingSpace(t *testing.T) {
	f := parseIgnore("", []byte("name\\ \n"))
	if !ignored([]*ignoreFile{f}, "name ", false) {
		t.Fatal(`regression: parseIgnore("name\\ ") does not match "name " (the escaped trailing space is trimmed with the other trailing spaces, leaving a pattern that matches a literal backslash)`)
	}
}

// Git: consecutive asterisks not adjacent to slashes are ordinary stars,
// which do not cross a slash.
func TestIgnoreDoubleStarInsideName(t *testing.T) {
	f := parseIgnore("", []byte("a**z\n"))
	if ignored([]*ignoreFile{f}, "abc/xyz", false) {
		t.Fatal(`regression: pattern "a**z" (no slash next to **) matches "abc/xyz": globToRegexp turns a bare ** into .*, which crosses "/"; git treats it as a single *`)
	}
}

// Git supports POSIX character classes such as [[:digit:]].
func TestIgnorePOSIXClass(t *testing.T) {
	f := parseIgnore("", []byte("v[[:digit:]].go\n"))
	if !ignored([]*ignoreFile{f}, "v1.go", false) {
		t.Fatal(`regression: pattern "v[[:digit:]].go" is dropped: globToRegexp ends the class at the first "]" (inside "[:digit:]"), the regexp fails to compile and the rule silently matches nothing`)
	}
}

// Git never lets a bracket expression match "/" in a path.
func TestIgnoreNegatedClassSlash(t *testing.T) {
	f := parseIgnore("", []byte("a[!x]b\n"))
	if ignored([]*ignoreFile{f}, "a/b", false) {
		t.Fatal(`regression: pattern "a[!x]b" matches the path "a/b": globToRegexp turns [!x] into [^x], which also matches "/"; it should be [^x/]`)
	}
}

func TestExcludedMatchesDiscovery(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".gitignore":         "build/\n*.log\n!keep.log\n",
		"src/.gitignore":     "gen/\n",
		"src/a.py":           "x = 1\n",
		"src/gen/b.py":       "x = 1\n",
		"build/c.py":         "x = 1\n",
		"node_modules/d.js":  "x\n",
		"logs/keep.log":      "x\n",
		"logs/other.log":     "x\n",
		".codecanvas/ccd.db": "x\n",
		"deep/er/still/e.go": "package e\n",
		".git/info/exclude":  "secret/\n",
		"secret/f.py":        "x = 1\n",
	}
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(data), 0o644)
	}
	skip := config.Default().SkipDirs
	for _, c := range []struct {
		rel  string
		dir  bool
		want bool
	}{
		{"src/a.py", false, false},
		{"src/gen/b.py", false, true},
		{"src/gen", true, true},
		{"build/c.py", false, true},
		{"node_modules/d.js", false, true},
		{"logs/keep.log", false, false},
		{"logs/other.log", false, true},
		{".codecanvas/ccd.db", false, true},
		{".codecanvas", true, true},
		{"deep/er/still/e.go", false, false},
		{"secret/f.py", false, true},
		{"", true, false},
	} {
		if got := Excluded(root, c.rel, c.dir, skip); got != c.want {
			t.Errorf("Excluded(%q, dir=%v) = %v, want %v", c.rel, c.dir, got, c.want)
		}
	}
}

func TestExcludeCacheInvalidate(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.gen.py\n"), 0o644)
	var c ExcludeCache
	if !c.Excluded(root, "src/a.gen.py", false, nil) || c.Excluded(root, "src/b.py", false, nil) {
		t.Fatal("initial rules not applied")
	}
	os.WriteFile(filepath.Join(root, "src", ".gitignore"), []byte("b.py\n"), 0o644)
	if c.Excluded(root, "src/b.py", false, nil) {
		t.Fatal("the cache should still answer from what it read (a new file is only seen after Invalidate)")
	}
	c.Invalidate()
	if !c.Excluded(root, "src/b.py", false, nil) {
		t.Fatal("after Invalidate the new ignore file must apply")
	}
	if Excluded(root, "src/b.py", false, nil) != c.Excluded(root, "src/b.py", false, nil) {
		t.Fatal("the cached and uncached forms disagree")
	}
}

// TestCcdignore: .ccdignore (gitignore syntax, any directory) keeps files
// from the index and from every other reader (the retrieval index, the
// watcher) while git keeps them (issue 17 #18).
func TestCcdignore(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".ccdignore":         "secrets/\n*_secret.py\n",
		"app.py":             "def run():\n    return 1\n",
		"secrets/keys.py":    "API_KEY = 'abc'\n",
		"lib/db_secret.py":   "PASSWORD = 'x'\n",
		"lib/.ccdignore":     "gen_*.py\n",
		"lib/gen_models.py":  "class M:\n    pass\n",
		"lib/handwritten.py": "def h():\n    return 2\n",
	})
	res := build(t, root, testConfig())
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	if strings.Join(got, " ") != "app.py lib/handwritten.py" {
		t.Errorf("indexed %v; .ccdignore'd files must not be", got)
	}
	for _, c := range []struct {
		rel   string
		isDir bool
		want  bool
	}{{"secrets", true, true}, {"secrets/keys.py", false, true}, {"lib/db_secret.py", false, true}, {"lib/gen_models.py", false, true}, {"app.py", false, false}} {
		if got := Excluded(root, c.rel, c.isDir, nil); got != c.want {
			t.Errorf("Excluded(%s) = %v, want %v", c.rel, got, c.want)
		}
	}
}
