package index

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/parse"
)

// writeTree creates files (slash-separated path → content) below root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// testConfig is the default configuration with a small, fixed worker count.
func testConfig() config.Config {
	c := config.Default()
	c.Workers = 2
	return c
}

func registry(t *testing.T) *parse.Registry {
	t.Helper()
	reg, err := parse.Default()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// discovered runs discover on root and returns the sorted relative paths
// of the candidates it found.
func discovered(t *testing.T, root string, cfg config.Config) []string {
	t.Helper()
	d := discover(root, cfg, registry(t))
	var out []string
	for _, c := range d.files {
		out = append(out, c.rel)
	}
	sort.Strings(out)
	return out
}

// build runs Build with a deadline, so a walk that loops or blocks fails
// the test instead of hanging it.
func build(t *testing.T, root string, cfg config.Config) *Result {
	t.Helper()
	type out struct {
		res *Result
		err error
	}
	ch := make(chan out, 1)
	go func() {
		res, err := Build(root, cfg)
		ch <- out{res, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			t.Fatalf("Build(%s): %v", root, o.err)
		}
		return o.res
	case <-time.After(60 * time.Second):
		t.Fatalf("Build(%s) did not finish within 60s", root)
	}
	return nil
}

func parsedPaths(res *Result) []string {
	var out []string
	for _, f := range res.Files {
		out = append(out, f.Path)
	}
	return out
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestDiscoverDefaultSkipDirs(t *testing.T) {
	for _, dir := range []string{".git", "node_modules", "vendor", ".venv", "__pycache__", "dist", "build", "target"} {
		t.Run(dir, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{
				"main.go":                       "package main\n",
				dir + "/x.py":                   "x = 1\n",
				"src/" + dir + "/deep/y.js":     "let y = 1\n",
				"src/" + dir + ".py":            "z = 1\n", // a file named like the dir is kept
				"src/keep/" + dir + "_not.py":   "w = 1\n",
				"src/keep/not_" + dir + "/a.py": "a = 1\n",
			})
			got := discovered(t, root, testConfig())
			want := []string{
				"main.go",
				"src/" + dir + ".py",
				"src/keep/" + dir + "_not.py",
				"src/keep/not_" + dir + "/a.py",
			}
			sort.Strings(want)
			sameStrings(t, "discovered", got, want)
		})
	}
}

func TestDiscoverDefaultSkipDirsList(t *testing.T) {
	have := map[string]bool{}
	for _, d := range config.Default().SkipDirs {
		have[d] = true
	}
	for _, d := range []string{".git", "node_modules", "vendor", ".venv", "__pycache__", "dist", "build", "target"} {
		if !have[d] {
			t.Errorf("default SkipDirs lacks %q", d)
		}
	}
}

// The skip list applies below the root, never to the root itself.
func TestBuildRootNamedLikeSkipDir(t *testing.T) {
	root := filepath.Join(t.TempDir(), "build")
	writeTree(t, root, map[string]string{"a.py": "def f():\n    pass\n"})
	res := build(t, root, testConfig())
	sameStrings(t, "parsed", parsedPaths(res), []string{"a.py"})
}

func TestDiscoverCustomSkipDirs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"main.go":               "package main\n",
		"gen/x.go":              "package gen\n",
		"a/gen/y.go":            "package gen\n",
		"node_modules/m/i.js":   "let m = 1\n",
		"generated/keep.go":     "package generated\n",
		"third_party/t/t.py":    "t = 1\n",
		"third_party/t/gen/u.c": "int u;\n",
	})
	cfg := testConfig()
	cfg.SkipDirs = []string{"gen", "third_party"}
	got := discovered(t, root, cfg)
	// node_modules is no longer skipped: the custom list replaces the default.
	want := []string{"generated/keep.go", "main.go", "node_modules/m/i.js"}
	sameStrings(t, "discovered", got, want)

	cfg.SkipDirs = nil
	got = discovered(t, root, cfg)
	want = []string{"a/gen/y.go", "gen/x.go", "generated/keep.go", "main.go", "node_modules/m/i.js", "third_party/t/gen/u.c", "third_party/t/t.py"}
	sameStrings(t, "discovered with no skip list", got, want)
}

