package lsp

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
)

// firstDefinitionCases are call sites of the fixtures, located by text.
var firstDefinitionCases = []struct {
	server, fixture, lang, file string
	line                        int
	name, recv                  string
}{
	{"gopls", "go", "go", "app/app.go", 14, "Notify", "a.n"},
	{"pyright", "python", "python", "app.py", 8, "c2", ""},
	{"tsc", "typescript", "typescript", "src/main.ts", 4, "sum", ""},
}

// firstDefinition starts a fresh server for root, asks one definition and
// returns the server's RSS afterwards.
func firstDefinition(b *testing.B, lang, root, file string, line int, name, recv string) int64 {
	b.Helper()
	text, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	p, ok := callPosition(lines(text), line, name, recv)
	if !ok {
		b.Fatalf("%s:%d: no %s", file, line, name)
	}
	m := NewManager(Options{StartTimeout: 5 * time.Minute, RequestTimeout: 5 * time.Minute})
	defer m.Close()
	s, err := m.Session(lang, root)
	needServer(b, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	locs, err := s.Definition(ctx, file, p)
	if err != nil {
		b.Fatal(err)
	}
	if len(locs) == 0 {
		b.Fatalf("%s: no definition for %s at %s:%d", s.Spec().DisplayName(), name, file, line)
	}
	return s.Status().RSS
}

// BenchmarkFirstDefinition measures the time from nothing to the first
// answered textDocument/definition (start, initialize, load, answer) for
// each server on its fixture, and on GOROOT/src/net/http for gopls.
func BenchmarkFirstDefinition(b *testing.B) {
	for _, tc := range firstDefinitionCases {
		b.Run(tc.server, func(b *testing.B) {
			dir, _ := extract(b, "../../testdata/lsp/"+tc.fixture+".txtar")
			var rss int64
			for i := 0; i < b.N; i++ {
				rss = firstDefinition(b, tc.lang, dir, tc.file, tc.line, tc.name, tc.recv)
			}
			b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
		})
	}
	b.Run("gopls-net-http", func(b *testing.B) {
		root := filepath.Join(runtime.GOROOT(), "src", "net", "http")
		var rss int64
		for i := 0; i < b.N; i++ {
			// `srv := &Server{...}; return srv.ListenAndServe()` in ListenAndServe
			rss = firstDefinition(b, "go", root, "server.go", lineOf(b, filepath.Join(root, "server.go"), "return server.ListenAndServe()"), "ListenAndServe", "server")
		}
		b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
	})
}

// lineOf returns the 1-based line of the first line containing s.
func lineOf(b *testing.B, path, s string) int {
	b.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for i, l := range lines(text) {
		if bytes.Contains(l, []byte(s)) {
			return i + 1
		}
	}
	b.Fatalf("%s: no line with %q", path, s)
	return 0
}

// BenchmarkRefineCorpus refines the graph of real code every machine has:
// GOROOT/src/net/http with gopls and Python's email package with pyright.
// It reports what Refine did as metrics (run with -benchtime 1x).
func BenchmarkRefineCorpus(b *testing.B) {
	cases := []struct{ name, lang, root string }{
		{"gopls-net-http", "go", filepath.Join(runtime.GOROOT(), "src", "net", "http")},
		// The standard library: pyright answers with typeshed's stubs for
		// it, so most answers point outside the workspace.
		{"pyright-email", "python", "/usr/lib/python3.11/email"},
		// A third-party package, when the machine's Python has it.
		{"pyright-jinja2", "python", pythonPackageDir("jinja2")},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if _, err := os.Stat(tc.root); tc.root == "" || err != nil {
				b.Skipf("no corpus: %v", err)
			}
			res, err := index.Build(tc.root, config.Default())
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				m := NewManager(Options{StartTimeout: 5 * time.Minute, RequestTimeout: time.Minute})
				_, err := m.Session(tc.lang, tc.root)
				needServer(b, err)
				ref, err := Refine(context.Background(), m, tc.root, res.Graph, res.Files,
					RefineOptions{Budget: 10 * time.Minute, MaxRequests: 20000, Languages: []string{tc.lang}})
				if err != nil {
					b.Fatal(err)
				}
				var rss int64
				for _, st := range m.Status() {
					rss += st.RSS
				}
				m.Close()
				s := ref.Stats
				b.ReportMetric(float64(s.Candidates), "candidates")
				b.ReportMetric(float64(s.Asked), "asked")
				b.ReportMetric(float64(s.Failed), "failed")
				b.ReportMetric(float64(s.External), "external")
				b.ReportMetric(float64(s.Library), "library")
				b.ReportMetric(float64(s.Dispatch), "dispatch")
				b.ReportMetric(float64(s.Added), "added")
				b.ReportMetric(float64(s.Upgraded), "upgraded")
				b.ReportMetric(float64(s.Stale), "stale")
				b.ReportMetric(s.FirstAnswer.Seconds(), "first-s")
				b.ReportMetric(s.Duration.Seconds(), "refine-s")
				b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
				b.Logf("%s: %d call edges before; %+v", tc.name, res.Graph.CountEdges(0), s)
			}
		})
	}
}

