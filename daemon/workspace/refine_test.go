package workspace

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/facts"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// TestMarkPending: every content change between two results is recorded
// for re-refinement whenever a refinement exists or is being made (edits
// during a run must not be lost), and a run is started only when a
// refinement exists and none is scheduled.
func TestMarkPending(t *testing.T) {
	a := &facts.File{Path: "a.go", Hash: "1"}
	b := &facts.File{Path: "b.go", Hash: "1"}
	c := &facts.File{Path: "c.go", Hash: "1"}
	b2 := &facts.File{Path: "b.go", Hash: "2"}
	bTouched := &facts.File{Path: "b.go", Hash: "1"} // parsed again, same content
	d := &facts.File{Path: "d.go", Hash: "1"}
	prev := &index.Result{Files: []*facts.File{a, b, c}}
	cases := []struct {
		name     string
		state    string
		ref      bool
		full     bool // a full refinement (or restore) runs
		rerun    bool
		next     []*facts.File
		pending  []string
		schedule bool
	}{
		{"done: an edit starts a run", LSPDone, true, false, false, []*facts.File{a, b2, c}, []string{"b.go"}, true},
		{"done: a new file and a removed one", LSPDone, true, false, false, []*facts.File{a, b, d}, []string{"d.go"}, true},
		{"done: same content is no change", LSPDone, true, false, false, []*facts.File{a, bTouched, c}, nil, false},
		{"a run is scheduled: recorded for it", LSPDone, true, false, true, []*facts.File{a, b2, c}, []string{"b.go"}, false},
		{"a re-refinement runs: recorded, another run", LSPRefining, true, false, false, []*facts.File{a, b2, c}, []string{"b.go"}, true},
		{"the first refinement runs: recorded for its end", LSPRefining, false, true, false, []*facts.File{a, b2, c}, []string{"b.go"}, false},
		{"a reindex's refinement runs over an old one: recorded for its end", LSPRefining, true, true, false, []*facts.File{a, b2, c}, []string{"b.go"}, false},
		{"failed: nothing to keep up", LSPFailed, false, false, false, []*facts.File{a, b2, c}, nil, false},
		{"not started", "", false, false, false, []*facts.File{a, b2, c}, nil, false},
	}
	env := &Env{LSP: lsp.NewManager(lsp.Options{})}
	defer env.LSP.Close()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := &Workspace{env: env}
			ws.lsp.state, ws.lsp.rerun = tc.state, tc.rerun
			if tc.ref {
				ws.lsp.ref = &lsp.Refinement{}
			}
			if tc.full {
				ws.lsp.full = context.Background()
			}
			next := &index.Result{Files: tc.next}
			got, edited := ws.markPending(prev, next)
			if tc.pending != nil && tc.state != "" && !slices.Equal(edited, tc.pending) {
				t.Errorf("edited %v, want %v", edited, tc.pending)
			}
			pending := slices.Sorted(maps.Keys(ws.lsp.pending))
			if got != tc.schedule || !slices.Equal(pending, tc.pending) {
				t.Errorf("schedule %v, pending %v; want %v, %v", got, pending, tc.schedule, tc.pending)
			}
			if ws.lsp.latest != next || ws.lsp.seq != 1 {
				t.Errorf("latest result not advanced (seq %d)", ws.lsp.seq)
			}
		})
	}
}

