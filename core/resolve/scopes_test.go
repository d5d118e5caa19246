package resolve

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

// TestBindingsNamed: a scope past manyBindings answers a name with exactly
// its bindings, in order, like a scan of the scope would; a small scope
// answers with all of its bindings (the caller compares names).
func TestBindingsNamed(t *testing.T) {
	f := &facts.File{Path: "m.py", Lang: "python", Defs: []facts.Def{{Name: "f", Qual: "f", Kind: facts.Func, Parent: -1}}}
	for i := 0; i < manyBindings+6; i++ {
		f.Bindings = append(f.Bindings, facts.Binding{Name: fmt.Sprintf("v%d", i%10), Scope: -1, Line: i + 1})
	}
	f.Bindings = append(f.Bindings, facts.Binding{Name: "v1", Scope: 0, Line: 50}, facts.Binding{Name: "w", Scope: 0, Line: 51})
	fi := newFileInfo(f)
	for _, tc := range []struct {
		scope int
		name  string
	}{{-1, "v1"}, {-1, "v9"}, {-1, "absent"}, {0, "v1"}, {0, "w"}} {
		var scan []int
		for _, i := range fi.scopes[tc.scope] {
			if f.Bindings[i].Name == tc.name {
				scan = append(scan, i)
			}
		}
		got := fi.bindingsNamed(tc.scope, tc.name)
		if len(fi.scopes[tc.scope]) > manyBindings {
			if !slices.Equal(got, scan) {
				t.Errorf("scope %d, %s: %v, want %v", tc.scope, tc.name, got, scan)
			}
		} else if !slices.Equal(got, fi.scopes[tc.scope]) {
			t.Errorf("small scope %d, %s: %v, want the whole scope %v", tc.scope, tc.name, got, fi.scopes[tc.scope])
		}
	}
	if got := fi.bindingsNamed(-1, "v1"); len(got) != 3 {
		t.Errorf("module v1: %v, want the 3 bindings of that name", got)
	}
}
