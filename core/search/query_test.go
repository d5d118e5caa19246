package search

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// TestDSLOperators runs every operator of the query language on the
// fixture.
func TestDSLOperators(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	refs := GraphRefs(fx.res.Graph)
	cases := []struct {
		expr  string
		want  []string // exact set of handle labels (order-insensitive)
		first string   // optional: the best handle
		refs  []string // optional: "path:line type name" of ref handles
	}{
		{expr: `(grep "ServeHTTP")`, want: []string{"server/router.go::route", "server/server.go::Server.ServeHTTP"}, first: "server/server.go::Server.ServeHTTP"},
		{expr: `(code "Serve")`, first: "server/server.go::Server.ServeHTTP", want: []string{"server/server.go::Server.ServeHTTP", "server/server.go::Server", "server/server.go::NewServer"}},
		{expr: `(code "auth")`, first: "auth/auth.py::AuthController", want: []string{"auth/auth.py::AuthController", "auth/auth.py::AuthController.authenticate"}},
		{expr: `(definition "ServeHTTP")`, want: []string{"server/server.go::Server.ServeHTTP"}},
		{expr: `(definition "Server.Handle")`, want: []string{"server/server.go::Server.Handle"}},
		{expr: `(definition "server/server.go::Server.Handle")`, want: []string{"server/server.go::Server.Handle"}},
		{expr: `(definition "authcontroller")`, want: []string{"auth/auth.py::AuthController"}},
		{expr: `(references "authenticate")`, want: []string{"auth/auth.py::login", "auth/routes.py::handle_login"},
			refs: []string{"auth/auth.py:17 call authenticate", "auth/routes.py:6 call authenticate"}},
		{expr: `(references "Config")`, want: []string{"server/router.go::listen"}, refs: []string{"server/router.go:12 type_ref Config"}},
		{expr: `(references "auth/auth.py")`, want: []string{"auth/routes.py::chunk"}, refs: []string{"auth/routes.py:1 import auth/auth.py"}},
		{expr: `(section "Usage")`, want: []string{"docs/README.md::Shop > Usage"}},
		{expr: `(file "notes.txt")`, want: []string{"notes.txt::file"}},
		{expr: `(file "*.md")`, want: []string{"docs/README.md::file"}},
		{expr: `(children "AuthController")`, want: []string{"auth/auth.py::AuthController.authenticate", "auth/auth.py::AuthController.validate"}},
		{expr: `(children "Server")`, want: []string{"server/server.go::Server.Handle", "server/server.go::Server.ServeHTTP"}},
		{expr: `(children "Linux")`, want: []string{"docs/README.md::code_block", "docs/README.md::paragraph"}},
		{expr: `(children-named "AuthController" "validate")`, want: []string{"auth/auth.py::AuthController.validate"}},
		{expr: `(in-file "auth/**" (grep "authenticate"))`, want: []string{"auth/auth.py::AuthController.authenticate", "auth/auth.py::login", "auth/routes.py::handle_login"}},
		{expr: `(in-file "*.md" (grep "authenticate"))`, want: nil},
		{expr: `(union (definition "login") (definition "validate"))`, want: []string{"auth/auth.py::AuthController.validate", "auth/auth.py::login"}},
		{expr: `(intersect (grep "token") (children "AuthController"))`, want: []string{"auth/auth.py::AuthController.authenticate", "auth/auth.py::AuthController.validate"}},
		{expr: `(intersect (references "authenticate") (in-file "auth/routes.py" (grep "req")))`, want: []string{"auth/routes.py::handle_login"},
			refs: []string{"auth/routes.py:6 call authenticate"}},
		{expr: `(limit 1 (grep "ServeHTTP"))`, want: []string{"server/server.go::Server.ServeHTTP"}},
	}
	for _, c := range cases {
		r, err := fx.ix.QueryDSL(c.expr, refs)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		got := labels(r.Handles)
		if strings.Join(sorted(got), "|") != strings.Join(sorted(c.want), "|") {
			t.Errorf("%s:\n got %v\nwant %v", c.expr, got, c.want)
		}
		if c.first != "" && (len(got) == 0 || got[0] != c.first) {
			t.Errorf("%s: %v, want %s first", c.expr, got, c.first)
		}
		var rs []string
		for _, x := range r.RefHandles {
			rs = append(rs, x.FilePath+":"+strconv.Itoa(x.LineRange[0])+" "+x.RefType+" "+x.Name)
			if x.Preview == "" || x.Span.End <= x.Span.Start {
				t.Errorf("%s: ref handle without preview or span: %+v", c.expr, x)
			}
		}
		if c.refs != nil && strings.Join(rs, "|") != strings.Join(c.refs, "|") {
			t.Errorf("%s: refs %v, want %v", c.expr, rs, c.refs)
		}
	}
	// limit reports the matches it cut.
	r, _ := fx.ix.QueryDSL(`(limit 1 (grep "ServeHTTP"))`, nil)
	if r.TotalMatches != 2 || !r.Truncated {
		t.Errorf("limit: total %d truncated %v, want 2 true", r.TotalMatches, r.Truncated)
	}
}

