package lsp

import (
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
)

func TestLibraryFilter(t *testing.T) {
	g := graph.New([]*graph.Node{
		{ID: "main.go", Kind: graph.Module, Path: "main.go"},
		{ID: "main.go::run", Kind: graph.Func, Name: "run", Path: "main.go", StartLine: 10, EndLine: 20},
		{ID: "util/u.go", Kind: graph.Module, Path: "util/u.go"},
		{ID: "util/u.go::Help", Kind: graph.Func, Name: "Help", Path: "util/u.go", StartLine: 1, EndLine: 3},
	}, []graph.EdgeSpec{
		{From: "main.go", To: "util/u.go", Type: graph.Import, Spec: "example.com/m/util"},
	})
	f := &facts.File{Path: "main.go", Lang: "go",
		Imports: []facts.Import{
			{Spec: "strings"}, {Spec: "example.com/m/util"}, {Spec: "gopkg.in/yaml.v3"},
			{Spec: "github.com/x/go-toml", Alias: "toml"}, {Spec: "os.path"},
		},
		Bindings: []facts.Binding{
			{Name: "b", Type: "*strings.Builder", Scope: 0},
			{Name: "u", Type: "util.T", Scope: 0},
			{Name: "other", Type: "strings.Reader", Scope: 5},
		},
	}
	names := map[string]bool{"run": true, "Help": true}
	lf := newLibraryFilter(g, f, 0, names)
	cases := []struct {
		call facts.Call
		lib  bool
	}{
		{facts.Call{Name: "len", Caller: 0}, true},         // builtin
		{facts.Call{Name: "run", Caller: 0}, false},        // a workspace name
		{facts.Call{Name: "Split", Recv: "strings"}, true}, // library package
		{facts.Call{Name: "Help", Recv: "util"}, false},    // workspace package
		{facts.Call{Name: "Marshal", Recv: "yaml"}, true},  // versioned path
		{facts.Call{Name: "Load", Recv: "toml"}, true},     // alias
		{facts.Call{Name: "join", Recv: "os.path"}, true},  // Python: first segment
		{facts.Call{Name: "WriteString", Recv: "b", Caller: 0}, true},
		{facts.Call{Name: "M", Recv: "u", Caller: 0}, false},        // workspace type
		{facts.Call{Name: "Read", Recv: "other", Caller: 0}, false}, // binding of another scope
		{facts.Call{Name: "Close", Recv: "conn", Caller: 0}, false}, // unknown receiver
		{facts.Call{Name: "Close", Recv: "s.conn", Caller: 0}, false},
	}
	for _, tc := range cases {
		if got := lf.library(tc.call); got != tc.lib {
			t.Errorf("library(%+v) = %v, want %v", tc.call, got, tc.lib)
		}
	}
}
