package index

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/resolve"
)

// project reads the project files found by discovery: go.mod module paths,
// tsconfig/jsconfig path mappings, package.json names, Cargo crate names,
// and C/C++ include directories (configured ones plus every directory
// named "include").
func (d *discovery) project(cfg config.Config) *resolve.Project {
	p := &resolve.Project{}
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(d.root, filepath.FromSlash(rel)))
		if err != nil || len(b) > 4<<20 {
			return nil
		}
		return b
	}
	rootMod := false
	for _, rel := range d.projFiles["go.mod"] {
		if m := goModulePath(read(rel)); m != "" {
			p.GoModules = append(p.GoModules, resolve.GoModule{Dir: path.Dir(rel), Path: m})
			rootMod = rootMod || path.Dir(rel) == "."
		}
	}
	if !rootMod {
		if m := gopathImportPath(d.root); m != "" && d.hasLang("go") {
			p.GoModules = append(p.GoModules, resolve.GoModule{Dir: ".", Path: m})
		}
	}
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		for _, rel := range d.projFiles[name] {
			if tc, ok := parseTSConfig(read(rel)); ok {
				tc.Dir = path.Dir(rel)
				p.TSConfigs = append(p.TSConfigs, tc)
			}
		}
	}
	for _, rel := range d.projFiles["package.json"] {
		var pj struct {
			Name, Main, Module string
		}
		if json.Unmarshal(read(rel), &pj) == nil && pj.Name != "" {
			main := pj.Module
			if main == "" {
				main = pj.Main
			}
			p.JSPackages = append(p.JSPackages, resolve.JSPackage{Dir: path.Dir(rel), Name: pj.Name, Main: main})
		}
	}
	for _, rel := range d.projFiles["Cargo.toml"] {
		p.Crates = append(p.Crates, resolve.Crate{Dir: path.Dir(rel), Name: cargoName(read(rel))})
	}
	p.IncludeDirs = append(p.IncludeDirs, cfg.IncludeDirs...)
	seen := map[string]bool{}
	for _, c := range d.files {
		for dir := path.Dir(c.rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if path.Base(dir) == "include" && !seen[dir] {
				seen[dir] = true
				p.IncludeDirs = append(p.IncludeDirs, dir)
			}
		}
	}
	sort.Strings(p.IncludeDirs[len(cfg.IncludeDirs):])
	return p
}

// gopathImportPath is the import path of a Go tree laid out as GOPATH and
// GOROOT are, without a go.mod at its root: the part of root after its
// last "src" element ($GOROOT/src/net/http is "net/http",
// ~/go/src/github.com/u/p is "github.com/u/p"); "" for other paths.
func gopathImportPath(root string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(root)), "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == "src" {
			return strings.Join(parts[i+1:], "/")
		}
	}
	return ""
}

// hasLang reports whether discovery found files of a language.
func (d *discovery) hasLang(lang string) bool {
	for _, c := range d.files {
		if c.lang == lang {
			return true
		}
	}
	return false
}

func goModulePath(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// cargoName is the name other crates use for this one: [lib] name if set,
// else [package] name, with '-' as '_'.
func cargoName(b []byte) string {
	section, pkg, lib := "", "", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "name" {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) < 2 || (v[0] != '"' && v[0] != '\'') {
			continue
		}
		end := strings.IndexByte(v[1:], v[0])
		if end < 0 {
			continue
		}
		name := strings.ReplaceAll(v[1:1+end], "-", "_")
		switch section {
		case "[package]":
			pkg = name
		case "[lib]":
			lib = name
		}
	}
	if lib != "" {
		return lib
	}
	return pkg
}

var trailingComma = regexp.MustCompile(`,(\s*[}\]])`)

// parseTSConfig reads compilerOptions.baseUrl and paths from a tsconfig
// (JSON with comments and trailing commas).
func parseTSConfig(b []byte) (resolve.TSConfig, bool) {
	if b == nil {
		return resolve.TSConfig{}, false
	}
	var tc struct {
		CompilerOptions struct {
			BaseURL string              `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	clean := trailingComma.ReplaceAll(stripJSONComments(b), []byte("$1"))
	if err := json.Unmarshal(clean, &tc); err != nil {
		return resolve.TSConfig{}, false
	}
	if tc.CompilerOptions.BaseURL == "" && len(tc.CompilerOptions.Paths) == 0 {
		return resolve.TSConfig{}, false
	}
	return resolve.TSConfig{BaseURL: tc.CompilerOptions.BaseURL, Paths: tc.CompilerOptions.Paths}, true
}

// stripJSONComments removes // and /* */ comments outside strings.
func stripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return out
			}
			i += j + 3
		default:
			out = append(out, c)
		}
	}
	return out
}