// TestServedFollowsLatestOnly: the refined graph follows the latest
// result by a splice; an answer for an older result gets that result's
// tree-sitter graph and neither starts a re-application nor moves the
// refined graph back.
func TestServedFollowsLatestOnly(t *testing.T) {
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "..", "testdata", "lsp", "go.txtar")), t.TempDir())
	res1, err := index.Build(root, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "notify", "notify.go")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	res2, _, ok, err := res1.UpdateFiles([]string{"notify/notify.go"})
	if err != nil || !ok || res2.Graph == res1.Graph {
		t.Fatalf("update: %v %v", ok, err)
	}
	// A refinement: one lsp call edge between two functions.
	var from, to string
	for _, n := range res1.Graph.Nodes {
		if n.Kind == graph.Func {
			if from == "" {
				from = n.ID
			} else if to == "" {
				to = n.ID
			}
		}
	}
	ref := &lsp.Refinement{Edges: []graph.EdgeSpec{{From: from, To: to, Type: graph.Call, Confidence: graph.LSP, Line: 1}}}
	env := &Env{LSP: lsp.NewManager(lsp.Options{})}
	defer env.LSP.Close()
	ws := &Workspace{env: env}
	s := &ws.lsp
	s.state, s.ref, s.base, s.g, s.latest, s.seq, s.baseSeq = LSPDone, ref, res1, lsp.Apply(res1.Graph, ref), res1, 1, 1

	// The update of res2: markPending makes it the latest, then it is
	// followed by a splice.
	ws.markPending(res1, res2)
	if ws.served(res1) != s.g || s.base != res1 {
		t.Error("the answer for res1, still the base, is not the refined graph")
	}
	g2 := ws.served(res2)
	if s.base != res2 || s.spliced != 1 || g2 != s.g || g2.Text() != lsp.Apply(res2.Graph, ref).Text() {
		t.Fatalf("not followed by a splice: base is res2 %v, spliced %d", s.base == res2, s.spliced)
	}
	// A slow reader still holding res1.
	if g := ws.served(res1); g != res1.Graph {
		t.Error("an older result got the refined graph of a newer one")
	}
	if s.applying || s.base != res2 || s.reapplied != 0 {
		t.Errorf("an older result started work or moved the refined graph back (applying %v, reapplied %d)", s.applying, s.reapplied)
	}
}

// TestLoadRefinement: a stored refinement is used whole when nothing
// changed, in part (with the changed files to ask about) when files
// changed, and not at all when the project facts changed or the format
// is another.
func TestLoadRefinement(t *testing.T) {
	root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "..", "testdata", "lsp", "go.txtar")), t.TempDir())
	res, err := index.Build(root, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws := &Workspace{root: root, env: &Env{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	ws.persist.st = st
	files := map[string]string{}
	for _, f := range res.Files {
		files[f.Path] = f.Hash
	}
	edges := []graph.EdgeSpec{
		{From: "app/app.go::App.Alert", To: "notify/email.go::Email.Notify", Type: graph.Call, Confidence: graph.LSP, Line: 14},
		{From: "notify/email.go::Email.Notify", To: "notify/email.go::send", Type: graph.Call, Confidence: graph.LSP, Line: 10},
	}
	put := func(sr savedRefinement) {
		t.Helper()
		data, _ := json.Marshal(sr)
		if err := st.PutBlob(refinementKey, data); err != nil {
			t.Fatal(err)
		}
	}
	whole := savedRefinement{Format: refinementFormat, Fingerprint: res.Fingerprint(), Project: res.ProjectDigest(), Files: files, Edges: edges}
	changedEmail := whole
	changedEmail.Fingerprint = "other"
	changedEmail.Files = maps.Clone(files)
	changedEmail.Files["notify/email.go"] = "old"
	otherProject := changedEmail
	otherProject.Project = "other"
	oldFormat := whole
	oldFormat.Format = refinementFormat - 1
	cases := []struct {
		name    string
		sr      savedRefinement
		edges   int
		changed []string
	}{
		{"nothing changed: all of it", whole, 2, nil},
		{"a file changed: the others' entries, that file to ask", changedEmail, 1, []string{"notify/email.go"}},
		{"project facts changed: none", otherProject, -1, nil},
		{"another format: none", oldFormat, -1, nil},
	}
	if err := st.PutBlob(refinementKey, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if ref, changed := ws.loadRefinement(res); ref != nil || changed != nil {
		t.Errorf("a corrupt stored refinement was used: %v %v", ref, changed)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			put(tc.sr)
			ref, changed := ws.loadRefinement(res)
			if tc.edges < 0 {
				if ref != nil {
					t.Fatalf("used: %+v", ref)
				}
				return
			}
			if ref == nil || len(ref.Edges) != tc.edges || !slices.Equal(changed, tc.changed) {
				t.Fatalf("ref %v, changed %v; want %d edges, %v", ref, changed, tc.edges, tc.changed)
			}
		})
	}
}

// TestCardDropsOldLSPEdgesOfEditedFiles: the graph an edit card reads
// callers from keeps the language servers' edges from other files but not
// those leaving the edited file, found for its old content.
func TestCardDropsOldLSPEdgesOfEditedFiles(t *testing.T) {
	_, res, fromApp, fromEmail := emailFixture(t)
	ref := &lsp.Refinement{Edges: []graph.EdgeSpec{fromApp, fromEmail}}
	refined := lsp.Apply(res.Graph, ref)
	has := func(g *graph.Graph, e graph.EdgeSpec) bool {
		mustIndex(t, g, e.To)
		for _, k := range g.Out(mustIndex(t, g, e.From)) {
			if x := g.Edge(k); g.Nodes[x.To].ID == e.To && x.Confidence == graph.LSP {
				return true
			}
		}
		return false
	}
	if !has(refined, fromApp) || !has(refined, fromEmail) {
		t.Fatal("the refinement was not applied")
	}
	u := Change{Before: refined, After: refined, Tree: res.Graph, Files: []string{"notify/email.go"}}
	_, after := u.Card()
	if !has(after, fromApp) {
		t.Error("the card lost the lsp edge from an unedited file")
	}
	if has(after, fromEmail) {
		t.Error("the card kept an lsp edge the servers found for the edited file's old content")
	}
	if _, a := (Change{Before: refined, After: refined, Tree: res.Graph}).Card(); a != refined {
		t.Error("with no edited file the card should use the served graph as is")
	}
}

// emailFixture indexes testdata/lsp/go.txtar and returns two lsp call
// edges a language server might add to it: one leaving app/app.go, one
// leaving notify/email.go.
func emailFixture(t *testing.T) (root string, res *index.Result, fromApp, fromEmail graph.EdgeSpec) {
	t.Helper()
	root = testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "..", "testdata", "lsp", "go.txtar")), t.TempDir())
	res, err := index.Build(root, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	fromApp = graph.EdgeSpec{From: "app/app.go::App.Alert", To: "notify/email.go::Email.Notify", Type: graph.Call, Confidence: graph.LSP, Line: 14}
	fromEmail = graph.EdgeSpec{From: "notify/email.go::Email.Notify", To: "notify/sms.go::SMS.Notify", Type: graph.Call, Confidence: graph.LSP, Line: 10}
	return root, res, fromApp, fromEmail
}

