package resolve

import (
	"path"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// bindImports resolves a file's import specs to workspace files and records
// the local names they bind. It reads only the module tables, so files can
// be processed in parallel.
func (r *resolver) bindImports(fi *fileInfo) {
	for i := range fi.f.Imports {
		im := &fi.f.Imports[i]
		switch fi.f.Lang {
		case "python":
			r.bindPython(fi, im)
		case "javascript", "typescript", "tsx":
			r.bindJS(fi, im)
		case "go":
			r.bindGo(fi, im)
		case "rust":
			r.bindRust(fi, im)
		case "java":
			r.bindJava(fi, im)
		case "ruby":
			r.addImport(fi, im, r.rubyFiles(fi, im), "", "")
		case "c", "cpp":
			r.addImport(fi, im, r.includeFiles(fi, im), "", "")
		case "bash":
			b := r.addImport(fi, im, r.sourceFiles(fi, im), "", "")
			if len(b.files) > 0 {
				fi.stars = append(fi.stars, b)
			}
		}
	}
}

// addImport records an import of files and, when local != "", binds the
// local name to the module (name == "") or to a symbol in it.
func (r *resolver) addImport(fi *fileInfo, im *facts.Import, files []*fileInfo, local, name string) *binding {
	b := &binding{files: files, name: name, spec: im.Spec, line: im.Line, kind: im.Kind}
	fi.imports = append(fi.imports, b)
	if local != "" && local != "_" && fi.f.Lang == "python" {
		if fn := innermostFunc(fi.f, im.Line); fn >= 0 {
			if fi.scoped == nil {
				fi.scoped = map[int]map[string]*binding{}
			}
			if fi.scoped[fn] == nil {
				fi.scoped[fn] = map[string]*binding{}
			}
			fi.scoped[fn][local] = b
			return b
		}
	}
	if local != "" && local != "_" {
		if _, dup := fi.binds[local]; !dup || len(files) > 0 {
			fi.binds[local] = b
		}
	}
	return b
}

// innermostFunc is the innermost function of f whose lines hold line,
// or -1.
func innermostFunc(f *facts.File, line int) int {
	best := -1
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind != facts.Func || d.StartLine > line || d.EndLine < line {
			continue
		}
		if best < 0 || d.EndLine-d.StartLine < f.Defs[best].EndLine-f.Defs[best].StartLine {
			best = i
		}
	}
	return best
}

// bindOf is the import binding name has seen from scope: a function's own
// imports (Python), then the file's.
func (fi *fileInfo) bindOf(scope int, name string) *binding {
	if fi.scoped != nil {
		for s := scope; s >= 0; s = fi.f.Defs[s].Parent {
			if b := fi.scoped[s][name]; b != nil {
				return b
			}
		}
	}
	return fi.binds[name]
}

// ---- Python

// indexPython maps dotted module names to files. A file's name starts at
// the first directory above it without __init__.py (its source root); the
// path from the workspace root is registered too, so both `pkg.mod` and
// `src.pkg.mod` resolve.
func (r *resolver) indexPython() {
	for _, fi := range r.list {
		if fi.f.Lang != "python" {
			continue
		}
		p := strings.TrimSuffix(strings.TrimSuffix(fi.f.Path, ".pyi"), ".py")
		p = strings.TrimSuffix(p, "/__init__")
		if p == "__init__" {
			continue
		}
		names := map[string]bool{strings.ReplaceAll(p, "/", "."): true}
		root := fi.dir
		for root != "." && r.files[root+"/__init__.py"] != nil {
			root = path.Dir(root)
		}
		if root != "." {
			rel := strings.TrimPrefix(p, root+"/")
			names[strings.ReplaceAll(rel, "/", ".")] = true
		}
		for n := range names {
			r.pyMods[n] = append(r.pyMods[n], fi)
			tail := n[strings.LastIndex(n, ".")+1:]
			r.pyTail[tail] = append(r.pyTail[tail], n)
		}
	}
	for _, v := range r.pyTail {
		sort.Strings(v)
	}
}

