package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is one corpus package: where it comes from and what of it is
// analysed.
type Package struct {
	Lang string // go, python, javascript (TypeScript included)
	Name string
	// Source says how to fetch it:
	//   go:MODULE@VERSION       go mod download
	//   npm:NAME@VERSION        npm pack
	//   python:MODULE           the package as /usr/bin/python3 imports it
	//                           (the standard library, or a Debian
	//                           python3-* package), copied
	Source string
	// Sub is the directory inside the fetched package that is analysed
	// (a TypeScript package's src), "" for all of it.
	Sub string
	// Quick marks the package `just oracle-quick` measures.
	Quick bool
	// Note says why this package is in the corpus.
	Note string
	// Runtime, for Python, is what pyoracle/pyruntime.py runs to observe
	// calls as they happen ("unittest:test.test_json", "jedi"): those
	// calls confirm ccd's sites the static oracle left unconfirmed (an
	// extra kind: never a miss). "" for none.
	Runtime string
}

// Corpus is the default corpus: three or more real packages per language,
// versions pinned (the Python ones are the versions Debian ships with
// python3-jedi, recorded in the report).
var Corpus = []Package{
	{Lang: "go", Name: "chi", Source: "go:github.com/go-chi/chi/v5@v5.5.0", Note: "HTTP router: middleware as function values, interfaces, closures"},
	{Lang: "go", Name: "pflag", Source: "go:github.com/spf13/pflag@v1.1.0", Quick: true, Note: "flag parsing: one Value interface, dozens of implementations, many methods"},
	{Lang: "go", Name: "toml", Source: "go:github.com/BurntSushi/toml@v1.6.0", Note: "TOML codec: reflection, a hand-written lexer of state functions"},
	{Lang: "python", Name: "json", Source: "python:json", Note: "stdlib: small, module-level functions and two classes", Runtime: "unittest:test.test_json"},
	{Lang: "python", Name: "email", Source: "python:email", Note: "stdlib: class hierarchies, policies, module aliases", Runtime: "unittest:test.test_email"},
	{Lang: "python", Name: "logging", Source: "python:logging", Quick: true, Note: "stdlib: handlers and formatters, inheritance, module globals", Runtime: "unittest:test.test_logging"},
	{Lang: "python", Name: "parso", Source: "python:parso", Note: "Debian python3-parso: a parser, deep class trees, mixins", Runtime: "jedi"},
	{Lang: "javascript", Name: "commander", Source: "npm:commander@12.1.0", Quick: true, Note: "CommonJS classes, method chaining"},
	{Lang: "javascript", Name: "express", Source: "npm:express@4.21.2", Note: "CommonJS prototype methods, `app.x = function`, function values"},
	{Lang: "javascript", Name: "immer", Source: "npm:immer@10.1.1", Sub: "src", Note: "TypeScript sources: ES modules, classes, closures, generics"},
	{Lang: "javascript", Name: "mobx", Source: "npm:mobx@6.13.5", Sub: "src", Note: "TypeScript sources: classes and methods called through this, many modules, decorators"},
	{Lang: "javascript", Name: "rxjs", Source: "npm:rxjs@7.8.1", Sub: "src", Note: "TypeScript sources: operators as functions returning functions, generics, a class hierarchy"},
}

// fetch makes dir hold the package's files (dir/root is what is analysed)
// and returns the root and the version fetched.
func fetch(p Package, dir string, log func(string, ...any)) (root, version string, err error) {
	kind, spec, ok := strings.Cut(p.Source, ":")
	if !ok {
		return "", "", fmt.Errorf("%s: bad source %q", p.Name, p.Source)
	}
	stamp := dir + ".source"
	if b, err := os.ReadFile(stamp); err == nil {
		parts := strings.SplitN(string(b), "\n", 3)
		if len(parts) >= 2 && parts[0] == p.Source {
			if _, err := os.Stat(dir); err == nil {
				return rootOf(kind, p, dir), parts[1], nil
			}
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", "", err
	}
	switch kind {
	case "go":
		log("fetching %s (go mod download)", spec)
		out, err := command("", nil, "go", "mod", "download", "-json", spec)
		if err != nil {
			return "", "", err
		}
		var m struct{ Dir, Version, Error string }
		if err := json.Unmarshal(out, &m); err != nil {
			return "", "", fmt.Errorf("go mod download %s: %v", spec, err)
		}
		if m.Error != "" || m.Dir == "" {
			return "", "", fmt.Errorf("go mod download %s: %s", spec, m.Error)
		}
		if err := copyTree(m.Dir, dir, nil); err != nil {
			return "", "", err
		}
		version = m.Version
	case "npm":
		log("fetching %s (npm pack)", spec)
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "npm-")
		if err != nil {
			return "", "", err
		}
		defer os.RemoveAll(tmp)
		out, err := command(tmp, nil, "npm", "pack", "--silent", "--json", spec)
		if err != nil {
			return "", "", err
		}
		var packs []struct{ Filename, Version string }
		if err := json.Unmarshal(out, &packs); err != nil || len(packs) != 1 {
			return "", "", fmt.Errorf("npm pack %s: unexpected output %q", spec, out)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", "", err
		}
		if _, err := command(dir, nil, "tar", "xzf", filepath.Join(tmp, packs[0].Filename)); err != nil {
			return "", "", err
		}
		version = packs[0].Version
	case "python":
		log("copying %s (/usr/bin/python3)", spec)
		out, err := command("", nil, PythonOracle, "-c",
			`import importlib, importlib.metadata, os, sys, sysconfig
m = importlib.import_module(sys.argv[1])
d = os.path.dirname(m.__file__)
if os.path.dirname(d) == sysconfig.get_paths()["stdlib"]:
    v = "Python %s stdlib" % sys.version.split()[0]
else:
    try:
        v = importlib.metadata.version(sys.argv[1])
    except Exception:
        v = getattr(m, "__version__", "?")
    v += " (" + os.path.basename(os.path.dirname(d)) + ")"
print(d)
print(v)`, spec)
		if err != nil {
			return "", "", err
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 2 {
			return "", "", fmt.Errorf("locating %s: %q", spec, out)
		}
		skip := func(rel string, d fs.DirEntry) bool {
			return d.IsDir() && (d.Name() == "__pycache__" || d.Name() == "tests" || d.Name() == "test")
		}
		if err := copyTree(lines[0], filepath.Join(dir, filepath.Base(lines[0])), skip); err != nil {
			return "", "", err
		}
		version = lines[1]
	default:
		return "", "", fmt.Errorf("%s: unknown source kind %q", p.Name, kind)
	}
	if err := os.WriteFile(stamp, []byte(p.Source+"\n"+version+"\n"), 0o644); err != nil {
		return "", "", err
	}
	return rootOf(kind, p, dir), version, nil
}

func rootOf(kind string, p Package, dir string) string {
	root := dir
	if kind == "npm" {
		root = filepath.Join(dir, "package")
	}
	if p.Sub != "" {
		root = filepath.Join(root, p.Sub)
	}
	return root
}

// copyTree copies regular files from src to dst, writable (the module
// cache is read-only), leaving out what skip says.
func copyTree(src, dst string, skip func(rel string, d fs.DirEntry) bool) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if skip != nil && rel != "." && skip(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// command runs name with args in dir and returns its stdout; stderr goes
// into the error.
func command(dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 2000 {
			msg = msg[len(msg)-2000:]
		}
		return stdout.Bytes(), fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, msg)
	}
	return stdout.Bytes(), nil
}
