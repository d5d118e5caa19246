package testmap

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/index"
)

// TestRecordFixtures records the suites of each testdata/testmap fixture
// with the real go and python3 and checks the fixture's expect lines.
func TestRecordFixtures(t *testing.T) {
	files, err := filepath.Glob("../../testdata/testmap/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			var expect string
			for _, f := range ar.Files {
				if f.Name == "expect" {
					expect = string(f.Data)
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := index.Build(root, config.Default())
			if err != nil {
				t.Fatal(err)
			}
			rec, err := Record(context.Background(), root, res.Graph, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkProblems(t, rec.Problems, expect)
			// What is saved is what is read.
			if err := Save(root, rec); err != nil {
				t.Fatal(err)
			}
			if rec, err = Load(root); err != nil || rec == nil {
				t.Fatalf("load: %v %v", rec, err)
			}
			checkExpect(t, rec, expect)
		})
	}
}

func checkExpect(t *testing.T, rec *Recording, expect string) {
	t.Helper()
	lines := 0
	for _, line := range strings.Split(expect, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		lines++
		switch {
		case (f[0] == "ran" || f[0] == "!ran") && len(f) == 4 && f[2] == "->":
			tests, known := rec.TestsRan(f[3])
			if !known {
				t.Errorf("%s: the recording does not know %s", line, f[3])
				continue
			}
			if !rec.Recorded(f[1]) {
				t.Errorf("%s: %s did not run in the recording (ran: %q)", line, f[1], rec.Tests)
				continue
			}
			if got := slices.Contains(tests, f[1]); got != (f[0] == "ran") {
				t.Errorf("%s: tests seen running %s: %q", line, f[3], tests)
			}
		case f[0] == "none" && len(f) == 2:
			tests, known := rec.TestsRan(f[1])
			if !known || len(tests) > 0 {
				t.Errorf("%s: known %v, tests %q", line, known, tests)
			}
		case f[0] == "problem":
		case f[0] == "unrecorded" && len(f) == 2:
			if rec.Recorded(f[1]) {
				t.Errorf("%s: recorded", line)
			}
		default:
			t.Fatalf("bad expect line %q", line)
		}
	}
	if lines == 0 {
		t.Fatal("no expect lines")
	}
}

// checkProblems: the recording's problems are those the expect lines
// name ("problem TEXT": a problem holds TEXT), each once.
func checkProblems(t *testing.T, problems []string, expect string) {
	t.Helper()
	var want []string
	for _, line := range strings.Split(expect, "\n") {
		if text, ok := strings.CutPrefix(line, "problem "); ok {
			want = append(want, text)
		}
	}
	matched := make([]bool, len(want))
	for _, p := range problems {
		found := false
		for i, w := range want {
			if strings.Contains(p, w) {
				matched[i], found = true, true
			}
		}
		if !found {
			t.Errorf("unexpected problem: %s", p)
		}
	}
	for i, w := range want {
		if !matched[i] {
			t.Errorf("no problem says %q (problems: %q)", w, problems)
		}
	}
}
