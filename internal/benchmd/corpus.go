package benchmd

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Corpus is a source tree to measure.
type Corpus struct {
	Name string // as shown in the tables, e.g. "GOROOT/src"
	Dir  string // the original tree (only read)
}

// copySkip are directories never copied: the Python installation's
// third-party packages and byte-code caches are not the standard library.
var copySkip = []string{"site-packages", "__pycache__", ".git", ".codecanvas"}

// copyTree copies src to dst (which must not exist): regular files and
// directories, symlinks recreated as they are (never followed), nothing
// under copySkip. It returns the bytes copied.
func copyTree(src, dst string) (int64, error) {
	var total int64
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copy %s: %w", p, err)
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if p != src && slices.Contains(copySkip, d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(out, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return fmt.Errorf("copy %s: %w", p, err)
			}
			return os.Symlink(target, out)
		case d.Type().IsRegular():
			n, err := copyFile(p, out)
			total += n
			return err
		}
		return nil // sockets, devices: not source
	})
	return total, err
}

func copyFile(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, fmt.Errorf("copy %s: %w", src, err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return 0, fmt.Errorf("copy %s: %w", src, err)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm()|0o200)
	if err != nil {
		return 0, fmt.Errorf("copy %s: %w", src, err)
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("copy %s: %w", src, err)
	}
	return n, nil
}

// Export is the part of `GET /v1/export` the harness uses.
type Export struct {
	Nodes []ExportNode `json:"nodes"`
	Edges []struct {
		From string `json:"from"`
		To   string `json:"to"`
		Type string `json:"type"`
	} `json:"edges"`
}

// ExportNode is one node of the export.
type ExportNode struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	Qual      string `json:"qual"`
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Test      bool   `json:"test"`
}

// ParseExport decodes the graph export.
func ParseExport(r io.Reader) (*Export, error) {
	var e Export
	if err := json.NewDecoder(r).Decode(&e); err != nil {
		return nil, fmt.Errorf("decode export: %w", err)
	}
	return &e, nil
}

// Target is the symbol the daemon measurements revolve around.
type Target struct {
	ExportNode
	Callers  int    // every call edge into it
	FromCode int    // those from non-test code
	Name     string // the last part of the label, what a Grep would look for
}

// PickTarget chooses the function with the most callers from non-test
// code (test functions, test files and anything under a test, tests or
// testdata directory do not count: otherwise assertion helpers win),
// itself outside tests, with a body of at
// least three lines (ties: the smaller id), so that impact, search, read
// and edit cards all have something to say. Callers is its whole count.
func PickTarget(e *Export) (Target, error) {
	testFiles := map[string]bool{}
	byID := make(map[string]*ExportNode, len(e.Nodes))
	for i := range e.Nodes {
		n := &e.Nodes[i]
		byID[n.ID] = n
		if n.Kind == "module" && n.Test {
			testFiles[n.Path] = true
		}
	}
	inTests := func(n *ExportNode) bool {
		p := "/" + n.Path
		return n.Test || testFiles[n.Path] ||
			strings.Contains(p, "/testdata/") || strings.Contains(p, "/test/") || strings.Contains(p, "/tests/")
	}
	callers, fromCode := map[string]int{}, map[string]int{}
	for _, ed := range e.Edges {
		if ed.Type != "call" {
			continue
		}
		callers[ed.To]++
		if from := byID[ed.From]; from != nil && !inTests(from) {
			fromCode[ed.To]++
		}
	}
	best := -1
	for i, n := range e.Nodes {
		if n.Kind != "func" || inTests(&e.Nodes[i]) || n.EndLine-n.StartLine < 3 {
			continue
		}
		if best < 0 || fromCode[n.ID] > fromCode[e.Nodes[best].ID] ||
			(fromCode[n.ID] == fromCode[e.Nodes[best].ID] && n.ID < e.Nodes[best].ID) {
			best = i
		}
	}
	if best < 0 || fromCode[e.Nodes[best].ID] == 0 {
		return Target{}, fmt.Errorf("no function called from non-test code in the graph (%d nodes): the corpus needs code that calls its own functions", len(e.Nodes))
	}
	n := e.Nodes[best]
	name := n.Label
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return Target{ExportNode: n, Callers: callers[n.ID], FromCode: fromCode[n.ID], Name: name}, nil
}

// Files lists the module paths of the export: the files ccd parsed.
func (e *Export) Files() []string {
	var out []string
	for _, n := range e.Nodes {
		if n.Kind == "module" {
			out = append(out, n.Path)
		}
	}
	slices.Sort(out)
	return out
}