func mustIndex(t *testing.T, g *graph.Graph, id string) int {
	t.Helper()
	i, ok := g.Index(id)
	if !ok {
		t.Fatalf("no node %s", id)
	}
	return i
}

// TestEditSplicesOnce: an update that edited a file follows the refined
// graph by one splice that leaves out the language servers' edges leaving
// that file, so the edit card reads the served graph as it is; it equals
// what a second splice for the card made of the fully refined graph.
func TestEditSplicesOnce(t *testing.T) {
	root, res1, fromApp, fromEmail := emailFixture(t)
	ref := &lsp.Refinement{Edges: []graph.EdgeSpec{fromApp, fromEmail}}
	p := filepath.Join(root, "notify", "email.go")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	res2, _, ok, err := res1.UpdateFiles([]string{"notify/email.go"})
	if err != nil || !ok || res2.Graph == res1.Graph {
		t.Fatalf("update: %v %v", ok, err)
	}
	_, files, ok := res2.Delta()
	if !ok {
		t.Fatal("no delta")
	}
	env := &Env{LSP: lsp.NewManager(lsp.Options{})}
	defer env.LSP.Close()
	ws := &Workspace{env: env}
	s := &ws.lsp
	refined := lsp.Apply(res1.Graph, ref)
	s.state, s.ref, s.base, s.g, s.latest, s.seq, s.baseSeq = LSPDone, ref, res1, refined, res1, 1, 1

	_, edited := ws.markPending(res1, res2)
	if !slices.Equal(edited, []string{"notify/email.go"}) {
		t.Fatalf("edited %v", edited)
	}
	g, clean := ws.servedEdit(res2, edited)
	if !clean || s.spliced != 1 || g != s.g {
		t.Fatalf("clean %v, spliced %d", clean, s.spliced)
	}
	c := Change{Before: refined, After: g, Tree: res2.Graph, Files: edited, clean: clean}
	if _, after := c.Card(); after != g {
		t.Error("the card spliced the served graph again")
	}
	twice := lsp.ApplyFiles(lsp.ApplyFiles(refined, res2.Graph, files, ref), res2.Graph, edited, nil)
	if g.Text() != twice.Text() {
		t.Errorf("one splice differs from the two the card made before:\n%s\nwant\n%s", g.Text(), twice.Text())
	}
	// The refinement itself is kept whole: the servers' answers for the
	// edited file replace its entries once asked again.
	if s.ref != ref {
		t.Error("the refinement changed")
	}
}