// pyModule resolves a dotted module name (absolute, or relative with
// leading dots) as imported from fi.
func (r *resolver) pyModule(fi *fileInfo, spec string) []*fileInfo {
	if strings.HasPrefix(spec, ".") {
		dots := len(spec) - len(strings.TrimLeft(spec, "."))
		dir := fi.dir
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		rest := strings.ReplaceAll(spec[dots:], ".", "/")
		base := dir
		if rest != "" {
			base = path.Join(dir, rest)
		}
		return r.firstFile(base+".py", base+".pyi", base+"/__init__.py")
	}
	if fs := r.pyMods[spec]; len(fs) > 0 {
		return nearest(fi, fs)
	}
	// A module known by a longer name (src layouts, nested projects).
	tail := spec[strings.LastIndex(spec, ".")+1:]
	var cands []*fileInfo
	for _, n := range r.pyTail[tail] {
		if strings.HasSuffix(n, "."+spec) {
			cands = append(cands, r.pyMods[n]...)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return nearest(fi, cands)
}

// nearest picks, among files that may be meant, the one sharing the longest
// directory prefix with fi (ties: shortest path, then name).
func nearest(fi *fileInfo, cands []*fileInfo) []*fileInfo {
	if len(cands) == 1 {
		return cands
	}
	best, bestScore := cands[0], -1
	for _, c := range cands {
		s := commonPrefix(fi.dir, c.dir)*1000 - len(c.f.Path)
		if s > bestScore || (s == bestScore && c.f.Path < best.f.Path) {
			best, bestScore = c, s
		}
	}
	return []*fileInfo{best}
}

func commonPrefix(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

func (r *resolver) firstFile(paths ...string) []*fileInfo {
	for _, p := range paths {
		if fi := r.files[path.Clean(p)]; fi != nil {
			return []*fileInfo{fi}
		}
	}
	return nil
}

func (r *resolver) bindPython(fi *fileInfo, im *facts.Import) {
	mod := r.pyModule(fi, im.Spec)
	switch {
	case im.Star:
		b := r.addImport(fi, im, mod, "", "")
		fi.stars = append(fi.stars, b)
	case im.Name == "":
		if im.Alias != "" {
			r.addImport(fi, im, mod, im.Alias, "")
			return
		}
		// `import a.b.c` binds the full dotted name and the top package.
		r.addImport(fi, im, mod, im.Spec, "")
		if i := strings.IndexByte(im.Spec, '.'); i > 0 {
			top := im.Spec[:i]
			if _, ok := fi.binds[top]; !ok {
				fi.binds[top] = &binding{files: r.pyModule(fi, top), spec: top, line: im.Line}
			}
		}
	default:
		local := im.Alias
		if local == "" {
			local = im.Name
		}
		// `from pkg import sub` may name a submodule.
		sub := im.Spec + "." + im.Name
		if strings.HasSuffix(im.Spec, ".") {
			sub = im.Spec + im.Name
		}
		if len(mod) == 1 && !hasTop(mod[0], im.Name) {
			if sm := r.pyModule(fi, sub); len(sm) > 0 {
				r.addImport(fi, im, sm, local, "")
				return
			}
		}
		r.addImport(fi, im, mod, local, im.Name)
	}
}

func hasTop(fi *fileInfo, name string) bool { return len(fi.top[name]) > 0 }

// ---- JavaScript / TypeScript

var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// jsFile resolves a path without or with an extension to a workspace file,
// trying TypeScript sources for .js specifiers and index files of
// directories.
func (r *resolver) jsFile(p string) []*fileInfo {
	p = path.Clean(p)
	if fi := r.files[p]; fi != nil {
		return []*fileInfo{fi}
	}
	stem := p
	for _, e := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if strings.HasSuffix(p, e) {
			stem = strings.TrimSuffix(p, e)
			break
		}
	}
	for _, e := range jsExts {
		if fi := r.files[stem+e]; fi != nil {
			return []*fileInfo{fi}
		}
	}
	for _, e := range jsExts {
		if fi := r.files[p+"/index"+e]; fi != nil {
			return []*fileInfo{fi}
		}
	}
	return nil
}

func (r *resolver) jsModule(fi *fileInfo, spec string) []*fileInfo {
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		return r.jsFile(path.Join(fi.dir, spec))
	}
	if strings.HasPrefix(spec, "/") {
		return nil
	}
	// tsconfig paths and baseUrl, nearest config first.
	for _, tc := range r.tsconfigsFor(fi) {
		base := path.Join(tc.Dir, tc.BaseURL)
		if tc.BaseURL == "" {
			base = tc.Dir
		}
		keys := make([]string, 0, len(tc.Paths))
		for k := range tc.Paths {
			keys = append(keys, k)
		}
		// Longest pattern first, as TypeScript does.
		sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
		for _, k := range keys {
			star := ""
			switch {
			case strings.HasSuffix(k, "*") && strings.HasPrefix(spec, strings.TrimSuffix(k, "*")):
				star = strings.TrimPrefix(spec, strings.TrimSuffix(k, "*"))
			case k == spec:
			default:
				continue
			}
			for _, target := range tc.Paths[k] {
				if fs := r.jsFile(path.Join(base, strings.Replace(target, "*", star, 1))); len(fs) > 0 {
					return fs
				}
			}
		}
		if tc.BaseURL != "" {
			if fs := r.jsFile(path.Join(base, spec)); len(fs) > 0 {
				return fs
			}
		}
	}
	// Workspace packages of a monorepo.
	for _, p := range r.proj.JSPackages {
		if spec == p.Name || strings.HasPrefix(spec, p.Name+"/") {
			rest := strings.TrimPrefix(spec, p.Name)
			if rest == "" {
				if p.Main != "" {
					if fs := r.jsFile(path.Join(p.Dir, p.Main)); len(fs) > 0 {
						return fs
					}
				}
				if fs := r.jsFile(path.Join(p.Dir, "src", "index")); len(fs) > 0 {
					return fs
				}
				return r.jsFile(path.Join(p.Dir, "index"))
			}
			if fs := r.jsFile(path.Join(p.Dir, rest)); len(fs) > 0 {
				return fs
			}
			return r.jsFile(path.Join(p.Dir, "src", rest))
		}
	}
	return nil
}

// tsconfigsFor returns the configs whose directory contains fi, nearest first.
func (r *resolver) tsconfigsFor(fi *fileInfo) []TSConfig {
	var out []TSConfig
	for _, tc := range r.proj.TSConfigs {
		if tc.Dir == "." || fi.dir == tc.Dir || strings.HasPrefix(fi.dir, tc.Dir+"/") {
			out = append(out, tc)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Dir) > len(out[j].Dir) })
	return out
}

