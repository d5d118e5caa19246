package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// TestWriteAtomicConcurrent: writers of one file never clobber each
// other's temporary file; the result is one writer's whole content, and
// no temporary file is left.
func TestWriteAtomicConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	done := make(chan error)
	for i := range 8 {
		go func(i int) {
			data := []byte(fmt.Sprintf("%d:%s", i, strings.Repeat("x", 100000)))
			done <- writeAtomic(p, data)
		}(i)
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(p)
	if len(b) != 100002 || !strings.HasSuffix(string(b), strings.Repeat("x", 100000)) {
		t.Errorf("torn file: %d bytes", len(b))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}
