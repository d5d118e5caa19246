package mutation

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Corpus is a package with a real test suite, fetched at run time (its
// source is never committed; only the truth computed from it is).
type Corpus struct {
	Name string // file name of the truth file, e.g. "chi"
	Lang string // "go" or "python"
	// Go: the module and its pinned version, fetched through the module
	// proxy (`go mod download`).
	Module, Version string
	// Python: modules of the running python's standard library, each with
	// its unittest module test/test_<name>.py; Python is the version the
	// truth was computed with (the stdlib's source moves between patches).
	PyModules []string
	Python    string
	// Target is how many functions to mutate.
	Target int
}

// Corpora are the packages the oracle measures, versions pinned.
var Corpora = []Corpus{
	{Name: "chi", Lang: "go", Module: "github.com/go-chi/chi/v5", Version: "v5.2.2", Target: 70},
	{Name: "pflag", Lang: "go", Module: "github.com/spf13/pflag", Version: "v1.0.6", Target: 70},
	{Name: "toml", Lang: "go", Module: "github.com/BurntSushi/toml", Version: "v1.5.0", Target: 70},
	{Name: "pystdlib", Lang: "python", Python: "3.11.7", Target: 80,
		PyModules: []string{"colorsys", "fnmatch", "glob", "graphlib", "pprint", "shlex", "string", "textwrap"}},
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

// Tree is a corpus materialized in a writable directory.
type Tree struct {
	Corpus Corpus
	Root   string // the copy; ccd indexes it, the tests run in it
	// Files are the source files the graph is built from, relative to
	// Root, sorted; Hash is a digest of their paths and contents, recorded
	// in the truth file so that scoring against a different source fails
	// loudly instead of measuring nonsense.
	Files []string
	Hash  string
	// Python: the interpreter and its version ("3.11.7").
	Python, PyVersion string
}

// Fetch copies corpus c into dir (created; it must not exist): a Go module
// out of the module cache (downloading it through the proxy when needed),
// or the chosen stdlib modules and their tests laid out flat so that the
// copies shadow the installation's modules.
func Fetch(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	switch c.Lang {
	case "go":
		return fetchGo(ctx, c, dir)
	case "python":
		return fetchPython(ctx, c, dir)
	}
	return nil, fmt.Errorf("corpus %s: unknown language %q", c.Name, c.Lang)
}

// goEnv is the environment every go command runs with: the module's own
// go.mod decides, the local toolchain is used, no workspace interferes.
func goEnv() []string {
	env := os.Environ()
	return append(env, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off", "GO111MODULE=on")
}

func fetchGo(ctx context.Context, c Corpus, dir string) (*Tree, error) {
	tmp, err := os.MkdirTemp("", "ccd-mutation-dl-")
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
		return nil, fmt.Errorf("go mod download %s@%s: %v %s %s", c.Module, c.Version, err, dl.Error, strings.TrimSpace(stderr.String()))
	}
	if err := copyTree(dl.Dir, dir, nil); err != nil {
		return nil, err
	}
	t := &Tree{Corpus: c, Root: dir}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(dir, p)
			t.Files = append(t.Files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, t.hash()
}

// Stdlib returns the python3 on PATH, its version and its stdlib directory.
func Stdlib(ctx context.Context) (python, version, lib string, err error) {
	python, err = exec.LookPath("python3")
	if err != nil {
		return "", "", "", err
	}
	out, err := exec.CommandContext(ctx, python, "-S", "-c",
		"import sys, sysconfig; print('%d.%d.%d' % sys.version_info[:3]); print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		return "", "", "", fmt.Errorf("%s: %v", python, err)
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	t := &Tree{Corpus: c, Root: dir, Python: python, PyVersion: version}
	for _, m := range c.PyModules {
		for src, dst := range map[string]string{
			filepath.Join(lib, m+".py"):                 m + ".py",
			filepath.Join(lib, "test", "test_"+m+".py"): "test_" + m + ".py",
		} {
			if err := copyFile(src, filepath.Join(dir, dst)); err != nil {
				return nil, err
			}
			t.Files = append(t.Files, dst)
		}
	}
	sort.Strings(t.Files)
	return t, t.hash()
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

// copyTree copies src into dst (created), regular files only, every file
// writable by its owner (the module cache is read-only); skip names
// directories never entered.
func copyTree(src, dst string, skip []string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if p != src && slices.Contains(skip, d.Name()) {
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