// pythonPackageDir returns the directory of an installed Python package,
// or "".
func pythonPackageDir(pkg string) string {
	out, err := exec.Command("python3", "-c", "import os, "+pkg+"; print(os.path.dirname("+pkg+".__file__))").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkApplyAfterEdit compares the two ways the daemon keeps a refined
// graph current after a one-file edit of GOROOT/src/net/http/server.go:
// Apply rebuilds the whole graph, ApplyFiles splices in the file. The
// refinements are synthetic, as a real one needs gopls over all of
// GOROOT: "dense" confirms or redirects a fifth of all call sites each,
// "capped" keeps about as many edges as the default request cap yields.
// ApplyFiles runs as in the daemon: each edit splices into the refined
// graph of the edit before.
func BenchmarkApplyAfterEdit(b *testing.B) {
	if testing.Short() {
		b.Skip("indexes GOROOT/src")
	}
	res, err := index.Build(filepath.Join(runtime.GOROOT(), "src"), config.Default())
	if err != nil {
		b.Fatal(err)
	}
	ts := res.Graph
	rng := rand.New(rand.NewSource(1))
	dense := randomRefinement(rng, ts, nil, nil)
	capped := &Refinement{}
	keep := 4000.0 / float64(len(dense.Edges))
	for _, e := range dense.Edges {
		if rng.Float64() < keep {
			capped.Edges = append(capped.Edges, e)
		}
	}
	for _, e := range dense.Stale {
		if rng.Float64() < keep {
			capped.Stale = append(capped.Stale, e)
		}
	}
	file := "net/http/server.go"
	nodes := fileNodes(ts, []string{file})
	body := ts.Splice([]string{file}, nodes, fileEdges(ts, []string{file}, nil))
	added := *nodes[len(nodes)-1]
	added.ID, added.Name = file+"::addedFunc", "addedFunc"
	surface := ts.Splice([]string{file}, append(nodes[:len(nodes):len(nodes)], &added), fileEdges(ts, []string{file}, nil))
	for _, r := range []struct {
		name string
		ref  *Refinement
	}{{"capped", capped}, {"dense", dense}} {
		for _, c := range []struct {
			name string
			// the tree-sitter graphs of successive edits: a body edit
			// keeps the file's shape, a surface edit alternately adds and
			// removes a function
			seq []*graph.Graph
		}{{"body-edit", []*graph.Graph{body}}, {"new-function", []*graph.Graph{surface, body}}} {
			b.Run(r.name+"/"+c.name+"/Apply", func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					Apply(c.seq[i%len(c.seq)], r.ref)
					i++
				}
			})
			b.Run(r.name+"/"+c.name+"/ApplyFiles", func(b *testing.B) {
				// As in the daemon, each update splices into the refined
				// graph of the one before.
				refined := Apply(ts, r.ref)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					refined = ApplyFiles(refined, c.seq[i%len(c.seq)], []string{file}, r.ref)
					i++
				}
			})
		}
	}
}