func TestQueryParams(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	refs := GraphRefs(fx.res.Graph)
	cases := []struct {
		name string
		q    QueryParams
		want []string
	}{
		{"patterns any", QueryParams{Patterns: []string{"startswith", "NewServeMux"}}, []string{"auth/auth.py::AuthController.validate", "server/server.go::NewServer"}},
		{"patterns all", QueryParams{Patterns: []string{"token", "headers"}, Match: "all"}, []string{"auth/auth.py::AuthController.authenticate"}},
		{"symbol", QueryParams{Symbol: "NewServer"}, []string{"server/server.go::NewServer"}},
		{"symbol definition", QueryParams{Symbol: "Handle", Kind: "definition"}, []string{"server/server.go::Server.Handle"}},
		{"symbol reference", QueryParams{Symbol: "NewServer", Kind: "reference"}, []string{"server/router.go::listen"}},
		{"pattern as reference", QueryParams{Pattern: "login", Kind: "reference"}, []string{"auth/routes.py::handle_logout"}},
		{"parent", QueryParams{Parent: "AuthController"}, []string{"auth/auth.py::AuthController.authenticate", "auth/auth.py::AuthController.validate"}},
		{"parent and symbol", QueryParams{Parent: "AuthController", Symbol: "authenticate"}, []string{"auth/auth.py::AuthController.authenticate"}},
		{"section", QueryParams{Section: "## Usage"}, []string{"docs/README.md::Shop > Usage"}},
		{"glob", QueryParams{Pattern: "login", Glob: "auth/routes.py"}, []string{"auth/routes.py::chunk", "auth/routes.py::handle_login", "auth/routes.py::handle_logout"}},
		{"kind definition filters text hits", QueryParams{Pattern: "ServeHTTP", Kind: "definition"}, []string{"server/router.go::route", "server/server.go::Server.ServeHTTP"}},
		{"pattern and symbol intersect", QueryParams{Pattern: "token", Symbol: "validate"}, []string{"auth/auth.py::AuthController.validate"}},
		{"query and glob", QueryParams{Query: `(grep "authenticate")`, Glob: "*.py", Limit: 1}, []string{"auth/auth.py::AuthController.authenticate"}},
	}
	for _, c := range cases {
		r, err := fx.ix.Query(c.q, refs)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := labels(r.Handles); strings.Join(sorted(got), "|") != strings.Join(sorted(c.want), "|") {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestQueryErrors(t *testing.T) {
	ix := New()
	ix.Update("a.txt", []byte("hello\n"), "", nil)
	cases := []struct {
		q    QueryParams
		code string
		msg  string
	}{
		{QueryParams{}, CodeQueryParse, "no search parameter"},
		{QueryParams{Pattern: "x", Kind: "callers"}, CodeQueryParse, "unknown kind"},
		{QueryParams{Patterns: []string{"a", "b"}, Match: "most"}, CodeQueryParse, "unknown match"},
		{QueryParams{Pattern: "x", Limit: -1}, CodeQueryParse, "negative"},
		{QueryParams{Query: `(grep "x"`}, CodeQueryParse, "query:1:10: missing ')'"},
		{QueryParams{Pattern: "x", Glob: "src/[ab"}, CodeGlobPattern, "unclosed '['"},
		{QueryParams{Query: `(in-file "{a,b" (grep "x"))`}, CodeGlobPattern, "unclosed '{'"},
	}
	for _, c := range cases {
		_, err := ix.Query(c.q, nil)
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.msg) || e.Hint == "" {
			t.Errorf("%+v: error %v, want code %s containing %q with a hint", c.q, err, c.code, c.msg)
		}
	}
	_, err := ix.Query(QueryParams{Query: `(grep "x"`}, nil)
	if e := (*Error)(nil); !errors.As(err, &e) || e.Column != 10 || e.Offset != 9 {
		t.Errorf("parse error position: %+v", err)
	}
}

func TestPartialWordMatches(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	// Two of three words: partial matches, with a note.
	r, err := fx.ix.Query(QueryParams{Pattern: "authenticate token nonexistentword"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Handles) == 0 || !strings.Contains(r.Note, "no handle contains every word") || labels(r.Handles)[0] != "auth/auth.py::AuthController.authenticate" {
		t.Errorf("partial match: %v, note %q", labels(r.Handles), r.Note)
	}
	// One of four words is less than a file needs (fileCoverMin) and less
	// than half, which a handle needs: nothing.
	r, err = fx.ix.Query(QueryParams{Pattern: "authenticate qqqzzz wwwyyy vvvxxx"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Handles) != 0 || r.TotalMatches != 0 {
		t.Errorf("one word of four matched %v", labels(r.Handles))
	}
}

func TestAutoExpand(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	r, err := fx.ix.Query(QueryParams{Symbol: "AuthController", Kind: "definition", ExpandBudget: 10000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.AutoExpanded || len(r.ExpandedHandleIDs) != 1 || !strings.HasPrefix(r.Handles[0].Content, "class AuthController:") || r.ExpandNote != "" {
		t.Errorf("full budget: %s", mustJSON(t, r))
	}
	r, err = fx.ix.Query(QueryParams{Pattern: "ServeHTTP", ExpandBudget: 45}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.AutoExpanded || len(r.ExpandedHandleIDs) != 1 || r.Handles[1].Content != "" || r.ExpandNote == "" {
		t.Errorf("small budget: %s", mustJSON(t, r))
	}
}
