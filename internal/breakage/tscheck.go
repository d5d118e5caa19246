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
	"regexp"
	"sort"
	"strings"
)

//go:embed ts/breakage.js
var tsHelper embed.FS

// TypeScriptVersion is the compiler the TypeScript corpora are checked
// with, installed into <repo>/.tools/breakage (the TypeScript that
// scripts/install-lsp.sh installs is the native preview, without the
// compiler API).
const TypeScriptVersion = "5.9.3"

// tsChecker drives ts/breakage.js: the TypeScript compiler's API (what
// `tsc --noEmit` runs) in one node process that keeps the parsed files of
// the corpus and checks the whole program again for each mutant.
type tsChecker struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	stderr  *bytes.Buffer
	version string
	nbase   int
	cands   []*candidate
	root    string
	tsc     string   // bin/tsc of the same TypeScript
	last    []string // every error of the last check: file:line:code
}

// typescript returns the directory of node_modules holding TypeScript
// TypeScriptVersion under <repo>/.tools/breakage, installing it with npm
// when it is missing.
func typescript(ctx context.Context, repo string, log func(string, ...any)) (string, error) {
	dir := filepath.Join(repo, ".tools", "breakage")
	pj := filepath.Join(dir, "node_modules", "typescript", "package.json")
	var v struct{ Version string }
	if b, err := os.ReadFile(pj); err == nil && json.Unmarshal(b, &v) == nil && v.Version == TypeScriptVersion {
		return filepath.Join(dir, "node_modules"), nil
	}
	log("installing typescript@%s into %s (npm)", TypeScriptVersion, dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--silent", "--no-audit", "--no-fund", "--save-exact", "--prefix", dir, "typescript@"+TypeScriptVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install typescript@%s: %v %s", TypeScriptVersion, err, out)
	}
	return filepath.Join(dir, "node_modules"), nil
}

func newTSChecker(ctx context.Context, t *Tree, repo string, log func(string, ...any)) (*tsChecker, error) {
	mods, err := typescript(ctx, repo, log)
	if err != nil {
		return nil, err
	}
	helper := t.Root + ".breakage.js"
	b, _ := tsHelper.ReadFile("ts/breakage.js")
	if err := os.WriteFile(helper, b, 0o644); err != nil {
		return nil, err
	}
	c := &tsChecker{stderr: &bytes.Buffer{}, root: t.Root, tsc: filepath.Join(mods, "typescript", "bin", "tsc")}
	c.cmd = exec.Command("node", "--max-old-space-size=4096", "--stack-size=8000", helper, mods, t.Root)
	c.cmd.Stderr = c.stderr
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.out = bufio.NewReaderSize(stdout, 1<<20)
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	var first struct {
		Version    string
		Baseline   int
		Candidates []struct {
			File, Name, Short string
			Line, Pos         int
			Overloads         int
			Calls             []Site
			Muts              []Mutation
		}
	}
	if err := c.read(&first); err != nil {
		c.Close()
		return nil, err
	}
	c.version, c.nbase = first.Version, first.Baseline
	for _, f := range first.Candidates {
		c.cands = append(c.cands, &candidate{File: f.File, Line: f.Line, Name: f.Name, Short: f.Short, Calls: f.Calls, Muts: f.Muts,
			Overloads: f.Overloads, key: tsKey{f.File, f.Pos}})
	}
	return c, nil
}

// tsKey is a function by where its name is (UTF-16 offset in its file).
type tsKey struct {
	File string `json:"file"`
	Pos  int    `json:"pos"`
}

func (c *tsChecker) read(v any) error {
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("breakage.js: %v %s", err, strings.TrimSpace(c.stderr.String()))
	}
	return json.Unmarshal(line, v)
}

func (c *tsChecker) Checker() string {
	return "TypeScript " + c.version + " compiler API (the checks of tsc --noEmit), tsconfig: not strict"
}
func (c *tsChecker) Baseline() int                      { return c.nbase }
func (c *tsChecker) Candidates() []*candidate           { return c.cands }
func (c *tsChecker) Restored(ctx context.Context) error { return nil }

func (c *tsChecker) Check(ctx context.Context, cd *candidate) ([]Site, []Diag, error) {
	req, _ := json.Marshal(cd.key)
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		return nil, nil, err
	}
	var res struct {
		Breaks []Site
		Other  []Diag
		All    []string
		Error  string
	}
	if err := c.read(&res); err != nil {
		return nil, nil, err
	}
	if res.Error != "" {
		return nil, nil, fmt.Errorf("breakage.js: %s", res.Error)
	}
	c.last = res.All
	return res.Breaks, res.Other, nil
}

var tscErr = regexp.MustCompile(`(?m)^(\S.*?)\((\d+),\d+\): error TS(\d+):`)

// CrossCheck runs tsc --noEmit on the mutant: its errors (file, line,
// code) must be the ones the compiler API gave.
func (c *tsChecker) CrossCheck(ctx context.Context) (string, error) {
	cmd := exec.CommandContext(ctx, "node", c.tsc, "--noEmit", "--pretty", "false", "-p", c.root)
	cmd.Dir = c.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			return "", fmt.Errorf("tsc: %v", err)
		}
	}
	got := map[string]int{}
	for _, m := range tscErr.FindAllStringSubmatch(string(out), -1) {
		got[filepath.ToSlash(m[1])+":"+m[2]+":"+m[3]]++
	}
	want := map[string]int{}
	for _, k := range c.last {
		want[k]++
	}
	var diff []string
	for k, n := range got {
		if want[k] != n {
			diff = append(diff, fmt.Sprintf("tsc %s ×%d, API ×%d", k, n, want[k]))
		}
	}
	for k, n := range want {
		if _, ok := got[k]; !ok {
			diff = append(diff, fmt.Sprintf("tsc %s ×0, API ×%d", k, n))
		}
	}
	sort.Strings(diff)
	return strings.Join(diff, "; "), nil
}

func (c *tsChecker) Close() error {
	if c.in != nil {
		c.in.Close()
	}
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	}
	return nil
}
