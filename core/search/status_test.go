package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGlob(t *testing.T) {
	cases := []struct {
		glob string
		path string
		want bool
	}{
		{"*.go", "a/b/c.go", true},
		{"*.go", "a/b/c.gox", false},
		{"src/**/*.ts", "src/a.ts", true},
		{"src/**/*.ts", "src/x/y/a.ts", true},
		{"src/**/*.ts", "lib/a.ts", false},
		{"src/*.ts", "src/x/a.ts", false},
		{"**/test_*.py", "a/test_b.py", true},
		{"docs/**", "docs/a/b.md", true},
		{"{cmd,internal}/**/*.go", "internal/x/y.go", true},
		{"{cmd,internal}/**/*.go", "pkg/x/y.go", false},
		{"file?.txt", "file1.txt", true},
		{"file[0-9].txt", "file7.txt", true},
		{"file[!0-9].txt", "file7.txt", false},
		{"./auth/auth.py", "auth/auth.py", true},
		{"a+b(c).txt", "a+b(c).txt", true},
	}
	for _, c := range cases {
		g, err := compileGlob(c.glob)
		if err != nil {
			t.Errorf("%q: %v", c.glob, err)
			continue
		}
		if got := g.match(c.path); got != c.want {
			t.Errorf("glob %q on %q = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", "a[b", "{a,b", "a}"} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) accepted a bad glob", bad)
		}
	}
}