func TestBuildMaxFileSize(t *testing.T) {
	const limit = 100
	exact := "x = 1\n" + strings.Repeat("#", limit-7) + "\n"
	over := exact + "y"
	if len(exact) != limit || len(over) != limit+1 {
		t.Fatalf("bad fixture sizes %d, %d", len(exact), len(over))
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"exact.py": exact,
		"over.py":  over,
		"small.py": "z = 2\n",
		"big.md":   strings.Repeat("m", 10*limit), // unknown extension: not counted at all
	})
	cfg := testConfig()
	cfg.MaxFileSize = limit
	res := build(t, root, cfg)
	sameStrings(t, "parsed", parsedPaths(res), []string{"exact.py", "small.py"})
	s := res.Summary
	if s.Files != 3 || s.Parsed != 2 || s.TooLarge != 1 || s.Binary != 0 || s.Unreadable != 0 || s.Skipped() != 1 {
		t.Errorf("summary = %+v; want 3 files, 2 parsed, 1 too large", s)
	}
	if s.Languages["python"] != 2 {
		t.Errorf("Languages = %v; want python:2", s.Languages)
	}
	for _, f := range res.Files {
		if f.Path == "exact.py" && f.Size != limit {
			t.Errorf("exact.py size = %d; want %d", f.Size, limit)
		}
	}
}

func TestIsBinary(t *testing.T) {
	withNUL := func(n, at int) []byte {
		b := []byte(strings.Repeat("a", n))
		b[at] = 0
		return b
	}
	cases := []struct {
		name string
		data []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("package main\n"), false},
		{"utf8", []byte("π = 3.14 # ünïcode\n"), false},
		{"latin1", []byte("caf\xe9\n"), false},
		{"NUL first byte", withNUL(100, 0), true},
		{"NUL in middle", withNUL(100, 50), true},
		{"NUL last byte of small file", withNUL(100, 99), true},
		{"NUL at 7999", withNUL(20000, 7999), true},
		{"NUL at 8192 (after 8 KiB)", withNUL(20000, 8192), false},
		{"NUL at 12000", withNUL(20000, 12000), false},
		{"NUL at end of large file", withNUL(20000, 19999), false},
	}
	for _, c := range cases {
		if got := isBinary(c.data); got != c.want {
			t.Errorf("%s: isBinary = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestBuildBinaryFiles(t *testing.T) {
	late := []byte("x = 1\n" + strings.Repeat("#", 9000) + "\n")
	late[9000] = 0 // inside the comment, past the first 8 KiB
	early := []byte("y = 2\n" + strings.Repeat("#", 9000) + "\n")
	early[10] = 0
	edge := []byte("z = 3\n" + strings.Repeat("#", 9000) + "\n")
	edge[7999] = 0
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"text.py":     "def f():\n    return 1\n",
		"late.py":     string(late),
		"early.py":    string(early),
		"edge.py":     string(edge),
		"image.go":    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"lib/blob.js": "\x00\x01\x02",
	})
	res := build(t, root, testConfig())
	sameStrings(t, "parsed", parsedPaths(res), []string{"late.py", "text.py"})
	s := res.Summary
	if s.Files != 6 || s.Parsed != 2 || s.Binary != 4 || s.TooLarge != 0 || s.Unreadable != 0 {
		t.Errorf("summary = %+v; want 6 files, 2 parsed, 4 binary", s)
	}
}

// A legacy-encoded (Latin-1) file is parsed, and identifiers with non-ASCII
// letters stay whole.
func TestBuildLatin1Source(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"latin.py": "# -*- coding: latin-1 -*-\ndef caf\xe9():\n    return 'cr\xe8me'\n\nclass Gar\xe7on:\n    pass\n",
		"utf8.py":  "def café():\n    pass\n",
	})
	res := build(t, root, testConfig())
	sameStrings(t, "parsed", parsedPaths(res), []string{"latin.py", "utf8.py"})
	if res.Summary.Binary != 0 || res.Summary.Parsed != 2 {
		t.Fatalf("summary = %+v", res.Summary)
	}
	f := res.Files[0]
	var names []string
	for _, d := range f.Defs {
		names = append(names, d.Name)
	}
	sameStrings(t, "latin.py defs", names, []string{"café", "Garçon"})
	if f.SyntaxErrors != 0 {
		t.Errorf("latin.py: %d syntax errors", f.SyntaxErrors)
	}
	if f.Lines != 6 {
		t.Errorf("latin.py: %d lines; want 6", f.Lines)
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, root, map[string]string{
		"a/real.py": "def real():\n    pass\n",
		"top.go":    "package top\n",
	})
	writeTree(t, outside, map[string]string{"secret.py": "def secret():\n    pass\n"})
	links := map[string]string{
		"a/loop":      "..",                                  // loop back to the root
		"a/self":      ".",                                   // loop to itself
		"slash":       "/",                                   // escape to the file system root
		"out":         outside,                               // escape to another tree
		"link.py":     "a/real.py",                           // symlinked file inside the tree
		"secret.py":   filepath.Join(outside, "secret.py"),   // symlinked file outside
		"dangling.py": filepath.Join(root, "does-not-exist"), // broken link
		"adir":        "a",                                   // symlinked directory inside
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	res := build(t, root, testConfig())
	sameStrings(t, "parsed", parsedPaths(res), []string{"a/real.py", "top.go"})
	s := res.Summary
	if s.Files != 2 || s.Parsed != 2 || s.Skipped() != 0 {
		t.Errorf("summary = %+v; want 2 files parsed, none skipped", s)
	}
	n, _, err := ParseFloor(root, testConfig())
	if err != nil || n != 2 {
		t.Errorf("ParseFloor = %d, %v; want 2", n, err)
	}
}

