package benchmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/internal/testrepo"
)

// fixtureCorpus unpacks a testdata/graph repository (without its expect
// and golden sections) into a temp dir.
func fixtureCorpus(t *testing.T, lang string) Corpus {
	t.Helper()
	dir := testrepo.Unpack(t, filepath.Join("..", "..", "testdata", "graph", lang+".txtar"))
	return Corpus{Name: lang + " fixture", Dir: dir}
}

// TestRunOnFixtures runs the whole harness, real binaries included (built
// from this tree), on two small fixture repositories with a few
// repetitions, and checks that every measurement holds real data. It needs
// Go and a C compiler, like the rest of the tree; ctags and python3 are
// optional (their rows then say "not installed").
func TestRunOnFixtures(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Src: src, Corpora: []Corpus{fixtureCorpus(t, "python"), fixtureCorpus(t, "go")},
		Quick: true, Runs: 2, HookIters: 3, QueryIters: 2, EditIters: 2, SettleS: -1, Command: "test"}
	var log strings.Builder
	cfg.Log = &log
	rep, err := Run(cfg)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	if len(rep.Corpora) != 2 {
		t.Fatalf("%d corpora measured", len(rep.Corpora))
	}
	for _, c := range rep.Corpora {
		t.Run(c.Corpus.Name, func(t *testing.T) {
			floor, build, ctags := c.Cold.Phases[0], c.Cold.Phases[1], c.Cold.Phases[2]
			if len(floor.Runs) != 2 || len(build.Runs) != 2 || floor.Files == 0 || build.Files != floor.Files {
				t.Errorf("cold: floor %d runs %d files, build %d runs %d files", len(floor.Runs), floor.Files, len(build.Runs), build.Files)
			}
			if build.Nodes != c.Nodes || build.Edges != c.Edges || c.Nodes == 0 {
				t.Errorf("ccd bench found %d nodes %d edges, the daemon %d %d", build.Nodes, build.Edges, c.Nodes, c.Edges)
			}
			for _, u := range append(floor.Runs, build.Runs...) {
				if u.Wall <= 0 || u.CPU <= 0 || u.MaxRSSMB <= 1 {
					t.Errorf("cold run without usage: %+v", u)
				}
			}
			if _, ok := ctagsVersion(); ok && (len(ctags.Runs) != 2 || ctags.Nodes == 0 || ctags.Files != c.Files) {
				t.Errorf("ctags installed but %d runs, %d tags, %d files", len(ctags.Runs), ctags.Nodes, ctags.Files)
			}
			if c.Target.Callers == 0 || c.Target.ID == "" {
				t.Errorf("target %+v", c.Target)
			}
			if len(c.Warm.Ready) != 2 || !c.Warm.Warm || c.Warm.Reparsed != 0 {
				t.Errorf("warm start %+v", c.Warm)
			}
			if len(c.Edit.Client) != 2 || len(c.Edit.Daemon) != 2 || len(c.Edit.Floor) < 3 || c.Edit.Floor.Median() <= 0 {
				t.Errorf("edit %+v", c.Edit)
			}
			for _, h := range c.Hooks {
				if h.Missing != "" {
					continue
				}
				if len(h.Client) != 3 || (!h.Floor && len(h.Daemon) != 3) {
					t.Errorf("hook %s: %d calls, %d daemon latencies", h.Name, len(h.Client), len(h.Daemon))
				}
			}
			if len(c.Hooks) != 7 || hookFloor(c.Hooks) == nil {
				t.Errorf("%d hook cases, floor %v", len(c.Hooks), hookFloor(c.Hooks))
			}
			for _, q := range c.Queries {
				if len(q.Times) != 2 || q.First <= 0 {
					t.Errorf("query %s: %d calls, first %v", q.Name, len(q.Times), q.First)
				}
			}
			if c.IdleRSSMB <= 0 || c.RestRSSMB <= 0 || c.Daemon.CPU <= 0 {
				t.Errorf("daemon RSS idle %v rest %v, CPU %v", c.IdleRSSMB, c.RestRSSMB, c.Daemon.CPU)
			}
		})
	}
	md := rep.Markdown()
	for _, bad := range []string{"NaN", "Inf", "%!"} {
		if strings.Contains(md, bad) {
			t.Errorf("report contains %q:\n%s", bad, md)
		}
	}
	for _, want := range []string{"## python fixture", "## go fixture", "ccd full index", "PostToolUse Edit", "render board"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
