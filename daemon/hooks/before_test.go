package hooks

import (
	"fmt"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
)

// TestEngineRemembersBefore: the graph before a burst of changes of a
// file is kept until an edit hook takes it (the first of the burst, the
// earliest of a patch's files), for a while, and not for updates that are
// no edit (a full re-read, hundreds of files).
func TestEngineRemembersBefore(t *testing.T) {
	g := make([]*graph.Graph, 4)
	for i := range g {
		g[i] = graph.New(nil, nil)
	}
	t0 := time.Unix(1000, 0)
	many := make([]string, recentMaxPaths+1)
	for i := range many {
		many[i] = fmt.Sprint("f", i, ".go")
	}
	type change struct {
		at     time.Duration
		paths  []string
		full   bool
		before *graph.Graph
	}
	cases := []struct {
		name    string
		changes []change
		takeAt  time.Duration
		take    []string
		want    *graph.Graph
	}{
		{"one change", []change{{0, []string{"a.go"}, false, g[0]}}, time.Second, []string{"a.go"}, g[0]},
		{"a burst keeps its first", []change{{0, []string{"a.go"}, false, g[0]}, {time.Second, []string{"a.go"}, false, g[1]}}, 2 * time.Second, []string{"a.go"}, g[0]},
		{"a patch takes its earliest", []change{{0, []string{"b.go"}, false, g[2]}, {time.Second, []string{"a.go"}, false, g[1]}}, 2 * time.Second, []string{"a.go", "b.go"}, g[2]},
		{"another file", []change{{0, []string{"a.go"}, false, g[0]}}, time.Second, []string{"b.go"}, nil},
		{"too long ago", []change{{0, []string{"a.go"}, false, g[0]}}, recentWindow + time.Second, []string{"a.go"}, nil},
		{"a full re-read is no edit", []change{{0, []string{"a.go"}, true, g[0]}}, time.Second, []string{"a.go"}, nil},
		{"nor are hundreds of files", []change{{0, many, false, g[0]}}, time.Second, []string{"f1.go"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Engine{}
			for _, ch := range c.changes {
				e.now = func() time.Time { return t0.Add(ch.at) }
				e.Changed("/w", ch.paths, ch.full, ch.before)
			}
			if got := e.recent.take("/w", c.take, t0.Add(c.takeAt)); got != c.want {
				t.Errorf("took %p, want %p", got, c.want)
			}
			if got := e.recent.take("/w", c.take, t0.Add(c.takeAt)); got != nil {
				t.Error("a taken graph was taken again")
			}
		})
	}
}
