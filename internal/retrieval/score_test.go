package retrieval

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRank(t *testing.T) {
	cases := []struct {
		files, gold []string
		want        int
	}{
		{nil, []string{"a.go"}, 0},
		{[]string{"a.go", "b.go"}, []string{"b.go"}, 2},
		{[]string{"a.go", "b.go"}, []string{"c.go", "a.go"}, 1},
		{[]string{"a.go", "b.go"}, []string{"c.go"}, 0},
	}
	for _, c := range cases {
		if got := rank(c.files, c.gold); got != c.want {
			t.Errorf("rank(%v, %v) = %d, want %d", c.files, c.gold, got, c.want)
		}
	}
}

func TestSummarise(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	outs := []Outcome{
		{CCD: Answer{Rank: 1, Took: ms(1), CPU: ms(1)}},
		{CCD: Answer{Rank: 2, Took: ms(2), CPU: ms(2)}},
		{CCD: Answer{Rank: 8, Took: ms(3), CPU: ms(3)}},
		{CCD: Answer{Rank: 0, Took: ms(40), CPU: ms(4)}},
	}
	m := Summarise(outs, func(o Outcome) Answer { return o.CCD })
	if m.N != 4 || m.At1 != 1 || m.At8 != 3 {
		t.Errorf("counts %+v", m)
	}
	if want := (1 + 0.5 + 0.125) / 4; m.MRR != want {
		t.Errorf("MRR %v, want %v", m.MRR, want)
	}
	if m.P50 != ms(3) || m.P99 != ms(40) || m.CPU50 != ms(3) || m.CPU99 != ms(4) {
		t.Errorf("latencies %+v", m)
	}
}

func TestReadQuestions(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		n          int
		err        string
	}{
		{"heldout.tsv", "# comment\n\ngo\tnl\tparse a header\tnet/http/header.go, net/http/h.go\npy\tsymbol\tfoo\tfoo.py\n", 2, ""},
		{"bad.tsv", "go\tnl\tno gold\n", 0, "4 tab-separated columns"},
		{"kind.tsv", "go\tvague\tq\ta.go\n", 0, "kind nl|symbol"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		qs, err := ReadQuestions(p)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(qs) != c.n {
			t.Fatalf("%s: %d questions, %v", c.name, len(qs), err)
		}
		if q := qs[0]; q.Set != "heldout" || q.Corpus != "go" || len(q.Gold) != 2 || q.Gold[1] != "net/http/h.go" || q.Line != 3 {
			t.Errorf("%s: first question %+v", c.name, q)
		}
	}
}

// TestQuestionFiles: the repository's question sets parse, and no
// held-out question repeats a tuning question.
func TestQuestionFiles(t *testing.T) {
	tuning, err := ReadQuestions("../../testdata/retrieval/questions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	held, err := ReadQuestions("../../testdata/retrieval/heldout.tsv")
	if err != nil {
		t.Fatal(err)
	}
	held2, err := ReadQuestions("../../testdata/retrieval/heldout2.tsv")
	if err != nil {
		t.Fatal(err)
	}
	held3, err := ReadQuestions("../../testdata/retrieval/heldout3.tsv")
	if err != nil {
		t.Fatal(err)
	}
	held4, err := ReadQuestions("../../testdata/retrieval/heldout4.tsv")
	if err != nil {
		t.Fatal(err)
	}
	held5, err := ReadQuestions("../../testdata/retrieval/heldout5.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(tuning) < 60 || len(held) < 40 || len(held2) < 45 || len(held3) < 55 || len(held4) < 55 || len(held5) < 60 {
		t.Errorf("%d tuning and %d, %d, %d, %d, %d held-out questions", len(tuning), len(held), len(held2), len(held3), len(held4), len(held5))
	}
	// heldout3's, heldout4's and heldout5's gold files lie in packages (Go
	// directories, Python top-level modules) no earlier set answers with.
	used := map[string]bool{}
	for _, q := range append(append(tuning, held...), held2...) {
		for _, g := range q.Gold {
			used[q.Corpus+" "+goldUnit(q.Corpus, g)] = true
		}
	}
	for _, set := range []struct {
		name string
		qs   []Question
	}{{"heldout3", held3}, {"heldout4", held4}, {"heldout5", held5}} {
		for _, q := range set.qs {
			for _, g := range q.Gold {
				if used[q.Corpus+" "+goldUnit(q.Corpus, g)] {
					t.Errorf("%s gold %s of %q is in a package an earlier set uses", set.name, g, q.Text)
				}
			}
		}
		for _, q := range set.qs {
			for _, g := range q.Gold {
				used[q.Corpus+" "+goldUnit(q.Corpus, g)] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, q := range tuning {
		seen[strings.ToLower(q.Text)] = true
	}
	for _, q := range append(append(append(append(held, held2...), held3...), held4...), held5...) {
		if seen[strings.ToLower(q.Text)] {
			t.Errorf("held-out question %q is also a tuning or another held-out question", q.Text)
		}
		seen[strings.ToLower(q.Text)] = true
	}
}

func TestReportSets(t *testing.T) {
	outs := []Outcome{
		{Q: Question{Set: "questions", Corpus: "go", Kind: "nl", Text: "a", Gold: []string{"a.go"}}, CCD: Answer{Rank: 1}, Pack: PackOutcome{Band: "high", Rank: 1}},
		{Q: Question{Set: "heldout", Corpus: "go", Kind: "nl", Text: "missed one", Gold: []string{"b.go"}}, CCD: Answer{Files: []string{"c.go"}}, Pack: PackOutcome{Band: "low"}},
	}
	r := Report(outs, nil, nil, "test", [2]float64{1, 2})
	for _, want := range []string{"## `testdata/retrieval/questions.tsv`: 1 questions", "## `testdata/retrieval/heldout.tsv`: 1 questions",
		"| go: missed one | b.go | c.go | - |", "| high | 1 | 1/1 (100%) | 1/1 (100%) |", "load average was 1.0"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

// goldUnit is the package a gold file belongs to: its directory for Go,
// its top-level module or package for Python.
func goldUnit(corpus, gold string) string {
	if corpus == "go" {
		return path.Dir(gold)
	}
	first, _, _ := strings.Cut(gold, "/")
	return strings.TrimSuffix(first, ".py")
}

func TestReportSealed(t *testing.T) {
	outs := []Outcome{
		{Q: Question{Set: "heldout3", Corpus: "go", Kind: "nl", Text: "secret question", Gold: []string{"b.go"}}, CCD: Answer{Files: []string{"c.go"}}, Pack: PackOutcome{Band: "low"}},
	}
	r := Report(outs, nil, nil, "test", [2]float64{1, 2})
	if strings.Contains(r, "secret question") || !strings.Contains(r, "sealed") || !strings.Contains(r, "0/1 (0%)") {
		t.Errorf("a sealed set's report shows its questions or lacks its totals:\n%s", r)
	}
}
