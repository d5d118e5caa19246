package testmap

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/core/words"
)

//go:embed recording.py
var pyRecorder []byte

// pyEvent is one line of recording.py's output.
type pyEvent struct {
	Test    []any   `json:"test"`
	ID      string  `json:"id"`
	Ran     [][]any `json:"ran"`
	Problem string  `json:"problem"`
	Done    *int    `json:"done"`
}

// recordPython runs the unittest suites of the project at root under
// recording.py and adds what each test ran to b.
func recordPython(ctx context.Context, root string, b *builder, opt Options) error {
	python := opt.Python
	if python == "" {
		p, err := exec.LookPath("python3")
		if err != nil {
			return fmt.Errorf("python suites: no python3 on PATH (%v)", err)
		}
		python = p
	}
	var files []string
	for _, p := range b.loc.g.Files() {
		if strings.HasSuffix(p, ".py") {
			files = append(files, p)
		}
	}
	b.know(files)
	tmp, err := os.MkdirTemp("", "ccd-testmap-py-")
	if err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "recording.py")
	if err := os.WriteFile(script, pyRecorder, 0o644); err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	out := filepath.Join(tmp, "out.jsonl")
	cmd := exec.CommandContext(ctx, python, script, root, out)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	log, runErr := cmd.CombinedOutput()
	f, err := os.Open(out)
	if err != nil {
		return fmt.Errorf("python suites: %v: %s", runErr, words.LastLine(string(log)))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	done := false
	tests := 0
	for sc.Scan() {
		var ev pyEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch {
		case ev.Problem != "":
			b.problem("python: %s", ev.Problem)
		case ev.Done != nil:
			done = true
		case len(ev.Test) == 3:
			file, qual, line := str(ev.Test[0]), str(ev.Test[1]), num(ev.Test[2])
			test := b.loc.pyFunc(filepath.ToSlash(file), line, qual)
			if test < 0 || !b.loc.g.Nodes[test].Test {
				continue
			}
			var funcs []int
			for _, r := range ev.Ran {
				if len(r) != 3 {
					continue
				}
				if fn := b.loc.pyFunc(filepath.ToSlash(str(r[0])), num(r[1]), str(r[2])); fn >= 0 {
					funcs = append(funcs, fn)
				}
			}
			b.ran(test, funcs)
			tests++
		}
	}
	if !done {
		b.problem("python: the suites did not finish (%v): %s", runErr, words.LastLine(string(log)))
	}
	b.suite("%s: unittest and plain pytest-style tests (%d tests)", filepath.Base(python), tests)
	return sc.Err()
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}
