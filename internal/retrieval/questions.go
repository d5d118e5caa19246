// Package retrieval measures ccd's retrieval (package core/search) on
// questions with known answers: natural-language questions and exact
// symbol lookups over GOROOT/src and the Python stdlib
// (testdata/retrieval/questions.tsv, written from what each file does),
// with recall@1, recall@8 and MRR of the gold files, side by side with a
// keyword grep loop, the baseline an agent without ccd falls back to.
package retrieval

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Question is one line of the question set.
type Question struct {
	// Set names the question file the question came from (its base name
	// without extension: "questions", "heldout"); sets are reported apart.
	Set    string
	Corpus string   // go or py
	Kind   string   // nl or symbol
	Text   string   // the question as a person types it
	Gold   []string // the files that implement the answer, relative to the corpus root
	Line   int
}

// ReadQuestions reads a question file: tab-separated corpus, kind,
// question and gold (comma-separated paths); '#' lines are comments. Each
// question's Set is the file's base name without its extension.
func ReadQuestions(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	defer f.Close()
	set := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var out []Question
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated columns, got %d", path, n, len(cols))
		}
		q := Question{Set: set, Corpus: cols[0], Kind: cols[1], Text: cols[2], Line: n}
		for _, g := range strings.Split(cols[3], ",") {
			if g = strings.TrimSpace(g); g != "" {
				q.Gold = append(q.Gold, g)
			}
		}
		if (q.Corpus != "go" && q.Corpus != "py") || (q.Kind != "nl" && q.Kind != "symbol") || len(q.Gold) == 0 {
			return nil, fmt.Errorf("%s:%d: want corpus go|py, kind nl|symbol and a gold file", path, n)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}