func (r *resolver) bindJS(fi *fileInfo, im *facts.Import) {
	mod := r.jsModule(fi, im.Spec)
	switch {
	case im.Star:
		b := r.addImport(fi, im, mod, "", "")
		fi.stars = append(fi.stars, b)
	case im.Kind == "default" || im.Kind == "reexport_default":
		// reexport_default: exports.query = require('./query'), what
		// ./query's module.exports is.
		r.addImport(fi, im, mod, im.Alias, "default")
	case im.Name != "":
		local := im.Alias
		if local == "" {
			local = im.Name
		}
		r.addImport(fi, im, mod, local, im.Name)
	default:
		r.addImport(fi, im, mod, im.Alias, "")
	}
}

// ---- Go

func (r *resolver) goPackage(spec string) []*fileInfo {
	for _, m := range r.goMods {
		var dir string
		switch {
		case m.Path == "std":
			dir = path.Join(m.Dir, spec)
		case spec == m.Path:
			dir = m.Dir
		case strings.HasPrefix(spec, m.Path+"/"):
			dir = path.Join(m.Dir, strings.TrimPrefix(spec, m.Path+"/"))
		default:
			continue
		}
		if out := goLibFiles(r.byDir[dir]); len(out) > 0 {
			return out
		}
	}
	return nil
}

// goLibFiles returns the non-test files of a directory's importable
// package: the most common package clause other than "main" (generators
// marked `//go:build ignore` often say `package main` beside a library),
// and a file without a clause (a syntax error) counts least. Ties go to
// the smaller name, so the choice never depends on map order.
func goLibFiles(dir []*fileInfo) []*fileInfo {
	count := map[string]int{}
	for _, fi := range dir {
		if fi.f.Lang == "go" && !strings.HasSuffix(fi.f.Path, "_test.go") {
			count[fi.f.Package]++
		}
	}
	rank := func(p string) int {
		switch p {
		case "":
			return 0
		case "main":
			return 1
		}
		return 2
	}
	best, found := "", false
	for p, n := range count {
		if !found || rank(p) > rank(best) || (rank(p) == rank(best) && (n > count[best] || (n == count[best] && p < best))) {
			best, found = p, true
		}
	}
	var out []*fileInfo
	for _, fi := range dir {
		if fi.f.Lang == "go" && !strings.HasSuffix(fi.f.Path, "_test.go") && fi.f.Package == best {
			out = append(out, fi)
		}
	}
	return out
}

func (r *resolver) bindGo(fi *fileInfo, im *facts.Import) {
	files := r.goPackage(im.Spec)
	local := im.Alias
	if local == "" {
		local = path.Base(im.Spec)
		if len(files) > 0 && files[0].f.Package != "" {
			local = files[0].f.Package
		}
	}
	if im.Star || local == "." {
		b := r.addImport(fi, im, files, "", "")
		fi.stars = append(fi.stars, b)
		return
	}
	r.addImport(fi, im, files, local, "")
}