// A FIFO or socket with a source extension is skipped without being
// opened (opening a FIFO for reading would block).
func TestDiscoverSpecialFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.py": "x = 1\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.py"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub", "pipe.go"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	// Unix socket paths are limited to ~108 bytes; skip that part if the
	// temp dir is too deep.
	if l, err := net.Listen("unix", filepath.Join(root, "sock.js")); err == nil {
		defer l.Close()
	} else {
		t.Logf("no unix socket: %v", err)
	}
	res := build(t, root, testConfig())
	sameStrings(t, "parsed", parsedPaths(res), []string{"ok.py"})
	if s := res.Summary; s.Files != 1 || s.Parsed != 1 || s.Skipped() != 0 {
		t.Errorf("summary = %+v; want only ok.py", s)
	}
	done := make(chan int, 1)
	go func() {
		n, _, _ := ParseFloor(root, testConfig())
		done <- n
	}()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("ParseFloor parsed %d; want 1", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ParseFloor blocked on a FIFO")
	}
}

func TestDiscoverUnknownExtensionsIgnored(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"README.md":      "# readme\n",
		"data.json":      "{}\n",
		"Makefile":       "all:\n",
		"noext":          "\x00\x01binary with no extension",
		"notes.txt":      strings.Repeat("x", 10),
		"huge.log":       strings.Repeat("x", 5000),
		"script.PY":      "x = 1\n", // extensions match case-insensitively
		"Rakefile":       "task :a do\nend\n",
		"lib/x.rb":       "def x; end\n",
		"lib/image.png":  "\x89PNG\x00",
		"lib/dotfile.go": "package lib\n",
	})
	cfg := testConfig()
	cfg.MaxFileSize = 1000
	res := build(t, root, cfg)
	sameStrings(t, "parsed", parsedPaths(res), []string{"Rakefile", "lib/dotfile.go", "lib/x.rb", "script.PY"})
	s := res.Summary
	if s.Files != 4 || s.Parsed != 4 || s.Skipped() != 0 {
		t.Errorf("summary = %+v; unknown extensions must not be counted", s)
	}
	if s.Languages["ruby"] != 2 || s.Languages["python"] != 1 || s.Languages["go"] != 1 {
		t.Errorf("Languages = %v", s.Languages)
	}
}

func TestSummaryString(t *testing.T) {
	cases := []struct {
		s    Summary
		want string
	}{
		{Summary{}, "0 files: 0 parsed, 0 with syntax errors, 0 skipped (0 binary, 0 too large, 0 unreadable)"},
		{Summary{Files: 10, Parsed: 6, SyntaxErrors: 2, Binary: 1, TooLarge: 2, Unreadable: 1},
			"10 files: 6 parsed, 2 with syntax errors, 4 skipped (1 binary, 2 too large, 1 unreadable)"},
		{Summary{Files: 1234, Parsed: 1234}, "1234 files: 1234 parsed, 0 with syntax errors, 0 skipped (0 binary, 0 too large, 0 unreadable)"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("String() = %q; want %q", got, c.want)
		}
	}
}

