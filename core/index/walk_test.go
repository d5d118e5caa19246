package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// walkFixture is a tree with ignore files at several levels, a skipped
// directory, hidden directories and documentation files.
var walkFixture = map[string]string{
	".git/info/exclude":     "secret/\n",
	".gitignore":            "build/\n*.log\n",
	"README.md":             "# top\n",
	"main.go":               "package main\n",
	"secret/s.go":           "package s\n",
	"build/b.go":            "package b\n",
	"node_modules/n.js":     "x\n",
	"docs/guide.md":         "# guide\n",
	"docs/run.log":          "log\n",
	"src/.gitignore":        "gen/\n",
	"src/a.py":              "x = 1\n",
	"src/gen/g.py":          "x = 1\n",
	"src/gen/notes.md":      "# generated\n",
	"src/pkg/.ccdignore":    "private/\n",
	"src/pkg/p.py":          "x = 1\n",
	"src/pkg/Makefile":      "all:\n",
	"src/pkg/private/q.py":  "x = 1\n",
	"src/pkg/sub/deep/d.md": "# deep\n",
	".hidden/h.py":          "x = 1\n",
}

// TestWalkOneRuleSet: the directories and text files of a whole walk, of a
// subtree walk (which applies the ignore files above it, as a walk from
// the root does) and of a result are the same for the same part of the
// tree.
func TestWalkOneRuleSet(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, walkFixture)
	res := build(t, root, testConfig())
	cases := []struct {
		name      string
		rel       string
		dirs, txt []string
	}{
		{"whole tree", "", []string{"", ".hidden", "docs", "src", "src/pkg", "src/pkg/sub", "src/pkg/sub/deep"},
			[]string{"README.md", "docs/guide.md", "src/pkg/Makefile", "src/pkg/sub/deep/d.md"}},
		{"subtree under two ignore files", "src/pkg", []string{"src/pkg", "src/pkg/sub", "src/pkg/sub/deep"},
			[]string{"src/pkg/Makefile", "src/pkg/sub/deep/d.md"}},
		{"leaf", "src/pkg/sub/deep", []string{"src/pkg/sub/deep"}, []string{"src/pkg/sub/deep/d.md"}},
		{"a directory that is gone", "nowhere", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := Walk(root, c.rel, testConfig())
			slices.Sort(tr.Dirs)
			slices.Sort(tr.Text)
			if !slices.Equal(tr.Dirs, c.dirs) || !slices.Equal(tr.Text, c.txt) {
				t.Errorf("Walk(%q):\n dirs %q, want %q\n text %q, want %q", c.rel, tr.Dirs, c.dirs, tr.Text, c.txt)
			}
			if c.rel != "" {
				return
			}
			dirs, txt := slices.Sorted(slices.Values(res.Dirs())), slices.Sorted(slices.Values(res.TextFiles()))
			if !slices.Equal(dirs, c.dirs) || !slices.Equal(txt, c.txt) {
				t.Errorf("the result's walk differs:\n dirs %q\n text %q", dirs, txt)
			}
		})
	}
	// Every directory walked is one the per-path rules (a watcher's
	// ExcludeCache) let through.
	for _, d := range res.Dirs() {
		if Excluded(root, d, true, testConfig().SkipDirs) {
			t.Errorf("walked %q, which Excluded excludes", d)
		}
	}
}

// TestResultWalkFollowsUpdates: an update that walks brings new
// directories and text files; one that reads only the edited files keeps
// the list; text files over the size limit are left out.
func TestResultWalkFollowsUpdates(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n", "NOTES.txt": "notes\n"})
	cfg := testConfig()
	cfg.MaxFileSize = 1000
	res := build(t, root, cfg)
	writeTree(t, root, map[string]string{"new/b.py": "y = 2\n", "new/README": "read me\n", "big.md": strings.Repeat("x", 2000)})
	next, _, err := res.Update(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(next.Dirs(), " "); got != " new" {
		t.Errorf("dirs after the update: %q", got)
	}
	if got := strings.Join(next.TextFiles(), " "); got != "NOTES.txt new/README" {
		t.Errorf("text files after the update: %q (big.md is over the limit)", got)
	}
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _, ok, err := next.UpdateFiles([]string{"a.py"})
	if err != nil || !ok {
		t.Fatalf("UpdateFiles: %v %v", ok, err)
	}
	if !slices.Equal(third.Dirs(), next.Dirs()) || !slices.Equal(third.TextFiles(), next.TextFiles()) {
		t.Error("an update without a walk lost the walk's lists")
	}
}

// TestHasSource: a root has source when indexing would parse a file of
// it, by the same rules.
func TestHasSource(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"empty", nil, false},
		{"documentation only", map[string]string{"README.md": "# x\n", "docs/a.txt": "x\n"}, false},
		{"a source file deep down", map[string]string{"a/b/c/d.go": "package d\n"}, true},
		{"only in a skipped directory", map[string]string{"node_modules/x/i.js": "x\n"}, false},
		{"only where .gitignore says not to look", map[string]string{".gitignore": "gen/\n", "gen/g.py": "x = 1\n"}, false},
		{"in a hidden directory indexing enters", map[string]string{".github/scripts/s.py": "x = 1\n"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, c.files)
			if got := HasSource(root, testConfig()); got != c.want {
				t.Errorf("HasSource = %v, want %v", got, c.want)
			}
			if c.want {
				if res := build(t, root, testConfig()); res.Summary.Parsed == 0 {
					t.Error("HasSource says yes but indexing parses nothing")
				}
			}
		})
	}
}
