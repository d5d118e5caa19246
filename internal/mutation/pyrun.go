package mutation

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

//go:embed py/*.py
var pyFiles embed.FS

// pyInsert is where a Python function's failing statement goes (see
// py/enumerate.py).
type pyInsert struct {
	Mode   string `json:"mode"` // line, inline, after
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Indent string `json:"indent"`
}

// pyStmt is the statement a mutated Python function starts with.
const pyStmt = "import _ccd_mutant; _ccd_mutant.hit()"

// writePyHelpers writes runner.py, enumerate.py and _ccd_mutant.py into
// dir (outside the corpus tree, so ccd never sees them).
func writePyHelpers(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"runner.py", "enumerate.py", "_ccd_mutant.py"} {
		b, err := pyFiles.ReadFile("py/" + name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pyFuncs lists the functions and methods of the corpus modules (not the
// test modules).
func pyFuncs(ctx context.Context, t *Tree, helpers string) ([]fn, error) {
	args := []string{"-S", filepath.Join(helpers, "enumerate.py"), t.Root}
	for _, m := range t.Corpus.PyModules {
		args = append(args, m+".py")
	}
	out, err := exec.CommandContext(ctx, t.Python, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("enumerate.py: %v", err)
	}
	var raw []struct {
		File     string    `json:"file"`
		Name     string    `json:"name"`
		Line     int       `json:"line"`
		First    int       `json:"first"`
		Exported bool      `json:"exported"`
		Insert   *pyInsert `json:"insert"`
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, err
	}
	var fns []fn
	for _, r := range raw {
		if r.Insert == nil {
			continue
		}
		f := fn{File: r.File, Name: r.Name, Line: r.Line, Exported: r.Exported, py: *r.Insert}
		f.Offset = r.First // the code object's first line, for coverage
		fns = append(fns, f)
	}
	return fns, nil
}

// pyMutate makes f raise on entry; it returns the restore function and a
// mapping from the mutated file's line numbers to the original's.
func pyMutate(root string, f fn) (restore func() error, mapLine func(int) int, err error) {
	file := filepath.Join(root, filepath.FromSlash(f.File))
	orig, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.SplitAfter(string(orig), "\n")
	ins := f.py
	if ins.Line < 1 || ins.Line > len(lines) {
		return nil, nil, fmt.Errorf("%s: line %d out of range", f.File, ins.Line)
	}
	var b strings.Builder
	mapLine = func(l int) int { return l }
	switch ins.Mode {
	case "line", "after":
		at := ins.Line // the new line's number in the mutated file
		if ins.Mode == "after" {
			at = ins.Line + 1
		}
		for i, l := range lines {
			if i == at-1 {
				b.WriteString(ins.Indent + pyStmt + "\n")
			}
			b.WriteString(l)
		}
		mapLine = func(l int) int {
			switch {
			case l < at:
				return l
			case l == at:
				return f.Line
			}
			return l - 1
		}
	case "inline":
		for i, l := range lines {
			if i == ins.Line-1 {
				if ins.Col > len(l) {
					return nil, nil, fmt.Errorf("%s:%d: column %d out of range", f.File, ins.Line, ins.Col)
				}
				l = l[:ins.Col] + pyStmt + "; " + l[ins.Col:]
			}
			b.WriteString(l)
		}
	default:
		return nil, nil, fmt.Errorf("unknown insertion mode %q", ins.Mode)
	}
	restore = func() error { return os.WriteFile(file, orig, 0o644) }
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return nil, nil, err
	}
	return restore, mapLine, nil
}

// pyRunTimeout bounds one run of the test modules.
const pyRunTimeout = 120 * time.Second

// pyRun runs the corpus's test modules (only the tests in only, when not
// nil), resuming after a timeout with the tests that have not finished.
// defs receives where each test is defined; called, with profile, the
// corpus functions that ran ("file:firstline").
type pyRun struct {
	t        *Tree
	helpers  string
	work     string
	mutated  string          // the mutated file (relative), if any
	mapLine  func(int) int   // its line mapping
	defs     map[string]Test // filled from the events
	called   map[string]bool
	fixtures []string // failed fixtures (setUpClass ...)
	// orphanHits are call paths recorded outside any test (in class
	// fixtures).
	orphanHits []string
	importErr  []string
}

func (r *pyRun) run(ctx context.Context, only []string, profile bool, res *runResult) error {
	remaining := only
	for round := 0; ; round++ {
		started, finished, timedOut, err := r.once(ctx, remaining, profile && round == 0, res)
		if err != nil {
			return err
		}
		if !timedOut {
			return nil
		}
		res.TimedOut = true
		if remaining == nil {
			return fmt.Errorf("the baseline suite timed out")
		}
		var next []string
		for _, id := range remaining {
			if started[id] && !finished[id] {
				res.get(id).Failed = true
			} else if !finished[id] {
				next = append(next, id)
			}
		}
		if len(next) == len(remaining) || len(next) == 0 {
			for _, id := range next {
				res.get(id).Failed = true
			}
			return nil
		}
		remaining = next
	}
}

func (r *pyRun) once(ctx context.Context, only []string, profile bool, res *runResult) (started, finished map[string]bool, timedOut bool, err error) {
	out := filepath.Join(r.work, "events.jsonl")
	args := []string{"-S", filepath.Join(r.helpers, "runner.py"), "--root", r.t.Root,
		"--modules", strings.Join(r.t.Corpus.PyModules, ","), "--tests", strings.Join(pyTestModules(r.t.Corpus), ","),
		"--out", out}
	if only != nil {
		f := filepath.Join(r.work, "only.txt")
		if err := os.WriteFile(f, []byte(strings.Join(only, "\n")+"\n"), 0o644); err != nil {
			return nil, nil, false, err
		}
		args = append(args, "--only", f)
	}
	if profile {
		args = append(args, "--profile")
	}
	cctx, cancel := context.WithTimeout(ctx, pyRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, r.t.Python, args...)
	cmd.Dir = r.work
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONHASHSEED=0")
	cmd.WaitDelay = 5 * time.Second
	outb, runErr := cmd.CombinedOutput()
	if cctx.Err() != nil {
		timedOut = true
	}
	f, err := os.Open(out)
	if err != nil {
		if runErr != nil {
			// The runner died before writing anything (an import of
			// unittest itself failed).
			return map[string]bool{}, map[string]bool{}, false, nil
		}
		return nil, nil, false, err
	}
	defer f.Close()
	started, finished = map[string]bool{}, map[string]bool{}
	done := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct {
			Module      string  `json:"module"`
			File        *string `json:"file"`
			ImportError string  `json:"import_error"`
			Start       string  `json:"start"`
			Test        string  `json:"test"`
			Outcome     string  `json:"outcome"`
			Qual        string  `json:"qual"`
			Line        int     `json:"line"`
			Fixture     string  `json:"fixture"`
			Hit         *string `json:"hit"`
			Path        [][]any `json:"path"`
			Called      [][]any `json:"called"`
			Done        bool    `json:"done"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue
		}
		switch {
		case ev.Module != "":
			if ev.File == nil || !strings.HasPrefix(*ev.File, r.t.Root+string(filepath.Separator)) {
				got := "<none>"
				if ev.File != nil {
					got = *ev.File
				}
				return nil, nil, false, fmt.Errorf("module %s came from %s, not from the corpus copy %s", ev.Module, got, r.t.Root)
			}
		case ev.ImportError != "":
			r.importErr = append(r.importErr, ev.ImportError)
		case ev.Start != "":
			started[ev.Start] = true
		case ev.Test != "":
			finished[ev.Test] = true
			o := res.get(ev.Test)
			o.Ran = true
			switch ev.Outcome {
			case "fail", "error", "xpass":
				o.Failed = true
			case "skip":
				o.Skipped = true
			}
			if _, ok := r.defs[ev.Test]; !ok && ev.File != nil {
				r.defs[ev.Test] = Test{ID: ev.Test, File: r.rel(*ev.File), Qual: ev.Qual, Line: ev.Line}
			}
		case ev.Fixture != "":
			r.fixtures = append(r.fixtures, ev.Fixture)
		case ev.Path != nil:
			p := r.path(ev.Path)
			if ev.Hit == nil {
				r.orphanHits = append(r.orphanHits, p)
			} else if o := res.get(*ev.Hit); o.Path == "" {
				o.Path = p
			}
		case ev.Called != nil:
			for _, c := range ev.Called {
				if len(c) >= 2 {
					file, _ := c[0].(string)
					line, _ := c[1].(float64)
					r.called[r.rel(file)+":"+strconv.Itoa(int(line))] = true
				}
			}
		case ev.Done:
			done = true
		}
	}
	if !done && !timedOut && runErr == nil {
		return nil, nil, false, fmt.Errorf("runner ended without finishing: %s", outb)
	}
	return started, finished, timedOut, sc.Err()
}

// rel makes a file path relative to the corpus root, or "~path" outside.
func (r *pyRun) rel(file string) string {
	if rel, ok := strings.CutPrefix(file, r.t.Root+string(filepath.Separator)); ok {
		return filepath.ToSlash(rel)
	}
	return "~" + file
}

// path renders a recorded Python call path like a Go one: frames in the
// corpus "file:line qualname" (lines of the mutated file mapped back),
// runs of frames outside it as one "~module.qualname".
func (r *pyRun) path(frames [][]any) string {
	var parts []string
	outside := false
	for _, fr := range frames {
		if len(fr) < 3 {
			continue
		}
		file, _ := fr[0].(string)
		line, _ := fr[1].(float64)
		qual, _ := fr[2].(string)
		rel := r.rel(file)
		if !strings.HasPrefix(rel, "~") {
			l := int(line)
			if rel == r.mutated && r.mapLine != nil {
				l = r.mapLine(l)
			}
			parts = append(parts, fmt.Sprintf("%s:%d %s", rel, l, qual))
			outside = false
			continue
		}
		if !outside {
			mod := strings.TrimSuffix(filepath.Base(file), ".py")
			parts = append(parts, "~"+mod+"."+qual)
			outside = true
		}
	}
	return strings.Join(parts, pathSep)
}

func pyTestModules(c Corpus) []string {
	var out []string
	for _, m := range c.PyModules {
		out = append(out, "test_"+m)
	}
	return out
}
