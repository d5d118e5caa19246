package index

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccd-dev/ccd/core/resolve"
)

// TestIncrementalCorpus is the editor-like equivalence test on a real tree
// (CCD_EQUIV_ROOT, e.g. GOROOT/src or the Python standard library, copied
// first), where an update resolves a few files among thousands: after each
// edit, the graph UpdateFiles made must equal a resolution of the same
// facts from scratch. CCD_EQUIV_STEPS sets the number of edits (default
// 30). It is opt-in: a corpus build takes a while.
func TestIncrementalCorpus(t *testing.T) {
	src := os.Getenv("CCD_EQUIV_ROOT")
	if src == "" {
		t.Skip("set CCD_EQUIV_ROOT to a source tree to run the corpus equivalence test")
	}
	steps := 30
	if n, err := strconv.Atoi(os.Getenv("CCD_EQUIV_STEPS")); err == nil {
		steps = n
	}
	root := filepath.Join(t.TempDir(), "ws")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	res, err := Build(root, benchConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(int64(len(res.Files))))
	modes := map[string]int{}
	for step := 0; step < steps; step++ {
		f := res.Files[rng.Intn(len(res.Files))]
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		data, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		// Lines, definitions and imports come from this file and another
		// of the same language.
		other := res.Files[rng.Intn(len(res.Files))]
		for k := 0; k < 20 && other.Lang != f.Lang; k++ {
			other = res.Files[rng.Intn(len(res.Files))]
		}
		odata, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(other.Path)))
		ext := filepath.Ext(f.Path)
		c := &corpus{byExt: map[string][]string{ext: {string(data), string(odata)}}}
		c.idents = identRe.FindAllString(string(odata), 200)
		if len(c.idents) == 0 {
			c.idents = []string{"x"}
		}
		e := edits[rng.Intn(len(edits))]
		lines := e.fn(rng, c, ext, strings.Split(string(data), "\n"))
		if err := os.WriteFile(abs, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		next, _, ok, err := res.UpdateFiles([]string{f.Path})
		if err != nil || !ok {
			t.Fatalf("step %d (%s %s): UpdateFiles ok=%v err=%v", step, e.name, f.Path, ok, err)
		}
		st := next.ResolveStats()
		modes[st.Mode]++
		want := resolve.Build(next.Files, next.Project).Text()
		if got := next.Graph.Text(); got != want {
			t.Fatalf("step %d (%s %s, %+v): graph differs from resolving from scratch:\n%s", step, e.name, f.Path, st,
				lineDiff(want, got))
		}
		t.Logf("step %d: %s %s: %+v", step, e.name, f.Path, st)
		res = next
	}
	t.Logf("%d edits on %s: modes %v", steps, src, fmt.Sprint(modes))
}
