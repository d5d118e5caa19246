package search

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

func TestHandleIDShape(t *testing.T) {
	id := HandleID("a/b.go", TypeFunction, "F", 0)
	if !ValidID(id) {
		t.Fatalf("HandleID = %q, not h + 24 hex", id)
	}
	cases := []struct {
		name string
		a, b string
		same bool
	}{
		{"function and method share the code group", HandleID("a.go", TypeFunction, "F", 0), HandleID("a.go", TypeMethod, "F", 0), true},
		{"class and struct share the code group", HandleID("a.go", TypeClass, "T", 0), HandleID("a.go", TypeStruct, "T", 0), true},
		{"path matters", HandleID("a.go", TypeFunction, "F", 0), HandleID("b.go", TypeFunction, "F", 0), false},
		{"name matters", HandleID("a.go", TypeFunction, "F", 0), HandleID("a.go", TypeFunction, "G", 0), false},
		{"ordinal matters", HandleID("a.go", TypeChunk, "", 0), HandleID("a.go", TypeChunk, "", 1), false},
		{"group matters", HandleID("a.md", TypeSection, "X", 0), HandleID("a.md", TypeParagraph, "X", 0), false},
	}
	for _, c := range cases {
		if (c.a == c.b) != c.same {
			t.Errorf("%s: %s vs %s, want same=%v", c.name, c.a, c.b, c.same)
		}
	}
	for _, bad := range []string{"", "h123", "x" + id[1:], id + "0", "h" + strings.Repeat("G", 24)} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

// TestIDStability edits a file above a function (same id, new lines) and
// renames it (new id).
func TestIDStability(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	before := fx.handleFor(t, "server/server.go", "Server.Handle")
	orig := readFile(t, fx, "server/server.go")
	cases := []struct {
		name    string
		content string
		key     string
		sameID  bool
		shift   int
	}{
		{"lines inserted above", strings.Replace(orig, "import \"net/http\"\n", "import \"net/http\"\n\n// a\n// b\nvar x = 1\n", 1), "Server.Handle", true, 4},
		{"function above edited", strings.Replace(orig, "s.mux.ServeHTTP(w, r)", "if r == nil {\n\t\treturn\n\t}\n\ts.mux.ServeHTTP(w, r)", 1), "Server.Handle", true, 3},
		{"body edited", strings.Replace(orig, "s.mux.Handle(pattern, h)", "s.mux.Handle(pattern, h) // edited", 1), "Server.Handle", true, 0},
		{"renamed", strings.Replace(orig, "func (s *Server) Handle(", "func (s *Server) Register(", 1), "Server.Register", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx.write(t, "server/server.go", c.content)
			fx.reindexFile(t, "server/server.go")
			after := fx.handleFor(t, "server/server.go", c.key)
			if (after.ID == before.ID) != c.sameID {
				t.Errorf("id %s → %s, want same=%v", before.ID, after.ID, c.sameID)
			}
			if c.sameID && after.LineRange[0] != before.LineRange[0]+c.shift {
				t.Errorf("line range %v → %v, want a shift of %d", before.LineRange, after.LineRange, c.shift)
			}
			if fx.ix.idExists(before.ID) != c.sameID {
				t.Errorf("old id %s exists: %v, want %v", before.ID, !c.sameID, c.sameID)
			}
		})
	}
}

func (ix *Index) idExists(id string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	_, ok := ix.byID[id]
	return ok
}

