package breakage

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

//go:embed py/breakage.py
var pyHelper embed.FS

// pyRules are pyright's rules for a call whose arguments do not fit:
// wrong arity, a missing argument, an unknown keyword (reportCallIssue),
// an argument of the wrong type (reportArgumentType). Only they are
// enabled; every other check is off.
var pyRules = map[string]bool{"reportCallIssue": true, "reportArgumentType": true}

// pyChecker runs pyright in watch mode on a Python corpus: one process
// that re-checks what a change affects and prints its whole report (JSON)
// after each change. The copies of standard-library modules are seen as
// themselves, not as typeshed's stubs of them: pyright runs with a copy of
// its bundled typeshed from which those stubs are removed.
type pyChecker struct {
	t       *Tree
	helper  string // py/breakage.py, written out
	cmd     *exec.Cmd
	docs    chan pyDoc
	version string
	base    map[string]bool
	nbase   int
	bin     string
	last    map[string]bool // the errors of the last report
	cands   []*candidate
	log     func(string, ...any)
}

type pyDiag struct {
	File     string `json:"file"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Rule     string `json:"rule"`
	Range    struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
}

type pyDoc struct {
	Version string   `json:"version"`
	Diags   []pyDiag `json:"generalDiagnostics"`
	err     error
}

func (d pyDiag) key() string {
	return fmt.Sprintf("%s:%d:%d:%s:%s", d.File, d.Range.Start.Line, d.Range.Start.Character, d.Rule, d.Message)
}

// pyright returns the pyright that scripts/install-lsp.sh installs.
func pyright(repo string) (string, error) {
	p := filepath.Join(repo, ".tools", "node", "node_modules", ".bin", "pyright")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("pyright is not installed (%s); run scripts/install-lsp.sh", p)
	}
	return p, nil
}

func newPyChecker(ctx context.Context, t *Tree, repo string, log func(string, ...any)) (*pyChecker, error) {
	bin, err := pyright(repo)
	if err != nil {
		return nil, err
	}
	work := t.Root + ".pyright"
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	helper := filepath.Join(work, "breakage.py")
	b, _ := pyHelper.ReadFile("py/breakage.py")
	if err := os.WriteFile(helper, b, 0o644); err != nil {
		return nil, err
	}
	typeshed, err := shadowedTypeshed(bin, work, t.Corpus.PyModules)
	if err != nil {
		return nil, err
	}
	conf := map[string]any{
		"typeCheckingMode": "off",
		"pythonVersion":    strings.Join(strings.Split(t.PyVersion, ".")[:2], "."),
		"typeshedPath":     typeshed,
	}
	for r := range pyRules {
		conf[r] = "error"
	}
	cb, _ := json.MarshalIndent(conf, "", "  ")
	if err := os.WriteFile(filepath.Join(t.Root, "pyrightconfig.json"), cb, 0o644); err != nil {
		return nil, err
	}
	p := &pyChecker{t: t, helper: helper, docs: make(chan pyDoc, 16), log: log, bin: bin}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("pyright --version: %v", err)
	}
	p.version = strings.TrimSpace(string(out))

	// The functions and their mutations, from the helper.
	listing, err := p.run(ctx, nil, "list", t.Root)
	if err != nil {
		return nil, err
	}
	var fs []struct {
		File, Name, Short, Cls string
		Line                   int
		NameCalls              int `json:"name_calls"`
		Muts                   []Mutation
	}
	if err := json.Unmarshal(listing, &fs); err != nil {
		return nil, fmt.Errorf("breakage.py list: %v", err)
	}
	for _, f := range fs {
		c := &candidate{File: f.File, Line: f.Line, Name: f.Name, Short: f.Short, NameCalls: f.NameCalls, Muts: f.Muts, key: f.Cls}
		p.cands = append(p.cands, c)
	}

	p.cmd = exec.Command(bin, "--watch", "--outputjson")
	p.cmd.Dir = t.Root
	p.cmd.Env = append(os.Environ(), "NODE_OPTIONS=--max-old-space-size=4096")
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	p.cmd.Stderr = &stderr
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go p.read(stdout)
	d, err := p.next(ctx, 10*time.Minute)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("pyright --watch: %v %s", err, stderr.String())
	}
	p.base = map[string]bool{}
	for _, x := range d.Diags {
		if x.Severity == "error" {
			p.base[x.key()] = true
		}
	}
	p.nbase = len(p.base)
	return p, nil
}

// shadowedTypeshed copies pyright's bundled typeshed without the stubs of
// the corpus's standard-library modules, so that imports of them resolve
// to the corpus's copies.
func shadowedTypeshed(bin, work string, modules []string) (string, error) {
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return "", err
	}
	src := filepath.Join(filepath.Dir(real), "dist", "typeshed-fallback", "stdlib")
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("pyright's bundled typeshed: %v", err)
	}
	dst := filepath.Join(work, "typeshed")
	os.RemoveAll(dst)
	if err := copyTree(src, filepath.Join(dst, "stdlib"), nil); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dst, "stubs"), 0o755); err != nil {
		return "", err
	}
	drop := map[string]bool{}
	for _, m := range modules {
		drop[m] = true
		os.RemoveAll(filepath.Join(dst, "stdlib", m))
		os.Remove(filepath.Join(dst, "stdlib", m+".pyi"))
	}
	vf := filepath.Join(dst, "stdlib", "VERSIONS")
	b, err := os.ReadFile(vf)
	if err != nil {
		return "", err
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		name, _, _ := strings.Cut(l, ":")
		top, _, _ := strings.Cut(strings.TrimSpace(name), ".")
		if !drop[top] {
			keep = append(keep, l)
		}
	}
	return dst, os.WriteFile(vf, []byte(strings.Join(keep, "\n")), 0o644)
}

// read splits pyright's output into its JSON reports: each starts with a
// "{" line and ends with a "}" line; other lines are dropped.
func (p *pyChecker) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var buf bytes.Buffer
	in := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && line == "{":
			in = true
			buf.Reset()
			buf.WriteString(line + "\n")
		case in:
			buf.WriteString(line + "\n")
			if line == "}" {
				in = false
				var d pyDoc
				if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
					d.err = err
				}
				p.docs <- d
			}
		}
	}
	close(p.docs)
}

// next waits for the next report, then for the reports that follow it
// within a quiet second (one change can be seen as several), and returns
// the last.
func (p *pyChecker) next(ctx context.Context, limit time.Duration) (pyDoc, error) {
	var d pyDoc
	select {
	case x, ok := <-p.docs:
		if !ok {
			return d, fmt.Errorf("pyright exited")
		}
		d = x
	case <-time.After(limit):
		return d, fmt.Errorf("no report from pyright in %s", limit)
	case <-ctx.Done():
		return d, ctx.Err()
	}
	for {
		select {
		case x, ok := <-p.docs:
			if !ok {
				return d, fmt.Errorf("pyright exited")
			}
			d = x
		case <-time.After(1500 * time.Millisecond):
			return d, d.err
		}
	}
}

func (p *pyChecker) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, p.t.Python, append([]string{p.helper}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("breakage.py %s: %v %s", args[0], err, stderr.String())
	}
	return out, nil
}

func (p *pyChecker) Checker() string {
	return p.version + " (--watch), rules " + strings.Join(sortedKeys(pyRules), ", ") + " only, typeshed without the corpus's stdlib stubs"
}

func (p *pyChecker) Baseline() int            { return p.nbase }
func (p *pyChecker) Candidates() []*candidate { return p.cands }

func (p *pyChecker) Close() error {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
	return nil
}

func (p *pyChecker) rel(abs string) string {
	r, err := filepath.Rel(p.t.Root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

// Check waits for pyright's report on the mutant and attributes its new
// errors to the calls of c's function.
func (p *pyChecker) Check(ctx context.Context, c *candidate) ([]Site, []Diag, error) {
	d, err := p.next(ctx, 5*time.Minute)
	if err != nil {
		return nil, nil, err
	}
	type rd struct {
		File    string `json:"file"`
		SL      int    `json:"sl"`
		SC      int    `json:"sc"`
		EL      int    `json:"el"`
		EC      int    `json:"ec"`
		Rule    string `json:"rule"`
		Message string `json:"message"`
	}
	var diags []rd
	p.last = errorKeys(d)
	for _, x := range d.Diags {
		if x.Severity != "error" || p.base[x.key()] || !pyRules[x.Rule] {
			continue
		}
		diags = append(diags, rd{p.rel(x.File), x.Range.Start.Line, x.Range.Start.Character, x.Range.End.Line, x.Range.End.Character, x.Rule, x.Message})
	}
	if len(diags) == 0 {
		return nil, nil, nil
	}
	req, _ := json.Marshal(map[string]any{
		"target": map[string]any{"file": c.File, "line": c.Line, "short": c.Short, "cls": c.key},
		"diags":  diags,
	})
	out, err := p.run(ctx, req, "attribute", p.t.Root)
	if err != nil {
		return nil, nil, err
	}
	var res struct {
		Breaks []Site
		Other  []Diag
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, nil, err
	}
	return res.Breaks, res.Other, nil
}

// Restored waits for pyright's report on the restored corpus and checks
// that it is the baseline's again.
func (p *pyChecker) Restored(ctx context.Context) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		d, err := p.next(ctx, time.Until(deadline))
		if err != nil {
			return err
		}
		n, extra := 0, ""
		for _, x := range d.Diags {
			if x.Severity != "error" {
				continue
			}
			n++
			if !p.base[x.key()] && extra == "" {
				extra = x.key()
			}
		}
		if n == p.nbase && extra == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pyright's report after the restore differs from the baseline (%d errors, was %d; %s)", n, p.nbase, extra)
		}
		p.log("pyright: report after the restore differs from the baseline (%d errors, was %d; %s); waiting for another", n, p.nbase, extra)
	}
}

func errorKeys(d pyDoc) map[string]bool {
	out := map[string]bool{}
	for _, x := range d.Diags {
		if x.Severity == "error" {
			out[x.key()] = true
		}
	}
	return out
}

// CrossCheck runs a fresh pyright (not in watch mode) on the mutant: its
// errors must be the ones the watching one reported.
func (p *pyChecker) CrossCheck(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, p.bin, "--outputjson")
	cmd.Dir = p.t.Root
	out, err := cmd.Output()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return "", fmt.Errorf("pyright: %v", err)
		}
	}
	var d pyDoc
	if err := json.Unmarshal(out, &d); err != nil {
		return "", fmt.Errorf("pyright --outputjson: %v", err)
	}
	got := errorKeys(d)
	var diff []string
	for k := range got {
		if !p.last[k] {
			diff = append(diff, "only the fresh run: "+k)
		}
	}
	for k := range p.last {
		if !got[k] {
			diff = append(diff, "only --watch: "+k)
		}
	}
	sort.Strings(diff)
	if len(diff) > 4 {
		diff = append(diff[:4], fmt.Sprintf("+%d more", len(diff)-4))
	}
	return strings.Join(diff, "; "), nil
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
