package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// TestUpdateReusesTrees edits files of the Go and Python fixtures one
// save at a time through UpdateFiles and Update, and checks that every
// graph is a clean build's, that the edits after the first reparse their
// file incrementally, and that WarmTree and ReleaseTrees do what they say.
func TestUpdateReusesTrees(t *testing.T) {
	type edit struct{ old, new string }
	cases := []struct {
		fixture, file string
		edits         []edit
	}{
		{"go", "service/service.go", []edit{
			{"\ts.Logf(\"add %s\", id)\n", "\ts.Logf(\"add %s\", id)\n\ts.repo.Count()\n"},
			{"// Size has a value receiver.\n", "// Size has a value receiver.\n// Ünïcode comment 漢字.\n\n"},
			{"func (s Service) Size() int {", "func (s Service) Size( int {"}, // breaks the syntax
			{"func (s Service) Size( int {", "func (s Service) Size() int {"}, // and fixes it
			{"func (s Service) Size() int {", "func (s Service) Total() int {"},
			{"package service\n", "package service\n\n// Package service wires things.\n"},
		}},
		{"python", "shop/models.py", []edit{
			{"class ", "\n\nclass "},
			{"def ", "def added_helper():\n    return 1\n\n\ndef "},
			{"def added_helper():", "def added_helper(:"},
			{"def added_helper(:", "def added_helper():"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := testrepo.Unpack(t, "../../testdata/graph/"+tc.fixture+".txtar")
			cfg := config.Default()
			res, err := Build(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st := res.TreeStats(); st.Cached != 0 {
				t.Fatalf("Build cached %d trees, want none", st.Cached)
			}
			if err := res.WarmTree("no/such/file.go"); err != nil || res.TreeStats().Cached != 0 {
				t.Fatalf("WarmTree of an unknown file: %v, %+v; want a no-op", err, res.TreeStats())
			}
			if err := res.WarmTree(tc.file); err != nil {
				t.Fatal(err)
			}
			if st := res.TreeStats(); st.Cached != 1 || st.Full != 1 {
				t.Fatalf("after WarmTree: %+v, want the file's tree cached", st)
			}
			if err := res.WarmTree(tc.file); err != nil || res.TreeStats().Full != 1 {
				t.Fatalf("WarmTree of a cached file parsed it again: %v, %+v", err, res.TreeStats())
			}
			abs := filepath.Join(dir, filepath.FromSlash(tc.file))
			for i, e := range tc.edits {
				data, err := os.ReadFile(abs)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), e.old) {
					t.Fatalf("edit %d: %q not in %s", i, e.old, tc.file)
				}
				writeFile(t, abs, strings.Replace(string(data), e.old, e.new, 1))
				var next *Result
				if i%3 == 2 {
					// Update (the walk) shares the cache too.
					next, _, err = res.Update([]string{tc.file})
				} else {
					var ok bool
					next, _, ok, err = res.UpdateFiles([]string{tc.file})
					if !ok {
						t.Fatalf("edit %d: UpdateFiles declined a plain edit", i)
					}
				}
				if err != nil {
					t.Fatalf("edit %d: %v", i, err)
				}
				if next.trees != res.trees {
					t.Fatalf("edit %d: the update did not hand the tree cache over", i)
				}
				clean, err := Build(dir, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := next.Graph.Text(), clean.Graph.Text(); got != want {
					t.Fatalf("edit %d (%q): graph differs from a clean build:\n%s", i, e.new, lineDiff(want, got))
				}
				if got, want := next.Summary.String(), clean.Summary.String(); got != want {
					t.Fatalf("edit %d: summary %q, clean build %q", i, got, want)
				}
				res = next
			}
			st := res.TreeStats()
			t.Logf("%d edits: %+v", len(tc.edits), st)
			// The edit that breaks the syntax falls back; the one after it
			// starts from a tree with errors: a full parse.
			if st.Incremental < len(tc.edits)-3 || st.Fallback == 0 {
				t.Errorf("after %d edits: %+v; want incremental parses and a fallback", len(tc.edits), st)
			}
			res.ReleaseTrees()
			if st := res.TreeStats(); st.Cached != 0 {
				t.Errorf("after ReleaseTrees: %+v, want nothing cached", st)
			}
			writeFile(t, abs, "\n"+mustRead(t, abs))
			next, _, ok, err := res.UpdateFiles([]string{tc.file})
			if err != nil || !ok {
				t.Fatalf("UpdateFiles after ReleaseTrees: ok=%v err=%v", ok, err)
			}
			clean, _ := Build(dir, cfg)
			if got, want := next.Graph.Text(), clean.Graph.Text(); got != want {
				t.Fatalf("after ReleaseTrees: graph differs from a clean build:\n%s", lineDiff(want, got))
			}
		})
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
