package workspace

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
)

// TestHeadReadWhenGitMoves: an edit of known files does not read
// .git/HEAD again; an update after a change under .git (GitChanged), a
// full update and a walk do.
func TestHeadReadWhenGitMoves(t *testing.T) {
	root := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ref := func(c byte) string { return strings.Repeat(string(c), 40) }
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".git/refs/heads/main", ref('a')+"\n")
	write("a.go", "package a\n\nfunc A() {}\n")
	w := Open(root, &Env{Config: config.Default(), Log: slog.New(slog.DiscardHandler), OneShot: true}, false)
	if err := w.Index(); err != nil {
		t.Fatal(err)
	}
	head := func() string { return w.Snapshot().Head }
	if head() != ref('a') {
		t.Fatalf("head after index %q", head())
	}
	n := 0
	edit := func(ch Changes) {
		n++
		write("a.go", "package a\n\nfunc A() {}\n"+strings.Repeat("\n// edit\n", n))
		ch.Since = time.Now()
		if _, err := w.Update(ch); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/refs/heads/main", ref('b')+"\n") // a commit: HEAD itself unchanged
	edit(Changes{Paths: []string{"a.go"}, Fast: true})
	if head() != ref('a') {
		t.Errorf("an edit read HEAD again: %q", head())
	}
	w.GitChanged()
	edit(Changes{Paths: []string{"a.go"}, Fast: true})
	if head() != ref('b') {
		t.Errorf("after GitChanged: head %q", head())
	}
	write(".git/refs/heads/main", ref('c')+"\n")
	edit(Changes{Full: true})
	if head() != ref('c') {
		t.Errorf("after a full update: head %q", head())
	}
	write(".git/refs/heads/main", ref('d')+"\n")
	edit(Changes{}) // a walk, as polling does
	if head() != ref('d') {
		t.Errorf("after a walk: head %q", head())
	}
}
