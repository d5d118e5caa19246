package scip_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/scip"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// indexWith runs a real SCIP indexer in dir and returns the index file.
func indexWith(t *testing.T, lang, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "index.scip")
	switch lang {
	case "go":
		t.Setenv("GOFLAGS", "-mod=mod")
		t.Setenv("GOTOOLCHAIN", "local")
		run(t, dir, tool(t, "scip-go"), "-q", "--output", out)
	case "python":
		env := filepath.Join(t.TempDir(), "env.json")
		if err := os.WriteFile(env, []byte("[]"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, dir, tool(t, "scip-python"), "index", "--quiet", "--project-name", "fixture", "--project-version", "0",
			"--environment", env, "--output", out)
	case "typescript":
		run(t, dir, tool(t, "scip-typescript"), "index", "--no-progress-bar", "--output", out)
	default:
		t.Fatalf("no indexer for %s", lang)
	}
	return out
}

// TestImportRealIndexes indexes the fixtures of testdata/scip/precise with
// scip-go, scip-python and scip-typescript and imports each index: the
// hand-written expectations hold afterwards, and a file changed since the
// index falls back to tree-sitter's edges.
//
//	precise A -> B   after the import, A calls B with confidence precise
//	!call A -> B     after the import, A does not call B
//	!ref A -> B      after the import, A has no reference edge to B
func TestImportRealIndexes(t *testing.T) {
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			ar := testrepo.Read(t, filepath.Join("../../testdata/scip/precise", lang+".txtar"))
			dir := testrepo.Unpack(t, filepath.Join("../../testdata/scip/precise", lang+".txtar"))
			file := indexWith(t, lang, dir)
			res, err := index.Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			p, err := scip.Load(dir, file)
			if err != nil {
				t.Fatal(err)
			}
			ref, st := scip.Import(dir, res.Graph, res.Files, p.Index, scip.ImportOptions{Changed: scip.ChangedSince(dir, p.Made)})
			t.Logf("%s: %+v", p.Index.Metadata.ToolName, st)
			if st.Used == 0 || st.Found == 0 {
				t.Fatalf("the index was not used: %+v", st)
			}
			g := lsp.Apply(res.Graph, ref)
			var expect string
			for _, f := range ar.Files {
				if f.Name == "expect" {
					expect = string(f.Data)
				}
			}
			checkPrecise(t, g, expect)

			// A file written after the index: its document is left out and
			// its call sites keep tree-sitter's confidence.
			var caller string
			sc := bufio.NewScanner(strings.NewReader(expect))
			for sc.Scan() {
				if f := strings.Fields(sc.Text()); len(f) >= 4 && f[0] == "precise" {
					caller = f[1]
					break
				}
			}
			path, _, _ := strings.Cut(caller, "::")
			later := p.Made.Add(2 * time.Second)
			if err := os.Chtimes(filepath.Join(dir, path), later, later); err != nil {
				t.Fatal(err)
			}
			ref2, st2 := scip.Import(dir, res.Graph, res.Files, p.Index, scip.ImportOptions{Changed: scip.ChangedSince(dir, p.Made)})
			if st2.Changed != 1 || st2.Used != st.Used-1 {
				t.Errorf("after touching %s: %+v", path, st2)
			}
			g2 := lsp.Apply(res.Graph, ref2)
			for i := range g2.NumEdges() {
				e := g2.Edge(i)
				if g2.Nodes[e.From].Path == path && e.Confidence == graph.Precise {
					t.Errorf("%s changed since the index, yet %s -> %s is precise", path, g2.Nodes[e.From].ID, g2.Nodes[e.To].ID)
				}
			}
		})
	}
}

// checkPrecise checks expect lines against g.
func checkPrecise(t *testing.T, g *graph.Graph, expect string) {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(strings.NewReader(expect))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 || f[2] != "->" {
			t.Fatalf("bad expect line %q", sc.Text())
		}
		n++
		verb, from, to := f[0], f[1], f[3]
		var found *graph.Edge
		typ := graph.Call
		if verb == "!ref" {
			typ = graph.Ref
		}
		if i, ok := g.Index(from); ok {
			for _, ei := range g.Out(i) {
				if e := g.Edge(ei); e.Type == typ && g.Nodes[e.To].ID == to {
					found = &e
				}
			}
		} else if verb == "precise" {
			t.Errorf("no node %s", from)
			continue
		}
		switch verb {
		case "precise":
			if found == nil || found.Confidence != graph.Precise {
				t.Errorf("want %s -> %s precise, got %+v", from, to, found)
			}
		case "!call", "!ref":
			if found != nil {
				t.Errorf("want no %s edge %s -> %s, got %+v", typ, from, to, found)
			}
		default:
			t.Fatalf("bad verb in %q", sc.Text())
		}
	}
	if n == 0 {
		t.Fatal("no expectations")
	}
}
