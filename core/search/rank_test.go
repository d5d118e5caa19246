package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// TestRanking checks the order BM25F with field boosts gives on the
// fixture: definitions beat mentions, names beat bodies.
func TestRanking(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	cases := []struct {
		pattern string
		first   string // label of the best handle
		before  [][2]string
	}{
		// router.go's route mentions ServeHTTP seven times; the method
		// named ServeHTTP must still win.
		{"ServeHTTP", "server/server.go::Server.ServeHTTP", [][2]string{{"server/server.go::Server.ServeHTTP", "server/router.go::route"}}},
		{"serveHttp", "server/server.go::Server.ServeHTTP", nil},
		// A part of a camelCase name is found through the split.
		{"serve http", "server/server.go::Server.ServeHTTP", nil},
		{"authenticate", "auth/auth.py::AuthController.authenticate", [][2]string{
			{"auth/auth.py::AuthController.authenticate", "auth/auth.py::login"},
			{"auth/auth.py::AuthController.authenticate", "auth/routes.py::handle_login"}}},
		{"handle_login", "auth/routes.py::handle_login", nil},
		{"Installation", "docs/README.md::Shop > Installation", [][2]string{{"docs/README.md::Shop > Installation", "docs/README.md::Shop > Installation > Linux"}, {"docs/README.md::Shop > Installation notes", "docs/README.md::paragraph"}}},
		{"config", "server/router.go::Config", [][2]string{{"server/router.go::Config", "server/router.go::listen"}}},
		{"quartermaster", "notes.txt::chunk", nil},
		{"author*", "auth/auth.py::AuthController.authenticate", nil},
	}
	for _, c := range cases {
		r, err := fx.ix.Query(QueryParams{Pattern: c.pattern, Limit: 50}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := labels(r.Handles)
		if len(got) == 0 || got[0] != c.first {
			t.Errorf("%q: ranking %v, want %s first", c.pattern, got, c.first)
			continue
		}
		for _, pair := range c.before {
			a, b := indexOf(got, pair[0]), indexOf(got, pair[1])
			if a < 0 || b < 0 || a > b {
				t.Errorf("%q: want %s (at %d) before %s (at %d) in %v", c.pattern, pair[0], a, pair[1], b, got)
			}
		}
	}
}

// TestRankingOnCorpus: a synthetic corpus where one file defines parseToken
// and many files mention it in bodies; the definition must be first, and
// the file mentioning it most must beat files mentioning it once.
func TestRankingOnCorpus(t *testing.T) {
	ix := New()
	ix.Update("lex/lex.py", []byte("def parse_token(s):\n    return s.split()\n"), "python", defsPy("parse_token", 0, 41, 1, 2))
	for i := 0; i < 20; i++ {
		body := fmt.Sprintf("def user%d(x):\n    return parse_token(x)\n", i)
		if i == 7 {
			body = "def user7(x):\n    a = parse_token(x)\n    b = parse_token(a)\n    return parse_token(b)\n"
		}
		ix.Update(fmt.Sprintf("use/u%d.py", i), []byte(body), "python", defsPy(fmt.Sprintf("user%d", i), 0, len(body), 1, strings.Count(body, "\n")))
	}
	r, err := ix.Query(QueryParams{Pattern: "parse_token", Limit: 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := labels(r.Handles)
	if r.TotalMatches != 21 || got[0] != "lex/lex.py::parse_token" || got[1] != "use/u7.py::user7" {
		t.Errorf("total %d, ranking %v", r.TotalMatches, got)
	}
}

func TestTotalsAndTruncation(t *testing.T) {
	ix := New()
	for i := 0; i < 30; i++ {
		ix.Update(fmt.Sprintf("f%02d.txt", i), []byte("widget appears here\n"), "", nil)
	}
	cases := []struct {
		limit, want int
		trunc       bool
	}{{0, 16, true}, {5, 5, true}, {30, 30, false}, {100, 30, false}}
	for _, c := range cases {
		r, err := ix.Query(QueryParams{Pattern: "widget", Limit: c.limit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Handles) != c.want || r.TotalMatches != 30 || r.Truncated != c.trunc {
			t.Errorf("limit %d: %d handles, total %d, truncated %v; want %d, 30, %v", c.limit, len(r.Handles), r.TotalMatches, r.Truncated, c.want, c.trunc)
		}
		sum := 0
		for _, h := range r.Handles {
			sum += h.TokenCount
		}
		if sum != r.TotalTokens || sum == 0 {
			t.Errorf("total_tokens %d, handles sum to %d", r.TotalTokens, sum)
		}
	}
}

// TestRankTopK: the bounded heap selects exactly the first k of a full
// sort, ties included.
func TestRankTopK(t *testing.T) {
	ix := New()
	for i := 0; i < 40; i++ {
		ix.Update(fmt.Sprintf("f%02d.txt", i), []byte(strings.Repeat("word ", i%5+1)+"\n"), "", nil)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	h, _ := ix.textHits("word", allFields, nil)
	full := ix.rank(h, 0)
	if len(full) != 40 {
		t.Fatalf("%d matches", len(full))
	}
	for _, k := range []int{1, 3, 7, 16, 39, 40, 100} {
		got := ix.rank(h, k)
		want := full[:min(k, len(full))]
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("k=%d: %v, want %v", k, got, want)
		}
	}
}

// TestNameWithStopWords: a pattern without spaces is a name, so its
// words count even when a question would drop them as function words
// (errors.Is, Client.Do): the definition comes first, above files that
// only hold the other word.
func TestNameWithStopWords(t *testing.T) {
	ix := New()
	def := func(path, src, name string) {
		t.Helper()
		start := strings.Index(src, "func ")
		ds := []facts.Def{{Name: name, Qual: name, Kind: facts.Func, Parent: -1, StartByte: start, EndByte: len(src), StartLine: 3, EndLine: strings.Count(src, "\n")}}
		if err := ix.Update(path, []byte(src), "go", ds); err != nil {
			t.Fatal(err)
		}
	}
	def("errors/wrap.go", "package errors\n\nfunc Is(err, target error) bool {\n\treturn err == target\n}\n", "Is")
	def("errors/as.go", "package errors\n\nfunc As(err error, target any) bool {\n\treturn false\n}\n", "As")
	def("client/client.go", "package client\n\nfunc Do(req string) string {\n\treturn req\n}\n", "Do")
	for i := range 12 {
		def(fmt.Sprintf("util/errors%d.go", i), fmt.Sprintf("package util\n\nfunc Errors%d(errors []error) []error {\n\t// errors errors errors\n\treturn errors\n}\n", i), fmt.Sprintf("Errors%d", i))
	}
	cases := []struct{ pattern, first string }{
		{"errors.Is", "errors/wrap.go"},
		{"errors.As", "errors/as.go"},
		{"client.Do", "client/client.go"},
	}
	for _, c := range cases {
		r, err := ix.Query(QueryParams{Pattern: c.pattern, Limit: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Handles) == 0 || r.Handles[0].FilePath != c.first {
			t.Errorf("%q: first %v, want %s", c.pattern, labels(r.Handles), c.first)
		}
	}
}
