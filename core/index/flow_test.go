package index

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/graph"
)

// TestValueFlowIsBounded: a name bound many times to names bound many
// times (generated code, long functions reassigning a handler) multiplies
// the bindings a value-flow search could visit (ten levels of ten
// bindings: 10^10); the search is bounded, the call still binds to what
// the nearest bindings hold, and each call gets at most a handful of
// flow edges.
func TestValueFlowIsBounded(t *testing.T) {
	var b strings.Builder
	for k := 0; k < 12; k++ {
		fmt.Fprintf(&b, "def f%d():\n    pass\n\n", k)
	}
	b.WriteString("def run(flag):\n")
	b.WriteString("    x0 = f0\n")
	for level := 1; level <= 10; level++ {
		for k := 0; k < 10; k++ {
			fmt.Fprintf(&b, "    x%d = x%d if flag else f%d\n", level, level-1, k)
		}
	}
	b.WriteString("    x10()\n")
	root := t.TempDir()
	writeTree(t, root, map[string]string{"gen.py": b.String()})
	res := build(t, root, testConfig())
	g := res.Graph
	i, ok := g.Index("gen.py::run")
	if !ok {
		t.Fatal("no node run")
	}
	n := 0
	for _, ei := range g.Out(i) {
		if e := g.Edge(ei); e.Type == graph.Call {
			n++
		}
	}
	if n == 0 || n > 16 {
		t.Errorf("run has %d call edges, want between 1 and 16 (maxFlow)", n)
	}
}
