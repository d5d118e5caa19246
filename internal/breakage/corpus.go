package breakage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Corpus is a real package whose functions are mutated. Its source is
// fetched at run time and never committed; only the truth computed from
// it is.
type Corpus struct {
	Name string // the truth file's name, e.g. "pflag"
	Lang string // "go", "python" or "typescript"
	// Go: the module and its pinned version (`go mod download`).
	Module, Version string
	// TypeScript: the npm package and version whose tarball ships its
	// TypeScript sources under src/ (`npm pack`).
	NPM string
	// Python: standard-library modules (NAME.py) or packages (NAME/)
	// copied out of the running python's Lib, and test modules copied from
	// Lib/test; Python is the version the truth was computed with.
	PyModules, PyTests []string
	Python             string
	// Target is how many functions to mutate (each in every way that
	// applies to it).
	Target int
	// Note says what the corpus exercises.
	Note string
}

// Corpora are the packages measured, versions pinned.
var Corpora = []Corpus{
	{Name: "pflag", Lang: "go", Module: "github.com/spf13/pflag", Version: "v1.0.6", Target: 40,
		Note: "flag parsing: many small methods, one Value interface with dozens of implementations"},
	{Name: "toml", Lang: "go", Module: "github.com/BurntSushi/toml", Version: "v1.5.0", Target: 40,
		Note: "TOML codec: reflection, a lexer of state functions, functions used as values"},
	{Name: "chi", Lang: "go", Module: "github.com/go-chi/chi/v5", Version: "v5.2.2", Target: 40,
		Note: "HTTP router: middleware packages calling the root package, closures"},
	{Name: "argparse", Lang: "python", Python: "3.11.7", Target: 30,
		PyModules: []string{"argparse"}, PyTests: []string{"test_argparse"},
		Note: "one large module: methods called through self, keyword arguments, its 5,000-line test suite"},
	{Name: "email", Lang: "python", Python: "3.11.7", Target: 30,
		PyModules: []string{"email"},
		Note:      "a package: calls across its modules, class hierarchies, policies"},
	{Name: "immer", Lang: "typescript", NPM: "immer@10.1.1", Target: 40,
		Note: "TypeScript sources: functions, classes, closures, overloads in types"},
	{Name: "mobx", Lang: "typescript", NPM: "mobx@6.13.5", Target: 40,
		Note: "TypeScript sources: classes and methods called through this, many modules"},
}

// Lookup returns the corpus called name.
func Lookup(name string) (Corpus, bool) {
	for _, c := range Corpora {
		if c.Name == name {
			return c, true
		}
	}
	return Corpus{}, false
}

// Source says where the corpus comes from, as the truth file records it.
func (c Corpus) Source() string {
	switch c.Lang {
	case "go":
		return "go:" + c.Module + "@" + c.Version
	case "typescript":
		return "npm:" + c.NPM
	}
	var parts []string
	for _, m := range c.PyModules {
		parts = append(parts, m)
	}
	for _, m := range c.PyTests {
		parts = append(parts, "test/"+m)
	}
	return "python" + c.Python + ":" + strings.Join(parts, ",")
}

// Tree is a corpus materialized in a writable directory.
type Tree struct {
	Corpus Corpus
	Root   string // ccd indexes it, the checker checks it
	// Files are the source files, relative to Root, sorted; Hash digests
	// their paths and contents (recorded in the truth file, so that scoring
	// against another source fails loudly).
	Files []string
	Hash  string
	// Python: the interpreter and its version.
	Python, PyVersion string
}

// ErrFetch wraps a corpus that cannot be fetched here (no network, no
// npm, no python3).
var ErrFetch = errors.New("corpus cannot be fetched")

// Fetch copies corpus c into dir (created; it must not exist yet).
func Fetch(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var t *Tree
	var err error
	switch c.Lang {
	case "go":
		t, err = fetchGo(ctx, c, dir)
	case "python":
		t, err = fetchPython(ctx, c, dir)
	case "typescript":
		t, err = fetchNPM(ctx, c, dir)
	default:
		return nil, fmt.Errorf("corpus %s: unknown language %q", c.Name, c.Lang)
	}
	if err != nil {
		return nil, err
	}
	return t, t.hash()
}

// goEnv is the environment go commands run with: the module's own go.mod
// decides, the local toolchain, no workspace.
func goEnv() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "GO111MODULE=on")
}

func fetchGo(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	tmp, err := os.MkdirTemp("", "ccd-breakage-dl-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", c.Module+"@"+c.Version)
	cmd.Dir = tmp
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var dl struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &dl); jerr != nil || dl.Error != "" || err != nil || dl.Dir == "" {
		return nil, fmt.Errorf("%w: go mod download %s@%s: %v %s %s", ErrFetch, c.Module, c.Version, err, dl.Error, strings.TrimSpace(stderr.String()))
	}
	// What the go command ignores (_examples, testdata, .git) is left out,
	// so that ccd and the checker see the same files.
	if err := copyTree(dl.Dir, dir, goIgnored); err != nil {
		return nil, err
	}
	t := &Tree{Corpus: c, Root: dir}
	t.Files, err = listFiles(dir, func(rel string) bool { return strings.HasSuffix(rel, ".go") })
	return t, err
}

