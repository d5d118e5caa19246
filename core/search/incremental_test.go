package search

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/parse"
)

// parser parses single files for tests (tree-sitter parsers are not safe
// for concurrent use, hence the lock).
type parser struct {
	mu sync.Mutex
	p  *parse.Parser
}

func newParser(t testing.TB) *parser {
	reg, err := parse.Default()
	if err != nil {
		t.Fatal(err)
	}
	p := reg.NewParser()
	t.Cleanup(p.Close)
	return &parser{p: p}
}

// parse returns the language and definitions of a file's content.
func (ps *parser) parse(p string, content []byte) (string, []facts.Def, error) {
	l := config.LanguageFor(p)
	if l == nil {
		return "", nil, nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	f, err := ps.p.Parse(p, l.Name, content)
	if err != nil {
		return "", nil, err
	}
	return f.Lang, f.Defs, nil
}

// indexTree builds a fresh index of every file under dir.
func indexTree(t testing.TB, dir string, ps *parser) *Index {
	t.Helper()
	ix := New()
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lang, defs, err := ps.parse(rel, b)
		if err != nil {
			return err
		}
		return ix.Update(filepath.ToSlash(rel), b, lang, defs)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestIncrementalEqualsFreshBuild applies random edits (insert lines above
// definitions, rename functions, delete and add files, rewrite Markdown
// and text) to a workspace, updating the index file by file, and checks
// after every step that it equals a fresh build of the same files: no
// orphan handles, postings or terms survive.
func TestIncrementalEqualsFreshBuild(t *testing.T) {
	dir := unpack(t, "corpus.txtar")
	ps := newParser(t)
	ix := indexTree(t, dir, ps)
	rng := rand.New(rand.NewSource(7))
	files := []string{"server/server.go", "server/router.go", "auth/auth.py", "auth/routes.py", "docs/README.md", "notes.txt"}
	words := []string{"alpha", "betaGamma", "delta_epsilon", "ServeHTTP", "authenticate", "zeta", "Eta9"}
	write := func(p, s string) {
		abs := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return ""
		}
		return string(b)
	}
	sync := func(p string) {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			ix.Remove(p)
			return
		}
		lang, defs, err := ps.parse(p, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := ix.Update(p, b, lang, defs); err != nil {
			t.Fatal(err)
		}
	}
	const steps = 60
	for step := 0; step < steps; step++ {
		p := files[rng.Intn(len(files))]
		w := words[rng.Intn(len(words))]
		s := read(p)
		var what string
		switch op := rng.Intn(6); {
		case s == "" || op == 0:
			what = "add"
			switch {
			case strings.HasSuffix(p, ".go"):
				s = fmt.Sprintf("package server\n\n// %s is new.\nfunc %s%d() int { return %d }\n", w, strings.ToUpper(w[:1])+w[1:], step, step)
			case strings.HasSuffix(p, ".py"):
				s = fmt.Sprintf("def %s_%d():\n    return %q\n", strings.ToLower(w), step, w)
			case strings.HasSuffix(p, ".md"):
				s = fmt.Sprintf("# %s\n\nAbout %s.\n\n## More %d\n\n```go\nx := %d\n```\n", w, w, step, step)
			default:
				s = strings.Repeat(w+" filler line\n", 20+step)
			}
		case op == 1:
			what = "delete"
			if err := os.Remove(filepath.Join(dir, p)); err != nil {
				t.Fatal(err)
			}
			s = ""
		case op == 2:
			what = "insert above"
			s = "// " + w + " inserted\n" + s
			if strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".txt") {
				s = "# " + w + " inserted\n" + read(p)
			}
			if strings.HasSuffix(p, ".go") {
				s = strings.Replace(read(p), "\n", "\n// "+w+" inserted\n", 1)
			}
		case op == 3:
			what = "rename"
			for _, old := range []string{"NewServer", "Handle", "route", "listen", "authenticate", "validate", "login", "handle_login", "Installation", "Usage", "filler"} {
				if strings.Contains(s, old) {
					s = strings.ReplaceAll(s, old, old+w)
					break
				}
			}
		case op == 4:
			what = "append"
			s += fmt.Sprintf("\n// %s appended %d\n", w, step)
			if strings.HasSuffix(p, ".py") {
				s = read(p) + fmt.Sprintf("\n\ndef extra_%d(%s):\n    return %s\n", step, strings.ToLower(w), strings.ToLower(w))
			}
		default:
			what = "new file"
			p = fmt.Sprintf("gen/f%d.py", rng.Intn(4))
			s = fmt.Sprintf("class %sGen%d:\n    def run(self):\n        return %d\n", strings.ToUpper(w[:1])+w[1:], step, step)
			if !contains(files, p) {
				files = append(files, p)
			}
		}
		if s != "" {
			write(p, s)
		}
		sync(p)
		got := dump(t, ix)
		want := dump(t, indexTree(t, dir, ps))
		if got != want {
			t.Fatalf("step %d (%s %s): incremental index differs from a fresh build:\n%s", step, what, p, firstDiff(want, got))
		}
	}
	// Removing everything leaves nothing behind.
	for _, p := range files {
		ix.Remove(p)
	}
	for _, p := range []string{"go.mod"} {
		ix.Remove(p)
	}
	ix.mu.RLock()
	n, terms, names := len(ix.byID), len(ix.dict), len(ix.byName)
	ix.mu.RUnlock()
	dump(t, ix)
	if n != 0 || terms != 0 || names != 0 {
		t.Errorf("after removing every file: %d handles, %d terms, %d names remain", n, terms, names)
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d\nfresh:       %s\nincremental: %s", i+1, w, g)
		}
	}
	return "(no difference)"
}
