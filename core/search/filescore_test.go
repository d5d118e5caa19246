package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildFiles writes files into a new directory and indexes them as the
// daemon does (definitions from the real parser).
func buildFiles(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return build(t, dir)
}

// files lists the distinct files of handles in order.
func files(hs []Handle) []string {
	var out []string
	for _, h := range hs {
		if !contains(out, h.FilePath) {
			out = append(out, h.FilePath)
		}
	}
	return out
}

// TestFileLevelRanking: the words of a question are often spread over a
// file's handles; the file that holds them all (and whose path names one)
// must beat a file with one handle holding the commonest two of them, and
// a handle of it must be shown even when it holds little of the question
// itself.
func TestFileLevelRanking(t *testing.T) {
	fx := buildFiles(t, map[string]string{
		// Every word of the question, one or two per function.
		"signal/notify.go": `// Package signal relays incoming operating system signals.
package signal

// Notify causes package signal to relay incoming signals to the channel c.
func Notify(c chan int) { deliver(c) }

// deliver hands one signal over.
func deliver(c chan int) { c <- 1 }

// Stop stops relaying signals.
func Stop(c chan int) {}
`,
		// Two of the commonest words in one name, no more.
		"os/proc.go": `package os

// Channel is an operating system process channel.
type Channel struct{ fd int }

// System is the operating system.
type System struct{}

func (s System) Channel() Channel { return Channel{} }
`,
		"os/file.go": `package os

// File is an operating system file.
type File struct{ fd int }
`,
	})
	cases := []struct {
		question string
		first    string // the file that must come first
	}{
		{"deliver operating system signals to a channel", "signal/notify.go"},
		{"relay incoming signals", "signal/notify.go"},
	}
	for _, c := range cases {
		r, err := fx.ix.Query(QueryParams{Pattern: c.question, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := files(r.Handles); len(got) == 0 || got[0] != c.first {
			t.Errorf("%q: files %v, want %s first", c.question, got, c.first)
		}
	}
}

// TestSpreadFileShown: no handle of the answering file holds half of the
// question's words (each holds one), so none qualifies on its own; its
// file holds them all, so its best handles are shown anyway.
func TestSpreadFileShown(t *testing.T) {
	fx := buildFiles(t, map[string]string{
		"zone/db.go": `package zone

// Load reads the tz files.
func Load() {}

// Lookup finds an IANA name.
func Lookup() {}

// Offsets lists transitions.
func Offsets() {}

// Store is the database.
func Store() {}
`,
		"misc/a.go": `package misc

// Widget is unrelated.
func Widget() {}
`,
	})
	r, err := fx.ix.Query(QueryParams{Pattern: "IANA tz database transitions", Limit: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := files(r.Handles); !contains(got, "zone/db.go") {
		t.Errorf("files %v, want zone/db.go among them", got)
	}
}

// TestOptionalWords: a question word code also uses ("once") lifts the
// handles that hold it but is not missed by those that do not.
func TestOptionalWords(t *testing.T) {
	fx := buildFiles(t, map[string]string{
		"sync/once.go": `package sync

// Once performs an initialization action exactly one time.
type Once struct{ done bool }
`,
		"sync/init.go": `package sync

// start performs an initialization action.
func start() {}
`,
		"other/x.go": `package other

// Unrelated mentions once and nothing else.
func Unrelated() {}
`,
	})
	cases := []struct {
		question, first string
		partial         bool // the note says no handle holds every word
	}{
		{"perform the initialization action once", "sync/once.go::Once", false},
		{"perform the initialization action", "sync/init.go::start", false},
	}
	for _, c := range cases {
		r, err := fx.ix.Query(QueryParams{Pattern: c.question, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := labels(r.Handles)
		if len(got) == 0 || got[0] != c.first {
			t.Errorf("%q: %v, want %s first", c.question, got, c.first)
		}
		if partial := strings.Contains(r.Note, "no handle contains every word"); partial != c.partial {
			t.Errorf("%q: note %q, want partial=%v", c.question, r.Note, c.partial)
		}
		if contains(got, "other/x.go::Unrelated") {
			t.Errorf("%q: %v holds a handle with only the optional word", c.question, got)
		}
	}
}

// TestSynonyms: a question's word finds code that names the operation by
// another word of its group (conf/a_write.go would win the tie on its path
// without it).
func TestSynonyms(t *testing.T) {
	fx := buildFiles(t, map[string]string{
		"conf/load.go": `package conf

// parseSettings reads the settings file.
func parseSettings() {}
`,
		"conf/a_write.go": `package conf

// writeSettings saves the settings file.
func writeSettings() {}
`,
	})
	cases := []struct{ question, first string }{
		{"decode settings", "conf/load.go::parseSettings"},
		{"unmarshal the settings", "conf/load.go::parseSettings"},
		{"parse settings", "conf/load.go::parseSettings"},
	}
	for _, c := range cases {
		r, err := fx.ix.Query(QueryParams{Pattern: c.question, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := labels(r.Handles); len(got) == 0 || got[0] != c.first {
			t.Errorf("%q: %v, want %s first", c.question, got, c.first)
		}
	}
}

// TestFirstPageFiles: when one file has many handles that all outscore
// another file's best (they share their file's score), the first page
// still shows the other file.
func TestFirstPageFiles(t *testing.T) {
	var big strings.Builder
	big.WriteString("package big\n\n")
	for i := range 60 {
		fmt.Fprintf(&big, "// frobnicate widget number %d\nfunc FrobnicateWidget%d() {}\n\n", i, i)
	}
	fx := buildFiles(t, map[string]string{
		"big/big.go":     big.String(),
		"small/small.go": "package small\n\n// frobnicate the widget once\nfunc Helper() {}\n",
	})
	r, err := fx.ix.Query(QueryParams{Pattern: "frobnicate widget", Limit: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := files(r.Handles)
	if len(r.Handles) != 8 || !contains(got, "small/small.go") {
		t.Errorf("%d handles of %v, want 8 with small/small.go", len(r.Handles), got)
	}
	per := map[string]int{}
	for _, h := range r.Handles[:2] {
		per[h.FilePath]++
	}
	if per["big/big.go"] > perFilePage {
		t.Errorf("first page %v", labels(r.Handles))
	}
}

func TestKthLargest(t *testing.T) {
	cases := []struct {
		xs   []float64
		k    int
		want float64
	}{
		{nil, 3, 0},
		{[]float64{5}, 3, 5},
		{[]float64{1, 9, 3}, 3, 1},
		{[]float64{1, 9, 3, 7, 5}, 1, 9},
		{[]float64{1, 9, 3, 7, 5}, 2, 7},
		{[]float64{1, 9, 3, 7, 5}, 4, 3},
		{[]float64{4, 4, 4, 1}, 2, 4},
	}
	for _, c := range cases {
		if got := kthLargest(c.xs, c.k); got != c.want {
			t.Errorf("kthLargest(%v, %d) = %v, want %v", c.xs, c.k, got, c.want)
		}
	}
}

// TestFirstPageOneHandlePerFile: a text search's first page shows one
// handle of each file while other files have matches; a file's other
// handles follow the page.
func TestFirstPageOneHandlePerFile(t *testing.T) {
	pkg := func(name string, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\n", name)
		for i := range n {
			fmt.Fprintf(&b, "// rotate the ledger entry %d\nfunc Rotate%d() {}\n\n", i, i)
		}
		return b.String()
	}
	cases := []struct {
		name  string
		files map[string]string
		limit int
		want  int // distinct files among the first limit handles
	}{
		{"more files than the page", map[string]string{"a/a.go": pkg("a", 3), "b/b.go": pkg("b", 3), "c/c.go": pkg("c", 3)}, 2, 2},
		{"as many files as the page", map[string]string{"a/a.go": pkg("a", 3), "b/b.go": pkg("b", 3), "c/c.go": pkg("c", 3)}, 3, 3},
		{"fewer files than the page", map[string]string{"a/a.go": pkg("a", 4), "b/b.go": pkg("b", 1)}, 4, 2},
	}
	for _, c := range cases {
		fx := buildFiles(t, c.files)
		r, err := fx.ix.Query(QueryParams{Pattern: "rotate ledger entry", Limit: c.limit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Handles) != c.limit {
			t.Errorf("%s: %d handles, want %d", c.name, len(r.Handles), c.limit)
			continue
		}
		seen := map[string]bool{}
		for _, h := range r.Handles {
			seen[h.FilePath] = true
		}
		if len(seen) != c.want {
			t.Errorf("%s: first page %v holds %d files, want %d", c.name, labels(r.Handles), len(seen), c.want)
		}
	}
}

// TestQualifiedNameFirst: a qualified name (Group.Do) names one
// definition; it must come first even when another file's path and many
// of its definitions hold the qualifier's word (a group.go full of
// groups), as in GOROOT/src, where internal/runtime/maps/group.go ranked
// above internal/singleflight's Group.Do.
func TestQualifiedNameFirst(t *testing.T) {
	var groups strings.Builder
	groups.WriteString("package maps\n\n// groupReference is a group of slots.\ntype groupReference struct{ data []byte }\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&groups, "// group%d does group work on a group.\nfunc (g groupReference) group%d() groupReference { return g }\n\n", i, i)
	}
	fmt.Fprintf(&groups, "// do does the group's work.\nfunc (g groupReference) do() {}\n")
	fx := buildFiles(t, map[string]string{
		"runtime/maps/group.go": groups.String(),
		"singleflight/singleflight.go": `package singleflight

// Group represents a class of work.
type Group struct{ m map[string]int }

// Do executes fn once per key.
func (g *Group) Do(key string, fn func() (any, error)) (any, error) { return fn() }
`,
	})
	for _, pattern := range []string{"Group.Do", "singleflight.Group.Do"} {
		r, err := fx.ix.Query(QueryParams{Pattern: pattern, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := labels(r.Handles)
		if len(got) == 0 || got[0] != "singleflight/singleflight.go::Group.Do" {
			t.Errorf("%q: ranking %v, want singleflight/singleflight.go::Group.Do first", pattern, got)
		}
	}
}