func readFile(t testing.TB, fx *fixture, p string) string {
	t.Helper()
	b, err := fx.ix.opts.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docsOf lists a file's handles as "type key lines" strings.
func docsOf(ix *Index, p string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []string
	f := ix.files[p]
	if f == nil {
		return nil
	}
	for _, n := range f.docs {
		d := &ix.docs[n]
		out = append(out, strings.TrimSpace(strings.Join([]string{d.typ.String(), d.key, strconv.Itoa(d.lineA) + "-" + strconv.Itoa(d.lineB)}, " ")))
	}
	return out
}

func TestCodeHandles(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	cases := []struct {
		path string
		want []string
	}{
		{"server/server.go", []string{
			"file  1-26",
			"struct Server 5-9",
			"function NewServer 11-14",
			"method Server.ServeHTTP 16-19",
			"method Server.Handle 21-24",
			"chunk gap:^ 1-3",
			"chunk gap:Server.Handle 26-26",
		}},
		{"auth/auth.py", []string{
			"file  1-17",
			"class AuthController 4-12",
			"method AuthController.authenticate 7-9",
			"method AuthController.validate 11-12",
			"function login 15-17",
			`chunk gap:^ 1-1`,
		}},
	}
	for _, c := range cases {
		got := docsOf(fx.ix, c.path)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s handles:\n%s\nwant:\n%s", c.path, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	// A class's body leaves out its methods: "startswith" only occurs in
	// validate, so the class must not match it.
	r, err := fx.ix.Query(QueryParams{Pattern: "startswith"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := labels(r.Handles); len(got) != 1 || got[0] != "auth/auth.py::AuthController.validate" {
		t.Errorf("startswith matched %v, want only AuthController.validate", got)
	}
	// The comment above a definition belongs to its handle, the preview
	// starts at the definition.
	h := fx.handleFor(t, "server/server.go", "Server.ServeHTTP")
	if !strings.HasPrefix(h.Preview, "func (s *Server) ServeHTTP(") {
		t.Errorf("preview %q should start at the signature", h.Preview)
	}
}

func TestBadDefinitionsAreSkipped(t *testing.T) {
	ix := New()
	content := []byte("package p\n\nfunc A() {}\n")
	defs := []facts.Def{
		{Name: "A", Qual: "A", Kind: facts.Func, Parent: -1, StartByte: 11, EndByte: 22, StartLine: 3, EndLine: 3},
		{Name: "Bad", Qual: "Bad", Kind: facts.Func, Parent: 7, StartByte: 5, EndByte: 999},
		{Name: "Neg", Qual: "Neg", Kind: facts.Func, Parent: -1, StartByte: -3, EndByte: 2},
		{Name: "Empty", Qual: "Empty", Kind: facts.Func, Parent: -1, StartByte: 4, EndByte: 4},
	}
	if err := ix.Update("p.go", content, "go", defs); err != nil {
		t.Fatal(err)
	}
	got := docsOf(ix, "p.go")
	want := []string{"file  1-3", "function A 3-3", "chunk gap:^ 1-1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("handles %q, want %q", got, want)
	}
	if err := ix.Update("bin.dat", []byte("a\x00b"), "", nil); err == nil || ix.Has("bin.dat") {
		t.Errorf("binary content: err %v, indexed %v", err, ix.Has("bin.dat"))
	}
	for _, p := range []string{"", "/abs/x", "../up.go"} {
		if err := ix.Update(p, content, "", nil); err == nil {
			t.Errorf("Update(%q) accepted a bad path", p)
		}
	}
}

func TestMarkdownHandles(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	want := []string{
		"file  1-24",
		"section Shop 1-24",
		"paragraph Shop#p 3-3",
		"section Shop > Installation 5-15",
		"paragraph Shop > Installation#p 7-7",
		"section Shop > Installation > Linux 9-15",
		"code_block Shop > Installation > Linux#code 11-13",
		"paragraph Shop > Installation > Linux#p 15-15",
		"section Shop > Usage 17-20",
		"paragraph Shop > Usage#p 19-20",
		"section Shop > Installation notes 22-24",
		"paragraph Shop > Installation notes#p 24-24",
	}
	got := docsOf(fx.ix, "docs/README.md")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README handles:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cases := []struct {
		name, src string
		want      []string
	}{
		{"setext and front matter", "---\ntitle: x\n---\nTitle\n=====\n\ntext\n\nSub\n---\nmore\n", []string{
			"file  1-11", "code_block #frontmatter 1-3", "section Title 4-11", "paragraph Title#p 7-7",
			"section Title > Sub 9-11", "paragraph Title > Sub#p 11-11"}},
		{"unclosed fence runs to the end", "# A\n```\ncode\n", []string{"file  1-3", "section A 1-3", "code_block A#code 2-3"}},
		{"hashes in code are not headings", "```\n# not a heading\n```\n", []string{"file  1-3", "code_block #code 1-3"}},
		{"duplicate headings get ordinals", "# A\n## B\nx\n## B\ny\n", []string{"file  1-5", "section A 1-5", "section A > B 2-3",
			"paragraph A > B#p 3-3", "section A > B 4-5", "paragraph A > B#p 5-5"}},
	}
	for _, c := range cases {
		ix := New()
		if err := ix.Update("x.md", []byte(c.src), "", nil); err != nil {
			t.Fatal(err)
		}
		if got := docsOf(ix, "x.md"); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	// Duplicate headings have distinct ids.
	ix := New()
	ix.Update("x.md", []byte("# A\n## B\nx\n## B\ny\n"), "", nil)
	ix.mu.RLock()
	if len(ix.byID) != 6 {
		t.Errorf("%d ids for 6 handles", len(ix.byID))
	}
	ix.mu.RUnlock()
}

func TestTextChunks(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	want := []string{"file  1-120", "chunk  1-50", "chunk  41-90", "chunk  81-120"}
	if got := docsOf(fx.ix, "notes.txt"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("notes.txt handles %q, want %q", got, want)
	}
	ix := New()
	ix.Update("blank.txt", []byte("\n\n  \n"), "", nil)
	if got := docsOf(ix, "blank.txt"); len(got) != 1 {
		t.Errorf("blank file handles %q, want only the file handle", got)
	}
}

func TestPreview(t *testing.T) {
	cases := []struct{ in, want string }{
		{"func F() {\n\treturn 1\n}\n", "func F() { return 1 }"},
		{"   lots   of\n\n\tspace   ", "lots of space"},
		{strings.Repeat("a", 150), strings.Repeat("a", 100) + "..."},
		{strings.Repeat("é", 60), strings.Repeat("é", 50) + "..."},
		{"", ""},
	}
	for _, c := range cases {
		if got := preview([]byte(c.in)); got != c.want {
			t.Errorf("preview(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestUnchangedUpdateIsNoop: re-indexing identical content and definitions
// changes nothing (not even the generation); new definitions for the same
// content rebuild the handles.
func TestUnchangedUpdateIsNoop(t *testing.T) {
	ix := New()
	src := []byte("def f():\n    return 1\n")
	defs := defsPy("f", 0, len(src), 1, 2)
	ix.Update("a.py", src, "python", defs)
	g := ix.Generation()
	ix.Update("a.py", append([]byte(nil), src...), "python", defsPy("f", 0, len(src), 1, 2))
	if ix.Generation() != g {
		t.Errorf("identical update bumped the generation %d → %d", g, ix.Generation())
	}
	ix.Update("a.py", src, "python", defsPy("g", 0, len(src), 1, 2))
	if ix.Generation() == g || len(docsOf(ix, "a.py")) != 2 || docsOf(ix, "a.py")[1] != "function g 1-2" {
		t.Errorf("new definitions were not indexed: %v", docsOf(ix, "a.py"))
	}
}