func TestBuildSummaryCounts(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.py":      "def a():\n    pass\n",
		"b.go":      "package b\n\nfunc B() {}\n",
		"bad.py":    "def broken(:\n    pass\n",
		"bad.go":    "package bad\n\nfunc {\n",
		"bin.js":    "\x00",
		"large.rs":  "fn main() {}\n" + strings.Repeat("// pad\n", 100),
		"skip.md":   "not counted",
		"sub/c.ts":  "export function c(): number { return 1 }\n",
		".git/d.py": "d = 1\n",
	})
	cfg := testConfig()
	cfg.MaxFileSize = 500
	res := build(t, root, cfg)
	s := res.Summary
	want := Summary{Files: 7, Parsed: 5, SyntaxErrors: 2, Binary: 1, TooLarge: 1, Unreadable: 0}
	if s.Files != want.Files || s.Parsed != want.Parsed || s.SyntaxErrors != want.SyntaxErrors ||
		s.Binary != want.Binary || s.TooLarge != want.TooLarge || s.Unreadable != want.Unreadable {
		t.Errorf("summary = %s; want %s", s, want)
	}
	if got, w := s.String(), "7 files: 5 parsed, 2 with syntax errors, 2 skipped (1 binary, 1 too large, 0 unreadable)"; got != w {
		t.Errorf("String() = %q; want %q", got, w)
	}
	wantLangs := map[string]int{"python": 2, "go": 2, "typescript": 1}
	if !reflect.DeepEqual(s.Languages, wantLangs) {
		t.Errorf("Languages = %v; want %v", s.Languages, wantLangs)
	}
	if s.Files != s.Parsed+s.Skipped() {
		t.Errorf("Files (%d) != Parsed (%d) + Skipped (%d)", s.Files, s.Parsed, s.Skipped())
	}
	if res.Graph == nil || res.Project == nil {
		t.Error("Build left Graph or Project nil")
	}
	if res.Root != root {
		t.Errorf("Root = %q; want %q", res.Root, root)
	}
}

