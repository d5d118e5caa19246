package index

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/graph/*.txtar")

// extract writes an archive's files (all but the expect/golden sections)
// into a new temporary directory.
func extract(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	return testrepo.Write(t, ar, t.TempDir())
}

func section(ar *txtar.Archive, name string) (string, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// TestGraphFixtures indexes every fixture repository and checks the
// hand-written expectations and the generated golden graph.
func TestGraphFixtures(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/graph/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dir := extract(t, ar)
			res, err := Build(dir, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			expect, ok := section(ar, "expect")
			if !ok {
				t.Fatalf("%s has no -- expect -- section", p)
			}
			checkExpect(t, res.Graph, expect)
			got := res.Graph.Text()
			if *update {
				setSection(ar, "golden", got)
				if err := os.WriteFile(p, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, ok := section(ar, "golden")
			if !ok {
				t.Fatalf("%s has no golden section; run go test ./core/index -run Graph -update", p)
			}
			if got != want {
				t.Errorf("graph differs from golden (run with -update after reviewing):\n%s", lineDiff(want, got))
			}
		})
	}
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// checkExpect verifies each expectation line against the graph.
// Positive call lines need an edge stronger than a name match; negative
// lines (prefixed with "!") forbid an edge of any confidence.
func checkExpect(t *testing.T, g *graph.Graph, expect string) {
	t.Helper()
	facts := map[string]graph.Confidence{}
	for _, n := range g.Nodes {
		facts[fmt.Sprintf("node %s %s", n.Kind, n.ID)] = graph.LSP
	}
	for _, e := range g.AllEdges() {
		conf := e.Confidence
		if e.Type == graph.Contains {
			conf = graph.LSP // containment is syntax, never weak
		}
		facts[fmt.Sprintf("%s %s -> %s", e.Type, g.Nodes[e.From].ID, g.Nodes[e.To].ID)] = conf
	}
	bad := 0
	for i, line := range strings.Split(expect, "\n") {
		// A comment starts at a "#" that begins the line or follows a
		// space; node ids may hold one ("f#2").
		if strings.HasPrefix(line, "#") {
			line = ""
		} else if j := strings.Index(line, " #"); j >= 0 {
			line = line[:j]
		}
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		neg := strings.HasPrefix(line, "!")
		weakOK := strings.HasPrefix(line, "call? ")
		key := strings.TrimPrefix(strings.TrimPrefix(line, "!"), "call? ")
		if weakOK {
			key = "call " + key
		}
		conf, ok := facts[key]
		switch {
		case neg && ok:
			t.Errorf("expect line %d: %q exists (confidence %s) but must not", i+1, line, conf)
			bad++
		case !neg && !ok:
			t.Errorf("expect line %d: %q is missing", i+1, line)
			bad++
		case !neg && !weakOK && conf == graph.NameMatch:
			t.Errorf("expect line %d: %q exists only as a name match", i+1, line)
			bad++
		}
	}
	if bad > 0 {
		t.Logf("graph:\n%s", g.Text())
	}
}

// lineDiff lists lines only in want (-) or only in got (+).
func lineDiff(want, got string) string {
	w, g := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
	}
	var b bytes.Buffer
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