// ---- Rust

// indexRust maps each .rs file to its module path inside its crate:
// src/lib.rs and src/main.rs are the crate root, src/a/b.rs and
// src/a/b/mod.rs are a::b.
func (r *resolver) indexRust() {
	for _, fi := range r.list {
		if fi.f.Lang != "rust" {
			continue
		}
		crate, mod := r.rustModPath(fi)
		key := crate + "|" + mod
		// The library root wins over a binary root: `crate_name::` and
		// `crate::` paths from other targets name the library.
		if old := r.rustMod[key]; old != nil && strings.HasSuffix(old.f.Path, "lib.rs") {
			continue
		}
		r.rustMod[key] = fi
	}
}

// crateOf returns the crate directory holding fi (nearest Cargo.toml), or
// "." when there is none.
func (r *resolver) crateOf(fi *fileInfo) Crate {
	best := Crate{Dir: "."}
	for _, c := range r.proj.Crates {
		if (c.Dir == "." || fi.dir == c.Dir || strings.HasPrefix(fi.dir, c.Dir+"/")) && len(c.Dir) >= len(best.Dir) {
			best = c
		}
	}
	return best
}

func (r *resolver) rustModPath(fi *fileInfo) (string, string) {
	crate := r.crateOf(fi).Dir
	rel := fi.f.Path
	if crate != "." {
		rel = strings.TrimPrefix(rel, crate+"/")
	}
	rel = strings.TrimPrefix(rel, "src/")
	rel = strings.TrimSuffix(rel, ".rs")
	switch {
	case rel == "lib" || rel == "main":
		rel = ""
	case strings.HasSuffix(rel, "/mod"):
		rel = strings.TrimSuffix(rel, "/mod")
	}
	return crate, strings.ReplaceAll(rel, "/", "::")
}

// rustResolve resolves a path of module segments as seen from fi; it
// returns the module file and how many segments named modules.
func (r *resolver) rustResolve(fi *fileInfo, segs []string) (*fileInfo, int) {
	crate, cur := r.rustModPath(fi)
	var base []string
	if cur != "" {
		base = strings.Split(cur, "::")
	}
	start := 0
	var mod []string
	switch {
	case len(segs) == 0:
		return nil, 0
	case segs[0] == "crate":
		start = 1
	case segs[0] == "self":
		mod, start = base, 1
	case segs[0] == "super":
		mod = base
		for start < len(segs) && segs[start] == "super" {
			if len(mod) > 0 {
				mod = mod[:len(mod)-1]
			}
			start++
		}
	case segs[0] == r.crateOf(fi).Name && r.crateOf(fi).Name != "":
		start = 1
	default:
		// A child module of the current one, else of the crate root.
		if _, ok := r.rustMod[crate+"|"+strings.Join(append(append([]string(nil), base...), segs[0]), "::")]; ok {
			mod = base
		}
	}
	found, n := r.rustMod[crate+"|"+strings.Join(mod, "::")], start
	if start == 0 && found == nil {
		found = nil
	}
	for i := start; i < len(segs); i++ {
		next := append(append([]string(nil), mod...), segs[i])
		m, ok := r.rustMod[crate+"|"+strings.Join(next, "::")]
		if !ok {
			break
		}
		mod, found, n = next, m, i+1
	}
	if n == 0 {
		return nil, 0
	}
	return found, n
}

func (r *resolver) bindRust(fi *fileInfo, im *facts.Import) {
	if im.Kind == "mod" {
		_, cur := r.rustModPath(fi)
		segs := []string{im.Spec}
		if cur != "" {
			segs = append(strings.Split(cur, "::"), im.Spec)
		}
		crate := r.crateOf(fi).Dir
		var files []*fileInfo
		if m := r.rustMod[crate+"|"+strings.Join(segs, "::")]; m != nil {
			files = []*fileInfo{m}
		}
		r.addImport(fi, im, files, im.Spec, "")
		return
	}
	segs := strings.Split(im.Spec, "::")
	if im.Star {
		m, n := r.rustResolve(fi, segs)
		var files []*fileInfo
		if m != nil && n == len(segs) {
			files = []*fileInfo{m}
		}
		b := r.addImport(fi, im, files, "", "")
		fi.stars = append(fi.stars, b)
		return
	}
	name := im.Name
	if name == "" {
		name, segs = segs[len(segs)-1], segs[:len(segs)-1]
	}
	nameSegs := strings.Split(name, "::")
	local := im.Alias
	if local == "" {
		local = nameSegs[len(nameSegs)-1]
	}
	if name == "self" {
		local = segs[len(segs)-1]
		if im.Alias != "" {
			local = im.Alias
		}
		nameSegs = nil
	}
	full := append(append([]string(nil), segs...), nameSegs...)
	m, n := r.rustResolve(fi, full)
	switch {
	case m == nil:
		r.addImport(fi, im, nil, local, "")
	case n == len(full):
		r.addImport(fi, im, []*fileInfo{m}, local, "")
	default:
		r.addImport(fi, im, []*fileInfo{m}, local, strings.Join(full[n:], "."))
	}
}

