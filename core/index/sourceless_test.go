package index

import (
	"errors"
	"strings"
	"testing"
)

// TestRequireSource checks the one rule for a root without source files,
// before indexing (a walk) and after (the result), which must agree.
func TestRequireSource(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  bool // holds source
	}{
		{"empty", nil, false},
		{"documentation only", map[string]string{"README.md": "# x\n", "notes.txt": "x\n"}, false},
		{"only in a skipped directory", map[string]string{"node_modules/x/i.js": "x\n"}, false},
		{"one source file", map[string]string{"pkg/a.py": "def f():\n    pass\n"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, c.files)
			cfg := testConfig()
			before := RequireSource(root, nil, cfg)
			after := RequireSource(root, build(t, root, cfg), cfg)
			for when, err := range map[string]error{"before indexing": before, "after indexing": after} {
				var ns *NoSourceError
				switch {
				case c.want && err != nil:
					t.Errorf("%s: %v, want nil", when, err)
				case !c.want && !errors.As(err, &ns):
					t.Errorf("%s: %v, want a *NoSourceError", when, err)
				case !c.want && (ns.Root != root || !strings.HasPrefix(err.Error(), "no source files in "+root)):
					t.Errorf("%s: %q does not name the root %s", when, err, root)
				}
			}
			var ns *NoSourceError
			if errors.As(after, &ns) && !strings.Contains(after.Error(), "0 parsed") {
				t.Errorf("after indexing: %q does not say what the run found", after)
			}
		})
	}
}
