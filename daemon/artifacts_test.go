package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

func TestPruneImpacts(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	for i := range 12 {
		p := filepath.Join(dir, fmt.Sprintf("impact_f%02d.png", i))
		os.WriteFile(p, []byte("png"), 0o644)
		os.Chtimes(p, t0, t0.Add(time.Duration(i)*time.Minute)) // f11 is the newest
	}
	for _, other := range []string{"architecture.png", "board.png", "state.json", "impact_notes.txt"} {
		os.WriteFile(filepath.Join(dir, other), nil, 0o644)
	}
	PruneImpacts(dir, 3, map[string]bool{"impact_f00.png": true})
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	sort.Strings(got)
	want := []string{"architecture.png", "board.png", "impact_f00.png", "impact_f09.png", "impact_f10.png", "impact_f11.png", "impact_notes.txt", "state.json"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after pruning:\n got %v\nwant %v", got, want)
	}
}