// ---- Java

func (r *resolver) bindJava(fi *fileInfo, im *facts.Import) {
	spec := im.Spec
	if im.Star {
		b := r.addImport(fi, im, r.pkgs["java:"+spec], "", "")
		fi.stars = append(fi.stars, b)
		return
	}
	// a.b.C, a.b.C.Inner, or (static) a.b.C.member: find the longest
	// package prefix that holds a class named by the next segment.
	segs := strings.Split(spec, ".")
	for i := len(segs) - 1; i >= 1; i-- {
		pkg := strings.Join(segs[:i], ".")
		files := r.pkgs["java:"+pkg]
		for _, f := range files {
			if hasTop(f, segs[i]) {
				rest := strings.Join(segs[i:], ".")
				local := segs[len(segs)-1]
				r.addImport(fi, im, []*fileInfo{f}, local, rest)
				return
			}
		}
	}
	r.addImport(fi, im, nil, segs[len(segs)-1], "")
}

// ---- Ruby, C/C++, Bash: imports name files

func (r *resolver) rubyFiles(fi *fileInfo, im *facts.Import) []*fileInfo {
	spec := strings.TrimSuffix(im.Spec, ".rb")
	if im.Kind == "require_relative" {
		return r.firstFile(path.Join(fi.dir, spec) + ".rb")
	}
	if fs := r.firstFile(spec+".rb", "lib/"+spec+".rb", path.Join(fi.dir, spec)+".rb"); len(fs) > 0 {
		return fs
	}
	return r.bySuffix(fi, "/"+spec+".rb")
}

// bySuffix returns the file whose path ends with suffix nearest to fi.
func (r *resolver) bySuffix(fi *fileInfo, suffix string) []*fileInfo {
	var cands []*fileInfo
	for _, c := range r.byBase[path.Base(suffix)] {
		if strings.HasSuffix("/"+c.f.Path, suffix) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	return nearest(fi, cands)
}

func (r *resolver) includeFiles(fi *fileInfo, im *facts.Import) []*fileInfo {
	spec := strings.TrimSpace(im.Spec)
	system := im.Kind == "include_system" || strings.HasPrefix(spec, "<")
	spec = strings.Trim(spec, "<>\"")
	if spec == "" {
		return nil
	}
	var cands []string
	if !system {
		cands = append(cands, path.Join(fi.dir, spec))
	}
	for _, d := range r.proj.IncludeDirs {
		cands = append(cands, path.Join(d, spec))
	}
	cands = append(cands, spec, path.Join("include", spec), path.Join("src", spec))
	if fs := r.firstFile(cands...); len(fs) > 0 {
		return fs
	}
	if system && !strings.Contains(spec, "/") {
		// <stdio.h> and friends: only a workspace header in an include dir.
		return r.bySuffix(fi, "/include/"+spec)
	}
	return r.bySuffix(fi, "/"+spec)
}

func (r *resolver) sourceFiles(fi *fileInfo, im *facts.Import) []*fileInfo {
	spec := strings.Trim(strings.TrimSpace(im.Spec), "\"'")
	// Strip a leading variable or command substitution: "$DIR/lib.sh",
	// "$(dirname "$0")/lib.sh", "${BASH_SOURCE%/*}/lib.sh".
	if strings.HasPrefix(spec, "$") || strings.HasPrefix(spec, "`") {
		if i := strings.LastIndex(spec, "/"); i >= 0 {
			// Keep the part after the last path element containing '$', ')' or '}'.
			parts := strings.Split(spec, "/")
			k := 0
			for j, p := range parts {
				if strings.ContainsAny(p, "$)}`\"") {
					k = j + 1
				}
			}
			spec = strings.Join(parts[k:], "/")
		} else {
			return nil
		}
	}
	spec = strings.Trim(spec, "\"'")
	if spec == "" {
		return nil
	}
	if fs := r.firstFile(path.Join(fi.dir, spec), spec); len(fs) > 0 {
		return fs
	}
	return r.bySuffix(fi, "/"+spec)
}
