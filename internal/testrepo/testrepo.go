// Package testrepo writes the txtar fixture repositories of testdata/ to
// disk for tests: one place for what every package's tests need.
package testrepo

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// Meta are the sections that describe a fixture rather than belong to it.
var Meta = map[string]bool{"expect": true, "golden": true}

// Read parses a txtar archive, failing the test when it cannot.
func Read(t testing.TB, archive string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatalf("fixture %s: %v", archive, err)
	}
	return ar
}

// Write writes the files of ar, leaving out the Meta sections, under dir
// and returns dir.
func Write(t testing.TB, ar *txtar.Archive, dir string) string {
	t.Helper()
	for _, f := range ar.Files {
		if Meta[f.Name] {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Unpack writes the archive at path into a new temporary directory
// (symlinks resolved, so paths compare equal to what the daemon reports).
func Unpack(t testing.TB, path string) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return Write(t, Read(t, path), dir)
}