// Stdlib returns the python3 on PATH, its version and its stdlib directory.
func Stdlib(ctx context.Context) (python, version, lib string, err error) {
	python, err = exec.LookPath("python3")
	if err != nil {
		return "", "", "", fmt.Errorf("%w: %v", ErrFetch, err)
	}
	out, err := exec.CommandContext(ctx, python, "-S", "-c",
		"import sys, sysconfig; print('%d.%d.%d' % sys.version_info[:3]); print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		return "", "", "", fmt.Errorf("%w: %s: %v", ErrFetch, python, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", "", fmt.Errorf("%s: unexpected output %q", python, out)
	}
	return python, lines[0], lines[1], nil
}

func fetchPython(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	python, version, lib, err := Stdlib(ctx)
	if err != nil {
		return nil, err
	}
	t := &Tree{Corpus: c, Root: dir, Python: python, PyVersion: version}
	skip := func(name string) bool { return name == "__pycache__" }
	for _, m := range c.PyModules {
		src := filepath.Join(lib, m)
		if fi, err := os.Stat(src); err == nil && fi.IsDir() {
			if err := copyTree(src, filepath.Join(dir, m), skip); err != nil {
				return nil, err
			}
			continue
		}
		if err := copyFile(src+".py", filepath.Join(dir, m+".py")); err != nil {
			return nil, err
		}
	}
	for _, m := range c.PyTests {
		if err := copyFile(filepath.Join(lib, "test", m+".py"), filepath.Join(dir, m+".py")); err != nil {
			return nil, err
		}
	}
	t.Files, err = listFiles(dir, func(rel string) bool { return strings.HasSuffix(rel, ".py") })
	return t, err
}

// tsconfig is the configuration tsc checks a TypeScript corpus with: its
// src/ alone, not strict (the corpora's own settings need their build
// setup; arity and argument types are checked in every mode), no emit.
const tsconfig = `{
  "compilerOptions": {
    "noEmit": true,
    "strict": false,
    "target": "es2020",
    "module": "esnext",
    "moduleResolution": "bundler",
    "lib": ["es2020", "dom"],
    "skipLibCheck": true,
    "types": [],
    "downlevelIteration": true,
    "experimentalDecorators": true
  },
  "include": ["src/**/*.ts"]
}
`

func fetchNPM(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	if _, err := exec.LookPath("npm"); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFetch, err)
	}
	tmp, err := os.MkdirTemp("", "ccd-breakage-npm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--json", c.NPM)
	cmd.Dir = tmp
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var packs []struct{ Filename string }
	if err != nil || json.Unmarshal(out, &packs) != nil || len(packs) != 1 {
		return nil, fmt.Errorf("%w: npm pack %s: %v %s", ErrFetch, c.NPM, err, strings.TrimSpace(stderr.String()))
	}
	x := filepath.Join(tmp, "x")
	if err := os.MkdirAll(x, 0o755); err != nil {
		return nil, err
	}
	tar := exec.CommandContext(ctx, "tar", "xzf", filepath.Join(tmp, packs[0].Filename), "-C", x)
	if out, err := tar.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("unpacking %s: %v %s", c.NPM, err, out)
	}
	if err := copyTree(filepath.Join(x, "package", "src"), filepath.Join(dir, "src"), nil); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		return nil, err
	}
	t := &Tree{Corpus: c, Root: dir}
	t.Files, err = listFiles(dir, func(rel string) bool { return strings.HasSuffix(rel, ".ts") || rel == "tsconfig.json" })
	if err != nil {
		return nil, err
	}
	for _, f := range t.Files {
		if err := unsuppress(filepath.Join(dir, f)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// unsuppress turns the comments that silence the next line's errors
// (// @ts-ignore, // @ts-expect-error) into plain ones, the same length,
// so that a call a mutation breaks is reported even where the corpus
// silenced another error (immer: // @ts-ignore over new DraftMap(...)).
func unsuppress(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	nb := bytes.ReplaceAll(b, []byte("@ts-ignore"), []byte("@ts_ignore"))
	nb = bytes.ReplaceAll(nb, []byte("@ts-expect-error"), []byte("@ts_expect_error"))
	if bytes.Equal(b, nb) {
		return nil
	}
	return os.WriteFile(path, nb, 0o644)
}

func listFiles(dir string, keep func(rel string) bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if keep(rel) {
				files = append(files, rel)
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func (t *Tree) hash() error {
	sort.Strings(t.Files)
	h := sha256.New()
	for _, f := range t.Files {
		b, err := os.ReadFile(filepath.Join(t.Root, f))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	t.Hash = hex.EncodeToString(h.Sum(nil))[:16]
	return nil
}

// goIgnored reports the directories the go command does not look into.
func goIgnored(name string) bool {
	return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") || name == "testdata"
}

// copyTree copies src into dst (created), regular files only, each
// writable by its owner (the module cache is read-only); directories for
// which skip is true are not entered.
func copyTree(src, dst string, skip func(name string) bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if p != src && skip != nil && skip(d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(out, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, out)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
