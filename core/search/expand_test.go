package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	a := fx.handleFor(t, "auth/auth.py", "AuthController.validate")
	b := fx.handleFor(t, "docs/README.md", "Shop > Usage")
	unknown := HandleID("nowhere.go", TypeFunction, "X", 0)
	r := fx.ix.Expand([]string{a.ID, b.ID, a.ID, unknown, "not-an-id"}, nil, nil)
	if len(r.Contents) != 2 || strings.Join(r.ExpandedHandleIDs, ",") != a.ID+","+b.ID {
		t.Fatalf("contents: %s", mustJSON(t, r))
	}
	src := readFile(t, fx, "auth/auth.py")
	if r.Contents[0].Content != src[a.Span.Start:a.Span.End] || !strings.HasPrefix(r.Contents[0].Content, "    def validate(self, token):") {
		t.Errorf("content %q", r.Contents[0].Content)
	}
	if r.Contents[0].TokenCount != a.TokenCount || r.TotalTokens != a.TokenCount+b.TokenCount || r.Contents[0].Changed {
		t.Errorf("tokens %d (handle %d), total %d, changed %v", r.Contents[0].TokenCount, a.TokenCount, r.TotalTokens, r.Contents[0].Changed)
	}
	if len(r.Failed) != 2 || r.Failed[0].HandleID != unknown || r.Failed[0].Code != CodeHandleNotFound ||
		r.Failed[1].Code != CodeHandleNotFound || !strings.Contains(r.Failed[1].Reason, "24 hex") {
		t.Errorf("failures: %s", mustJSON(t, r.Failed))
	}
	text := r.Text()
	if !strings.HasPrefix(text, "// "+a.ID+" auth/auth.py:11-12 method, 19 tokens\n    def validate") ||
		!strings.Contains(text, "\n// "+b.ID+" docs/README.md:17-20 section, 16 tokens\n## Usage") ||
		!strings.Contains(text, "// "+unknown+": HandleNotFound") {
		t.Errorf("text form:\n%s", text)
	}
}

// TestExpandStale covers handles whose file changed after they were issued.
func TestExpandStale(t *testing.T) {
	t.Run("edited on disk, re-resolved by qualified name", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		h := fx.handleFor(t, "server/server.go", "Server.Handle")
		src := readFile(t, fx, "server/server.go")
		fx.write(t, "server/server.go", strings.Replace(src, "import \"net/http\"\n", "import \"net/http\"\n\nvar added = 1\n", 1)+"\n")
		fx.write(t, "server/server.go", strings.Replace(readFile(t, fx, "server/server.go"), "s.mux.Handle(pattern, h)", "s.mux.Handle(pattern, h) // new", 1))
		r := fx.ix.Expand([]string{h.ID}, nil, nil)
		if len(r.Contents) != 1 {
			t.Fatalf("%s", mustJSON(t, r))
		}
		c := r.Contents[0]
		if !c.Changed || !strings.Contains(c.Content, "// new") || c.LineRange[0] != h.LineRange[0]+2 || c.Note == "" {
			t.Errorf("re-resolved content: %s", mustJSON(t, c))
		}
	})
	t.Run("renamed on disk: stale with the fresh handle", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		h := fx.handleFor(t, "server/server.go", "Server.Handle")
		fx.write(t, "server/server.go", strings.Replace(readFile(t, fx, "server/server.go"), ") Handle(", ") Register(", 1))
		r := fx.ix.Expand([]string{h.ID}, nil, nil)
		if len(r.Failed) != 1 || r.Failed[0].Code != CodeStaleIndex || r.Failed[0].Fresh == nil || r.Failed[0].Fresh.Symbol != "Server.Register" {
			t.Errorf("%s", mustJSON(t, r))
		}
	})
	t.Run("file deleted", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		h := fx.handleFor(t, "auth/routes.py", "handle_login")
		if err := os.Remove(filepath.Join(fx.dir, "auth/routes.py")); err != nil {
			t.Fatal(err)
		}
		r := fx.ix.Expand([]string{h.ID}, nil, nil)
		if len(r.Failed) != 1 || r.Failed[0].Code != CodeStaleIndex || !strings.Contains(r.Failed[0].Reason, "removed") || fx.ix.Has("auth/routes.py") {
			t.Errorf("%s", mustJSON(t, r))
		}
	})
	t.Run("code changed without a parser", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		ix := NewWithOptions(Options{Root: fx.dir})
		src := readFile(t, fx, "auth/auth.py")
		f := fx.facts["auth/auth.py"]
		ix.Update("auth/auth.py", []byte(src), f.Lang, f.Defs)
		var id string
		ix.mu.RLock()
		for _, n := range ix.files["auth/auth.py"].docs {
			if ix.docs[n].key == "login" {
				id = ix.docs[n].id
			}
		}
		ix.mu.RUnlock()
		fx.write(t, "auth/auth.py", "# moved\n"+src)
		r := ix.Expand([]string{id}, nil, nil)
		if len(r.Failed) != 1 || r.Failed[0].Code != CodeStaleIndex || !strings.Contains(r.Failed[0].Reason, "invalidate") {
			t.Errorf("%s", mustJSON(t, r))
		}
	})
	t.Run("markdown changed without a parser", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		ix := NewWithOptions(Options{Root: fx.dir})
		src := readFile(t, fx, "docs/README.md")
		ix.Update("docs/README.md", []byte(src), "", nil)
		id := HandleID("docs/README.md", TypeSection, "Shop > Usage", 0)
		fx.write(t, "docs/README.md", strings.Replace(src, "# Shop\n", "# Shop\n\nIntro line.\n", 1))
		r := ix.Expand([]string{id}, nil, nil)
		if len(r.Contents) != 1 || !r.Contents[0].Changed || !strings.HasPrefix(r.Contents[0].Content, "## Usage") {
			t.Errorf("%s", mustJSON(t, r))
		}
	})
	t.Run("changed since issued in the session", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		s := NewSession()
		p, err := fx.ix.EvidencePack(PackRequest{QueryParams: QueryParams{Symbol: "login", Kind: "definition"}}, s, nil)
		if err != nil || len(p.Handles) != 1 {
			t.Fatalf("%v %v", err, p)
		}
		fx.write(t, "auth/auth.py", strings.Replace(readFile(t, fx, "auth/auth.py"), "controller.authenticate(req)", "controller.authenticate(req)  # checked", 1))
		fx.reindexFile(t, "auth/auth.py") // the watcher caught up
		r := fx.ix.Expand([]string{p.Handles[0].ID}, s, nil)
		if len(r.Contents) != 1 || !r.Contents[0].Changed || !strings.Contains(r.Contents[0].Content, "# checked") {
			t.Errorf("%s", mustJSON(t, r))
		}
	})
}

