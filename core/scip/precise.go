package scip

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccd-dev/ccd/core/words"
)

// ErrOwnIndex says an index was written by ccd itself: importing it would
// turn ccd's own guesses into "precise" edges.
var ErrOwnIndex = errors.New("written by ccd itself (ccd export --format scip); precise mode reads indexes made by scip-go, scip-typescript, scip-python or another precise indexer")

// Precise is a precise index loaded for a workspace.
type Precise struct {
	Index *Index
	File  string    // absolute path
	Made  time.Time // the file's modification time: the index's age
}

// Load reads the precise index file of the workspace at root (file may be
// relative to root) and rebases its document paths onto the root: an
// index made in a directory below the root (a package of a monorepo) has
// its paths prefixed with that directory. The project root an index
// records is used when it lies inside the workspace, else the directory
// holding the file (an index made on another machine, in CI).
func Load(root, file string) (*Precise, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("scip index: %w", err)
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(absRoot, file)
	}
	st, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("scip index: %w", err)
	}
	idx, err := ReadFile(file)
	if err != nil {
		return nil, err
	}
	if idx.Metadata.ToolName == "ccd" {
		return nil, fmt.Errorf("%s: %w", file, ErrOwnIndex)
	}
	base := filepath.Dir(file)
	if u, err := url.Parse(idx.Metadata.ProjectRoot); err == nil && u.Scheme == "file" && u.Path != "" {
		if r, ok := within(absRoot, filepath.FromSlash(u.Path)); ok {
			base = filepath.Join(absRoot, r)
		}
	}
	prefix, ok := within(absRoot, base)
	if !ok {
		return nil, fmt.Errorf("%s: the index's project root %s is outside the workspace %s", file, base, absRoot)
	}
	if prefix != "." {
		p := filepath.ToSlash(prefix)
		for i := range idx.Documents {
			idx.Documents[i].RelativePath = path.Join(p, idx.Documents[i].RelativePath)
		}
	}
	return &Precise{Index: idx, File: file, Made: st.ModTime()}, nil
}

// within returns p relative to root when p is root or below it.
func within(root, p string) (string, bool) {
	r, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return r, true
}

// ChangedSince returns a test of whether a workspace file (slash path
// relative to root) was modified after t (or is gone), for
// ImportOptions.Changed.
func ChangedSince(root string, t time.Time) func(rel string) bool {
	return func(rel string) bool {
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err != nil || st.ModTime().After(t)
	}
}

// Summary is the line that tells a reader where precise edges come from:
// the index file, its tool and age, and what the import did.
func Summary(file string, made time.Time, st ImportStats) string {
	changed := ""
	if st.Changed > 0 {
		changed = fmt.Sprintf("; %d files changed since use tree-sitter", st.Changed)
	}
	return fmt.Sprintf("Precise index: %s (%s, %s old): %d call sites confirmed, %d added, %d redirected%s.",
		filepath.Base(file), st.Tool, words.Age(time.Since(made)), st.Confirmed, st.Added, st.Redirected, changed)
}
