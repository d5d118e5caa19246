package testmap

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestCache: no file is no recording and no error; a saved recording is
// read, and read again when the file changes; a damaged file is an error
// that says what to do; a removed one is none again.
func TestCache(t *testing.T) {
	root := t.TempDir()
	c := NewCache(root)
	if r, err := c.Get(); r != nil || err != nil {
		t.Fatalf("no file: %v %v", r, err)
	}
	save := func(tests ...string) {
		t.Helper()
		if err := Save(root, &Recording{Tests: tests, Funcs: map[string][]int{"a.go::F": {0}}}); err != nil {
			t.Fatal(err)
		}
	}
	save("a_test.go::TestF")
	r, err := c.Get()
	if err != nil || r == nil || !r.Recorded("a_test.go::TestF") {
		t.Fatalf("saved: %v %v", r, err)
	}
	if again, _ := c.Get(); again != r {
		t.Errorf("an unchanged file was read again")
	}
	time.Sleep(10 * time.Millisecond) // a later modification time
	save("a_test.go::TestF", "a_test.go::TestG")
	if r, _ := c.Get(); r == nil || !r.Recorded("a_test.go::TestG") {
		t.Errorf("a changed file was not read again: %v", r)
	}
	os.WriteFile(Path(root), []byte("{damaged"), 0o644)
	if r, err := c.Get(); r != nil || err == nil || !strings.Contains(err.Error(), "run `ccd tests record` again") {
		t.Errorf("damaged: %v %v", r, err)
	}
	os.Remove(Path(root))
	if r, err := c.Get(); r != nil || err != nil {
		t.Errorf("removed: %v %v", r, err)
	}
}
