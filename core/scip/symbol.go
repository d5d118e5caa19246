package scip

import (
	"bufio"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Scheme is the scheme of the symbols ccd writes.
const Scheme = "ccd"

// Package is the package a file belongs to, from the nearest manifest
// above it (go.mod, package.json, pyproject.toml): Manager is "gomod",
// "npm" or "pypi"; Dir is the manifest's directory relative to the root
// ("" for the root). Without a manifest the package is the root
// directory's name, with manager and version ".".
type Package struct {
	Manager, Name, Version string
	Dir                    string
}

// packages finds the package of each directory of a workspace, reading
// each manifest once.
type packages struct {
	root  string
	byDir map[string]*Package
	top   *Package
}

func newPackages(root string) *packages {
	name := filepath.Base(root)
	if abs, err := filepath.Abs(root); err == nil {
		name = filepath.Base(abs)
	}
	return &packages{root: root, byDir: map[string]*Package{}, top: &Package{Manager: ".", Name: name, Version: "."}}
}

// of returns the package a file (slash path relative to the root) is in.
func (p *packages) of(file string) *Package {
	return p.dir(path.Dir(file))
}

func (p *packages) dir(d string) *Package {
	if d == "." || d == "/" {
		d = ""
	}
	if pk, ok := p.byDir[d]; ok {
		return pk
	}
	pk := readManifest(filepath.Join(p.root, filepath.FromSlash(d)))
	if pk != nil {
		pk.Dir = d
	} else if d == "" {
		pk = p.top
	} else {
		pk = p.dir(path.Dir(d))
	}
	p.byDir[d] = pk
	return pk
}

var (
	goModule     = regexp.MustCompile(`(?m)^\s*module\s+"?([^"\s]+)"?`)
	tomlSection  = regexp.MustCompile(`^\s*\[([^\]]+)\]\s*$`)
	tomlKeyValue = regexp.MustCompile(`^\s*(name|version)\s*=\s*["']([^"']*)["']`)
)

// readManifest reads the package a directory declares, or nil.
func readManifest(dir string) *Package {
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		if m := goModule.FindSubmatch(b); m != nil {
			return &Package{Manager: "gomod", Name: string(m[1]), Version: "."}
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		var pj struct{ Name, Version string }
		if json.Unmarshal(b, &pj) == nil && pj.Name != "" {
			return &Package{Manager: "npm", Name: pj.Name, Version: orDot(pj.Version)}
		}
	}
	if f, err := os.Open(filepath.Join(dir, "pyproject.toml")); err == nil {
		defer f.Close()
		var name, version, section string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := tomlSection.FindStringSubmatch(sc.Text()); m != nil {
				section = strings.TrimSpace(m[1])
				continue
			}
			if section != "project" && section != "tool.poetry" {
				continue
			}
			if m := tomlKeyValue.FindStringSubmatch(sc.Text()); m != nil {
				if m[1] == "name" && name == "" {
					name = m[2]
				} else if m[1] == "version" && version == "" {
					version = m[2]
				}
			}
		}
		if name != "" {
			return &Package{Manager: "pypi", Name: name, Version: orDot(version)}
		}
	}
	return nil
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

// prefix is the scheme and package part of a symbol string, ending in a
// space.
func (pk *Package) prefix() string {
	return Scheme + " " + escapeSpace(pk.Manager) + " " + escapeSpace(pk.Name) + " " + escapeSpace(pk.Version) + " "
}

// escapeSpace doubles spaces, as symbol strings require in the package
// fields; empty becomes ".".
func escapeSpace(s string) string {
	if s == "" {
		return "."
	}
	return strings.ReplaceAll(s, " ", "  ")
}

// ident writes a descriptor name: as is when it is a simple identifier,
// else between backticks with backticks doubled.
func ident(s string) string {
	simple := s != ""
	for _, r := range s {
		if !(r == '_' || r == '+' || r == '-' || r == '$' || r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')) {
			simple = false
			break
		}
	}
	if simple {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// fileDescriptors are the namespace descriptors of a file inside its
// package: one per directory below the package's, then the file name.
func fileDescriptors(pk *Package, file string) string {
	rel := file
	if pk.Dir != "" {
		rel = strings.TrimPrefix(file, pk.Dir+"/")
	}
	var b strings.Builder
	for _, seg := range strings.Split(rel, "/") {
		b.WriteString(ident(seg))
		b.WriteByte('/')
	}
	return b.String()
}
