package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// TestMain points CCD_LSP_PATH at the servers scripts/install-lsp.sh
// installs, unless the environment already says where they are.
func TestMain(m *testing.M) {
	if os.Getenv(EnvPath) == "" {
		if abs, err := filepath.Abs("../../.tools/bin"); err == nil {
			os.Setenv(EnvPath, abs)
		}
	}
	os.Exit(m.Run())
}

// needServer skips the test when err says a server is missing, unless
// CCD_REQUIRE_LSP is set, when it fails instead.
func needServer(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if errors.Is(err, ErrNotFound) && os.Getenv("CCD_REQUIRE_LSP") == "" {
		t.Skipf("%v (set CCD_REQUIRE_LSP=1 to make this a failure; run scripts/install-lsp.sh)", err)
	}
	t.Fatal(err)
}

// extract writes an archive's files (all but the expect section) into a
// new temporary directory.
func extract(t testing.TB, path string) (string, *txtar.Archive) {
	t.Helper()
	ar := testrepo.Read(t, path)
	dir := testrepo.Write(t, ar, t.TempDir())
	return dir, ar
}

func section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

// expectation is one line of an -- expect -- section:
//
//	call A -> B     before refining, a call edge A -> B exists
//	missing A -> B  before refining, no call edge A -> B, or only a weak one
//	lsp A -> B      after refining, A -> B is a call edge with confidence lsp
//	!call A -> B    after refining, no call edge A -> B
type expectation struct {
	verb, from, to string
	line           int
}

func parseExpect(t testing.TB, text string) []expectation {
	t.Helper()
	var out []expectation
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 || f[2] != "->" {
			t.Fatalf("expect line %d: %q: want VERB FROM -> TO", n, line)
		}
		out = append(out, expectation{verb: f[0], from: f[1], to: f[3], line: n})
	}
	if len(out) == 0 {
		t.Fatal("empty expect section")
	}
	return out
}

// callEdge returns the call edge from -> to, or nil.
func callEdge(g *graph.Graph, from, to string) *graph.Edge {
	i, ok := g.Index(from)
	if !ok {
		return nil
	}
	for _, ei := range g.Out(i) {
		e := g.Edge(ei)
		if e.Type == graph.Call && g.Nodes[e.To].ID == to {
			return &e
		}
	}
	return nil
}

// check verifies the expectations on the graphs before and after.
func check(t *testing.T, before, after *graph.Graph, exp []expectation) {
	t.Helper()
	for _, x := range exp {
		for _, id := range []string{x.from, x.to} {
			if before.Node(id) == nil {
				t.Errorf("expect line %d: no node %s in the graph", x.line, id)
			}
		}
		desc := fmt.Sprintf("%s %s -> %s", x.verb, x.from, x.to)
		switch x.verb {
		case "call":
			if callEdge(before, x.from, x.to) == nil {
				t.Errorf("%s: the resolver's graph has no such edge", desc)
			}
		case "missing":
			if e := callEdge(before, x.from, x.to); e != nil && e.Confidence > graph.Inferred {
				t.Errorf("%s: the resolver already has it with confidence %s; the fixture proves nothing", desc, e.Confidence)
			}
		case "lsp":
			e := callEdge(after, x.from, x.to)
			if e == nil {
				t.Errorf("%s: not in the refined graph", desc)
			} else if e.Confidence != graph.LSP {
				t.Errorf("%s: confidence %s after refining", desc, e.Confidence)
			}
		case "!call":
			if callEdge(after, x.from, x.to) != nil {
				t.Errorf("%s: still in the refined graph", desc)
			}
		default:
			t.Fatalf("expect line %d: unknown verb %q", x.line, x.verb)
		}
	}
}

// pos builds a protocol position.
func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func writeFile(p, text string) error { return os.WriteFile(p, []byte(text), 0o644) }
