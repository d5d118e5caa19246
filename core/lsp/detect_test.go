package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "old-tsc", `echo "Version 5.9.3"`)
	script(t, dir, "new-tsc", `echo "Version 7.0.2"`)
	script(t, dir, "quiet-ls", `exit 0`)
	// rustup's proxy for a component that is not installed
	script(t, dir, "proxy-ls", `echo "error: Unknown binary 'proxy-ls' in official toolchain" >&2; exit 1`)
	abs := script(t, t.TempDir(), "abs-ls", `echo "abs-ls 1.2"`)
	ext := []string{".x"}
	specs := []ServerSpec{
		// first candidate too old, second one right: the second is chosen
		{Language: "ts", Command: []string{"old-tsc", "--lsp"}, VersionArgs: []string{"--version"}, VersionMatch: `Version [7-9]\.`, Extensions: ext},
		{Language: "ts", Command: []string{"new-tsc", "--lsp"}, VersionArgs: []string{"--version"}, VersionMatch: `Version [7-9]\.`, Extensions: ext},
		{Language: "quiet", Command: []string{"quiet-ls"}, VersionArgs: []string{"--version"}, Extensions: ext},
		{Language: "abs", Command: []string{abs}, VersionArgs: []string{"--version"}, Extensions: ext},
		{Language: "none", Command: []string{"ccd-missing-a"}, Extensions: ext},
		{Language: "none", Command: []string{"ccd-missing-b"}, Extensions: ext},
		{Language: "bad", Command: nil, Extensions: ext},
		{Language: "proxy", Command: []string{"proxy-ls"}, VersionArgs: []string{"--version"}, Extensions: ext},
	}
	got := Detect(context.Background(), specs, []string{dir})
	want := []struct {
		lang, name, version string
		found               bool
		problem             string
	}{
		{"ts", "new-tsc", "Version 7.0.2", true, ""},
		{"quiet", "quiet-ls", "", true, ""},
		{"abs", "abs-ls", "abs-ls 1.2", true, ""},
		{"none", "ccd-missing-a", "", false, "ccd-missing-b not found"},
		{"bad", "bad", "", false, "Command is empty"},
		{"proxy", "proxy-ls", "", false, `does not run (proxy-ls --version: exit status 1: "error: Unknown binary`},
	}
	if len(got) != len(want) {
		t.Fatalf("Detect returned %d languages, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Language != w.lang || g.Name != w.name || g.Found != w.found || g.Version != w.version || !strings.Contains(g.Problem, w.problem) {
			t.Errorf("detection %d = %+v, want %+v", i, g, w)
		}
		if g.Found && !filepath.IsAbs(g.Path) {
			t.Errorf("%s: path %q is not absolute", g.Language, g.Path)
		}
	}
}

// TestDetectDefaults checks the built-in table against the servers
// scripts/install-lsp.sh installs.
func TestDetectDefaults(t *testing.T) {
	ds := Detect(context.Background(), DefaultServers(), SearchPathFromEnv())
	byLang := map[string]Detection{}
	for _, d := range ds {
		byLang[d.Language] = d
	}
	for _, tc := range []struct{ lang, name, version string }{
		{"go", "gopls", "v0.23"},
		{"python", "pyright", "1.1.414"},
		{"typescript", "tsc", "Version 7"},
	} {
		d := byLang[tc.lang]
		if !d.Found {
			needServer(t, errors.Join(errors.New(d.Problem), ErrNotFound))
		}
		if d.Name != tc.name || !strings.Contains(d.Version, tc.version) {
			t.Errorf("%s: detected %s %q, want %s %s", tc.lang, d.Name, d.Version, tc.name, tc.version)
		}
	}
	for _, lang := range []string{"c", "bash", "rust", "java", "ruby"} {
		if _, ok := byLang[lang]; !ok {
			t.Errorf("no detection row for %s", lang)
		}
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "ls-a", "exit 0")
	if err := os.WriteFile(filepath.Join(dir, "not-exec"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := LookPath("ls-a", []string{dir}); err != nil || p != filepath.Join(dir, "ls-a") {
		t.Errorf("LookPath(ls-a) = %q, %v", p, err)
	}
	if p, err := LookPath("sh", []string{dir}); err != nil || !filepath.IsAbs(p) {
		t.Errorf("LookPath(sh) via PATH = %q, %v", p, err)
	}
	for _, name := range []string{"not-exec", filepath.Join(dir, "not-exec"), "", "ccd-nope"} {
		if _, err := LookPath(name, []string{dir}); !errors.Is(err, ErrNotFound) {
			t.Errorf("LookPath(%q): err = %v, want ErrNotFound", name, err)
		}
	}
}

func TestSpecValidate(t *testing.T) {
	cases := []struct {
		spec ServerSpec
		err  string
	}{
		{ServerSpec{Language: "x", Command: []string{"x"}, Extensions: []string{".x"}}, ""},
		{ServerSpec{Command: []string{"x"}, Extensions: []string{".x"}}, "Language is empty"},
		{ServerSpec{Language: "x", Extensions: []string{".x"}}, "Command is empty"},
		{ServerSpec{Language: "x", Command: []string{"x"}}, "no Extensions"},
		{ServerSpec{Language: "x", Command: []string{"x"}, Extensions: []string{".x"}, InitOptions: []byte("{")}, "not valid JSON"},
	}
	for _, tc := range cases {
		err := tc.spec.Validate()
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Validate(%+v) = %v, want %q", tc.spec, err, tc.err)
		}
	}
	for _, s := range DefaultServers() {
		if err := s.Validate(); err != nil {
			t.Errorf("default server: %v", err)
		}
	}
}

func TestLanguageIDs(t *testing.T) {
	ts := DefaultServers()[2]
	for file, want := range map[string]string{"a.ts": "typescript", "b.TSX": "typescriptreact", "c.js": "javascript", "d.jsx": "javascriptreact"} {
		if got := ts.languageID(file); got != want {
			t.Errorf("languageID(%s) = %s, want %s", file, got, want)
		}
	}
	custom := ServerSpec{Language: "zig", LanguageIDs: map[string]string{".zon": "zon"}}
	if custom.languageID("a.zon") != "zon" || custom.languageID("a.zig") != "zig" {
		t.Error("custom language ids not honoured")
	}
}