func TestStatusInvalidateIndex(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	st := fx.ix.Status()
	if st.FilesIndexed != len(fx.allFiles(t)) || st.TotalTokens <= 0 || st.Handles == 0 || st.Terms == 0 ||
		st.IndexSizeBytes <= 0 || st.SchemaVersion != SchemaVersion || st.RepoRoot != fx.dir || st.LastIndexed == "" ||
		st.Tokenizer != "cl100k_base" {
		t.Errorf("status %s", mustJSON(t, st))
	}
	// Change one file, delete another, leave the rest.
	fx.write(t, "auth/auth.py", strings.Replace(readFile(t, fx, "auth/auth.py"), "def login(req):", "def sign_in(req):", 1))
	if err := os.Remove(filepath.Join(fx.dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	rep, err := fx.ix.Invalidate("")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Reindexed, ",") != "auth/auth.py" || strings.Join(rep.Removed, ",") != "notes.txt" ||
		rep.Unchanged != rep.Checked-2 || len(rep.Unparsed) != 0 {
		t.Errorf("invalidate: %s", mustJSON(t, rep))
	}
	r, _ := fx.ix.Query(QueryParams{Symbol: "sign_in", Kind: "definition"}, nil)
	if len(r.Handles) != 1 {
		t.Errorf("after invalidate the renamed function is not found: %s", mustJSON(t, r))
	}
	if _, err := fx.ix.Invalidate("[bad"); err == nil {
		t.Error("Invalidate accepted a bad glob")
	}
	rep2, err := fx.ix.Invalidate("server/**")
	if err != nil || rep2.Checked != 2 || rep2.Unchanged != 2 {
		t.Errorf("invalidate server/**: %v %s", err, mustJSON(t, rep2))
	}
	ir, err := fx.ix.IndexGlob("**/*.py")
	if err != nil || ir.Matched != 2 || ir.AlreadyIndexed != 2 || ir.Indexed != 0 {
		t.Errorf("index glob: %v %s", err, mustJSON(t, ir))
	}
}

// TestFill: files handed over with Fill are indexed in the background; a
// query before that finishes still finds the files that contain its
// words, and IndexGlob indexes pending files on demand.
func TestFill(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := 0; i < 200; i++ {
		p := fmt.Sprintf("d%d/f%03d.txt", i%7, i)
		body := fmt.Sprintf("plain file %d\n", i)
		if i == 137 {
			body = "the needle is here\n"
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ix := NewWithOptions(Options{Root: dir})
	if err := New().Fill(paths); err == nil {
		t.Error("Fill without a reader should fail")
	}
	// Queue everything without starting the workers, so the query really
	// runs with every file pending.
	ix.fill.mu.Lock()
	for _, p := range paths {
		ix.fill.pending[p] = true
		ix.fill.queue = append(ix.fill.queue, p)
	}
	ix.fill.mu.Unlock()
	r, err := ix.Query(QueryParams{Pattern: "needle"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := labels(r.Handles); len(got) != 1 || got[0] != "d4/f137.txt::chunk" || r.PendingFiles != 199 || !strings.Contains(r.Note, "still being indexed") {
		t.Errorf("query during fill: %v pending %d note %q", got, r.PendingFiles, r.Note)
	}
	ir, err := ix.IndexGlob("d0/**")
	if err != nil || ir.Indexed != 29 || ir.Pending != 199-29 {
		t.Errorf("index glob: %v %s", err, mustJSON(t, ir))
	}
	ix.Prioritise("d1/f001.txt")
	if err := ix.Fill(nil); err != nil { // starts the workers
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ix.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if st := ix.Status(); st.FilesIndexed != 200 || st.PendingFiles != 0 {
		t.Errorf("after fill: %s", mustJSON(t, st))
	}
	// The index equals one built with Update.
	want := New()
	for _, p := range paths {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		want.Update(p, b, "", nil)
	}
	if a, b := dump(t, ix), dump(t, want); a != b {
		t.Errorf("filled index differs from an updated one:\n%s", firstDiff(b, a))
	}
}

// TestConcurrentQueriesAndUpdates runs queries while files are updated
// and filled (run with -race).
func TestConcurrentQueriesAndUpdates(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := 0; i < 60; i++ {
		p := fmt.Sprintf("f%02d.md", i)
		os.WriteFile(filepath.Join(dir, p), []byte(fmt.Sprintf("# Title %d\n\nshared words here %d\n", i, i)), 0o644)
		paths = append(paths, p)
	}
	ix := NewWithOptions(Options{Root: dir, Workers: 2})
	if err := ix.Fill(paths); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := NewSession()
			for i := 0; i < 40; i++ {
				switch i % 4 {
				case 0:
					ix.Query(QueryParams{Pattern: "shared words"}, nil)
				case 1:
					p, _ := ix.EvidencePack(PackRequest{QueryParams: QueryParams{Section: "Title"}}, s, nil)
					if p != nil && len(p.ExpandSuggestion) > 0 {
						ix.Expand(p.ExpandSuggestion, s, nil)
					}
				case 2:
					p := paths[(w*13+i)%len(paths)]
					ix.Update(p, []byte(fmt.Sprintf("# Changed %d\n\nother text %d\n", i, w)), "", nil)
				case 3:
					ix.Status()
				}
			}
		}(w)
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ix.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	dump(t, ix) // invariants hold
	if n := ix.Status().FilesIndexed; n != 60 {
		t.Errorf("%d files indexed, want 60", n)
	}
}

// TestLazyTokenCounts: counts computed on first display equal the counts
// computed at indexing time, and the status total becomes exact as file
// handles are shown.
func TestLazyTokenCounts(t *testing.T) {
	dir := unpack(t, "corpus.txtar")
	fx := build(t, dir)
	eager := NewWithOptions(Options{Root: dir, EagerTokens: true})
	for p, f := range fx.facts {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		eager.Update(p, b, f.Lang, f.Defs)
	}
	for _, p := range []string{"docs/README.md", "notes.txt", "go.mod"} {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		eager.Update(p, b, "", nil)
	}
	if st := fx.ix.Status(); st.TokensCounted != 0 {
		t.Errorf("lazy index counted %d files before showing any", st.TokensCounted)
	}
	st := eager.Status()
	if st.TokensCounted != st.FilesIndexed {
		t.Errorf("eager index: %d of %d files counted", st.TokensCounted, st.FilesIndexed)
	}
	eager.mu.RLock()
	want := map[string]int32{}
	for _, d := range eager.docs {
		if d.file != nil {
			want[d.id] = d.tokens
		}
	}
	eager.mu.RUnlock()
	shown := 0
	for _, q := range []string{`(grep "the")`, `(grep "server")`, `(grep "auth*")`, `(file "*")`, `(section "Shop")`, `(grep "line")`} {
		r, err := fx.ix.Query(QueryParams{Query: q, Limit: MaxLimit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range r.Handles {
			shown++
			if w, ok := want[h.ID]; !ok || int32(h.TokenCount) != w || w <= 0 {
				t.Errorf("%s %s: lazy %d tokens, eager %d", h.ID, labels([]Handle{h}), h.TokenCount, w)
			}
		}
	}
	if shown < 20 {
		t.Errorf("only %d handles shown", shown)
	}
	if got := fx.ix.Status(); got.TotalTokens != st.TotalTokens || got.TokensCounted != got.FilesIndexed {
		t.Errorf("after showing every file: lazy total %d (%d counted), eager %d", got.TotalTokens, got.TokensCounted, st.TotalTokens)
	}
}

func TestLowerASCII(t *testing.T) {
	in := []byte("Hello, WORLD! Ünïcode stays; az AZ @[`{")
	want := []byte("hello, world! Ünïcode stays; az az @[`{")
	if got := lowerASCII(nil, in); string(got) != string(want) {
		t.Errorf("lowerASCII = %q, want %q", got, want)
	}
}

func TestAddFiles(t *testing.T) {
	ix := New()
	err := ix.AddFiles([]File{
		{Path: "a.md", Content: []byte("# A\n\ntext\n")},
		{Path: "b.bin", Content: []byte("x\x00y")},
		{Path: "c.txt", Content: []byte("words\n")},
	})
	if err == nil || !strings.Contains(err.Error(), "1 of 3") || !ix.Has("a.md") || !ix.Has("c.txt") || ix.Has("b.bin") {
		t.Errorf("AddFiles: %v", err)
	}
}