func TestBuildSortedByPath(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"z.py":       "z = 1\n",
		"a.go":       "package a\n",
		"a/b.go":     "package a\n",
		"a-b.py":     "x = 1\n",
		"B.py":       "b = 1\n",
		"m/n/o.rb":   "o = 1\n",
		"m/n.rb":     "n = 1\n",
		"a/c/d.js":   "let d\n",
		"a0.py":      "a0 = 1\n",
		"_under.py":  "u = 1\n",
		"a/b/c/e.sh": "echo\n",
	})
	cfg := testConfig()
	cfg.Workers = 4
	res := build(t, root, cfg)
	got := parsedPaths(res)
	want := []string{"B.py", "_under.py", "a-b.py", "a.go", "a/b.go", "a/b/c/e.sh", "a/c/d.js", "a0.py", "m/n.rb", "m/n/o.rb", "z.py"}
	sameStrings(t, "order", got, want)
	for _, f := range res.Files {
		if strings.Contains(f.Path, `\`) || filepath.IsAbs(f.Path) {
			t.Errorf("path %q is not slash-separated and relative", f.Path)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.go")
	writeTree(t, dir, map[string]string{"file.go": "package f\n"})
	missing := filepath.Join(dir, "no", "such", "dir")

	_, err := Build(file, testConfig())
	if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Build(file) = %v; want an error naming %s and 'not a directory'", err, file)
	}
	_, err = Build(missing, testConfig())
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Build(missing) = %v; want an error naming %s", err, missing)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Build(missing) = %v; want errors.Is fs.ErrNotExist", err)
	}
}

func TestBuildEmptyDir(t *testing.T) {
	res := build(t, t.TempDir(), testConfig())
	if len(res.Files) != 0 || res.Summary.Files != 0 || res.Graph == nil {
		t.Errorf("empty dir: files %v, summary %s", parsedPaths(res), res.Summary)
	}
}

// Build with a relative root reports an absolute Root and relative paths.
func TestBuildRelativeRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"pkg/a.py": "a = 1\n"})
	t.Chdir(root)
	res := build(t, "pkg", testConfig())
	if res.Root != filepath.Join(root, "pkg") {
		t.Errorf("Root = %q", res.Root)
	}
	sameStrings(t, "parsed", parsedPaths(res), []string{"a.py"})
}

// parseAll counts a candidate whose file vanished after discovery as
// unreadable and parses the rest.
func TestParseAllVanishedFile(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.py":    "def a():\n    pass\n",
		"gone.py": "def gone():\n    pass\n",
		"z.go":    "package z\n",
	})
	reg := registry(t)
	cfg := testConfig()
	d := discover(root, cfg, reg)
	if len(d.files) != 3 {
		t.Fatalf("discovered %d files; want 3", len(d.files))
	}
	if err := os.Remove(filepath.Join(root, "gone.py")); err != nil {
		t.Fatal(err)
	}
	// A candidate that was already skipped by discovery (no abs path) is
	// neither parsed nor counted by parseAll.
	cands := append(d.files, candidate{rel: "toolarge.py"})
	files, sum := parseAll(reg, cands, cfg, nil)
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	sameStrings(t, "parsed", got, []string{"a.py", "z.go"})
	if sum.Parsed != 2 || sum.Unreadable != 1 || sum.Binary != 0 || sum.SyntaxErrors != 0 {
		t.Errorf("parseAll summary = %+v; want 2 parsed, 1 unreadable", sum)
	}
	if sum.Languages["python"] != 1 || sum.Languages["go"] != 1 {
		t.Errorf("Languages = %v", sum.Languages)
	}

	// Zero workers still parses (one worker).
	cfg.Workers = 0
	_, sum = parseAll(reg, d.files, cfg, nil)
	if sum.Parsed != 2 || sum.Unreadable != 1 {
		t.Errorf("Workers=0: %+v", sum)
	}
}

// A candidate that is replaced by a directory between discovery and parse
// is counted as unreadable, not a crash.
func TestParseAllFileBecameDirectory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"x.py": "x = 1\n", "y.py": "y = 1\n"})
	reg := registry(t)
	d := discover(root, testConfig(), reg)
	p := filepath.Join(root, "x.py")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	files, sum := parseAll(reg, d.files, testConfig(), nil)
	if len(files) != 1 || files[0].Path != "y.py" || sum.Unreadable != 1 {
		t.Errorf("parsed %d files, summary %+v; want y.py only and 1 unreadable", len(files), sum)
	}
}

func TestParseFile(t *testing.T) {
	root := t.TempDir()
	bin := "x = 1\n\x00"
	writeTree(t, root, map[string]string{
		"ok.py":       "def ok():\n    pass\n",
		"sub/ok.go":   "package sub\n\nfunc F() {}\n",
		"big.py":      "x = 1\n" + strings.Repeat("#", 200) + "\n",
		"exact.py":    "x = 1\n" + strings.Repeat("#", 93) + "\n",
		"bin.py":      bin,
		"readme.md":   "# hi\n",
		"syntax.py":   "def (:\n",
		"Rakefile":    "task :x do\nend\n",
		"noext":       "x",
		"dir.py/a.py": "a = 1\n",
	})
	reg := registry(t)
	p := reg.NewParser()
	defer p.Close()
	cfg := testConfig()
	cfg.MaxFileSize = 100

	cases := []struct {
		rel      string
		wantErr  error  // errors.Is target, nil for "any error" when errText set
		errText  string // substring of the error
		wantLang string // for a successful parse
	}{
		{rel: "ok.py", wantLang: "python"},
		{rel: "sub/ok.go", wantLang: "go"},
		{rel: "exact.py", wantLang: "python"},
		{rel: "syntax.py", wantLang: "python"},
		{rel: "Rakefile", wantLang: "ruby"},
		{rel: "big.py", wantErr: ErrTooLarge, errText: "big.py"},
		{rel: "bin.py", wantErr: ErrBinary, errText: "bin.py"},
		{rel: "missing.py", wantErr: fs.ErrNotExist, errText: "missing.py"},
		{rel: "sub/missing.go", wantErr: fs.ErrNotExist, errText: "sub/missing.go"},
		{rel: "readme.md", errText: "readme.md"},
		{rel: "noext", errText: "noext"},
		{rel: "missing.unknown", errText: "missing.unknown"},
		{rel: "dir.py", errText: "dir.py"},
	}
	for _, c := range cases {
		t.Run(c.rel, func(t *testing.T) {
			f, err := ParseFile(reg, p, root, c.rel, cfg)
			if c.wantLang != "" {
				if err != nil {
					t.Fatalf("ParseFile: %v", err)
				}
				if f.Path != c.rel || f.Lang != c.wantLang {
					t.Errorf("got path %q lang %q; want %q %q", f.Path, f.Lang, c.rel, c.wantLang)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseFile(%s) succeeded; want an error", c.rel)
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("error %v; want errors.Is %v", err, c.wantErr)
			}
			if !strings.Contains(err.Error(), c.errText) {
				t.Errorf("error %q does not name %q", err, c.errText)
			}
			if f != nil {
				t.Errorf("got a file with the error")
			}
		})
	}
	// The two sentinel errors are distinct.
	if errors.Is(ErrTooLarge, ErrBinary) || errors.Is(ErrBinary, ErrTooLarge) {
		t.Error("ErrTooLarge and ErrBinary must differ")
	}
}

// ParseFile must not follow a symlink: discovery never does, and a link's
// own (Lstat) size says nothing about its target, so following it bypasses
// the size limit.
func TestParseFileSymlink(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"real.py": "x = 1\n" + strings.Repeat("#", 500) + "\n"})
	if err := os.Symlink("real.py", filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	p := reg.NewParser()
	defer p.Close()
	cfg := testConfig()
	cfg.MaxFileSize = 100
	if _, err := ParseFile(reg, p, root, "real.py", cfg); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ParseFile(real.py) = %v; want ErrTooLarge", err)
	}
	f, err := ParseFile(reg, p, root, "link.py", cfg)
	if err == nil {
		t.Fatalf("regression: ParseFile(link.py -> real.py) followed the symlink and parsed %d bytes past MaxFileSize=%d "+
			"(Lstat size of the link is checked, then os.ReadFile reads the target); want an error", f.Size, cfg.MaxFileSize)
	}
}

// ParseFile on a FIFO must return promptly rather than block in open(2).
func TestParseFileFIFO(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	reg := registry(t)
	cfg := testConfig()
	type out struct {
		err error
	}
	done := make(chan out, 1)
	go func() {
		p := reg.NewParser()
		defer p.Close()
		_, err := ParseFile(reg, p, root, "pipe.py", cfg)
		done <- out{err}
	}()
	select {
	case o := <-done:
		if o.err == nil {
			t.Errorf("ParseFile(FIFO) succeeded; want an error for a non-regular file")
		}
		return
	case <-time.After(time.Second):
	}
	// ParseFile is blocked opening the FIFO for reading. Release it by
	// opening the write end without blocking (this succeeds only while a
	// reader is waiting) and closing it, so the reader sees EOF.
	deadline := time.Now().Add(10 * time.Second)
	released := false
	for !released && time.Now().Before(deadline) {
		w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			w.Close()
			released = true
			break
		}
		select {
		case o := <-done:
			t.Logf("ParseFile returned late: %v", o.err)
			t.Fatal("regression: ParseFile blocked for over 1s on a FIFO named pipe.py")
		case <-time.After(50 * time.Millisecond):
		}
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ParseFile still blocked on the FIFO after its writer closed")
	}
	t.Fatal("regression: ParseFile blocks opening a FIFO named pipe.py (it Lstat-s but never checks the file is regular, then os.ReadFile waits for a writer)")
}

func TestParseFloorMatchesBuild(t *testing.T) {
	root := t.TempDir()
	bin := "\x00\x01"
	writeTree(t, root, map[string]string{
		"a.py":              "def a():\n    b()\n",
		"b.go":              "package b\n\nfunc B() {}\n",
		"c/d.ts":            "export const d = 1\n",
		"c/e.rs":            "fn e() {}\n",
		"bad.py":            "def (:\n",
		"bin.py":            bin,
		"large.c":           "int x;\n" + strings.Repeat("/* pad */\n", 200),
		"node_modules/x.js": "let x\n",
		"notes.md":          "# notes\n",
		"latin.py":          "def caf\xe9(): pass\n",
	})
	cfg := testConfig()
	cfg.MaxFileSize = 1000
	res := build(t, root, cfg)
	n, dur, err := ParseFloor(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n != res.Summary.Parsed || n != 6 {
		t.Errorf("ParseFloor parsed %d, Build parsed %d; want both 6", n, res.Summary.Parsed)
	}
	if dur <= 0 {
		t.Errorf("ParseFloor duration %v", dur)
	}
	cfg.Workers = 0
	if n, _, err := ParseFloor(root, cfg); err != nil || n != 6 {
		t.Errorf("ParseFloor with Workers=0 = %d, %v; want 6", n, err)
	}
}

// ParseFloor claims to discover "exactly as Build does"; Build rejects a
// missing root or a file, so ParseFloor should too.
func TestParseFloorBadRoot(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f.py": "x = 1\n"})
	for _, root := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "f.py")} {
		n, _, err := ParseFloor(root, testConfig())
		if err == nil {
			t.Fatalf("regression: ParseFloor(%s) = %d files, nil error; Build returns an error naming the path", root, n)
		}
		if !strings.Contains(err.Error(), root) {
			t.Errorf("ParseFloor(%s) error %q does not name the path", root, err)
		}
	}
}