func TestExpandWithoutReader(t *testing.T) {
	ix := New()
	ix.Update("a.txt", []byte("hello\n"), "", nil)
	id := HandleID("a.txt", TypeChunk, "", 0)
	r := ix.Expand([]string{id}, nil, nil)
	if len(r.Failed) != 1 || r.Failed[0].Code != CodeNoReader {
		t.Errorf("%s", mustJSON(t, r))
	}
	r = ix.Expand([]string{id}, nil, func(string) ([]byte, error) { return []byte("hello\n"), nil })
	if len(r.Contents) != 1 || r.Contents[0].Content != "hello\n" {
		t.Errorf("%s", mustJSON(t, r))
	}
}

// TestQueriesNeverServeStaleResults: files changed on disk behind the
// index's back are re-indexed before an answer uses them; what cannot be
// re-indexed is reported.
func TestQueriesNeverServeStaleResults(t *testing.T) {
	t.Run("re-indexed with the parser", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		fx.write(t, "server/server.go", strings.Replace(readFile(t, fx, "server/server.go"), ") Handle(", ") Register(", 1))
		r, err := fx.ix.Query(QueryParams{Parent: "Server"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := labels(r.Handles)
		if contains(got, "server/server.go::Server.Handle") || !contains(got, "server/server.go::Server.Register") ||
			!strings.Contains(r.Note, "re-indexed 1 file") || len(r.StaleFiles) != 0 {
			t.Errorf("%v note %q stale %v", got, r.Note, r.StaleFiles)
		}
		p, err := fx.ix.EvidencePack(PackRequest{QueryParams: QueryParams{Pattern: "quartermaster"}}, nil, nil)
		if err != nil || len(p.Handles) != 1 {
			t.Fatalf("%v %v", err, p)
		}
		fx.write(t, "notes.txt", "nothing here any more\n")
		p, err = fx.ix.EvidencePack(PackRequest{QueryParams: QueryParams{Pattern: "quartermaster"}}, nil, nil)
		if err != nil || len(p.Handles) != 0 || !strings.Contains(p.Note, "re-indexed") {
			t.Errorf("pack after the text changed: %v %s", err, mustJSON(t, p))
		}
	})
	t.Run("deleted files drop out", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		if err := os.Remove(filepath.Join(fx.dir, "auth/routes.py")); err != nil {
			t.Fatal(err)
		}
		r, err := fx.ix.Query(QueryParams{Pattern: "authenticate"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if hasPrefix(labels(r.Handles), "auth/routes.py") || fx.ix.Has("auth/routes.py") {
			t.Errorf("deleted file still answered: %v", labels(r.Handles))
		}
	})
	t.Run("code without a parser is reported", func(t *testing.T) {
		fx := build(t, unpack(t, "corpus.txtar"))
		ix := NewWithOptions(Options{Root: fx.dir})
		f := fx.facts["auth/auth.py"]
		ix.Update("auth/auth.py", []byte(readFile(t, fx, "auth/auth.py")), f.Lang, f.Defs)
		fx.write(t, "auth/auth.py", "# edited\n"+readFile(t, fx, "auth/auth.py"))
		r, err := ix.Query(QueryParams{Symbol: "login"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.StaleFiles) != 1 || r.StaleFiles[0] != "auth/auth.py" || !strings.Contains(r.Note, "invalidate") {
			t.Errorf("stale not reported: %s", mustJSON(t, r))
		}
	})
}
