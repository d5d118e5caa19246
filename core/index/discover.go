package index

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/parse"
)

// Discovery: every walk of a workspace's tree is made here, with one set
// of rules (the skip list, .gitignore and .ccdignore files at every level
// and .git/info/exclude, symlinks never followed, only regular files):
// indexing (Build, Update), the directories a watcher watches
// (Result.Dirs, Walk), the documentation and configuration files the
// retrieval index covers (Result.TextFiles, Walk), and whether a root
// holds any source at all (HasSource).

// discovery is what a walk of the tree found.
type discovery struct {
	root       string
	dirs       []string // directories entered, relative ("" is the root)
	files      []candidate
	text       []string            // documentation and configuration files (IsTextFile), unchecked for size
	projFiles  map[string][]string // base name → relative paths (go.mod, tsconfig.json, ...)
	tooLarge   int
	unreadable int
}

// languages lists the languages of the discovered files.
func (d *discovery) languages() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range d.files {
		if c.lang != "" && !seen[c.lang] {
			seen[c.lang] = true
			out = append(out, c.lang)
		}
	}
	return out
}

var projectFileNames = map[string]bool{
	"go.mod": true, "tsconfig.json": true, "jsconfig.json": true, "package.json": true, "Cargo.toml": true,
}

// discover walks root's whole tree and collects what indexing needs.
func discover(root string, cfg config.Config, reg *parse.Registry) *discovery {
	d := &discovery{root: root, projFiles: map[string][]string{}}
	walkTree(root, "", cfg.SkipDirs, func(rel string) bool {
		d.dirs = append(d.dirs, rel)
		return true
	}, func(absDir, rel string, e fs.DirEntry) bool {
		name := e.Name()
		if projectFileNames[name] {
			d.projFiles[name] = append(d.projFiles[name], rel)
		}
		if IsTextFile(rel) {
			d.text = append(d.text, rel)
		}
		lang := config.LanguageFor(name)
		if lang == nil || !reg.Supports(lang.Name) {
			return true
		}
		info, err := e.Info()
		if err != nil {
			d.files = append(d.files, candidate{rel: rel})
			d.unreadable++
			return true
		}
		if info.Size() > cfg.MaxFileSize {
			d.files = append(d.files, candidate{rel: rel})
			d.tooLarge++
			return true
		}
		d.files = append(d.files, candidate{rel: rel, abs: filepath.Join(absDir, name), lang: lang.Name,
			size: info.Size(), mtime: info.ModTime().UnixNano()})
		reg.Warm(lang.Name) // compile its query while the walk goes on
		return true
	})
	return d
}

// walkTree walks the tree of root below rel (slash-separated, "" for the
// root itself) by the discovery rules: dir is called for every directory
// entered (rel included), file for every regular file no rule excludes.
// Either returns false to stop the whole walk. The ignore files of rel's
// parents apply as they do in a walk from the root.
func walkTree(root, rel string, skipDirs []string, dir func(rel string) bool, file func(absDir, rel string, e fs.DirEntry) bool) {
	skip := make(map[string]bool, len(skipDirs))
	for _, s := range skipDirs {
		skip[s] = true
	}
	var stack []*ignoreFile
	if ig := readIgnore(filepath.Join(root, ".git", "info", "exclude"), ""); ig != nil {
		stack = append(stack, ig)
	}
	if rel != "" {
		// The ignore files of the directories above rel, outermost first;
		// rel's own are read as it is entered.
		parts := strings.Split(rel, "/")
		for i := range parts {
			base := strings.Join(parts[:i], "/")
			for _, name := range ignoreFiles {
				if ig := readIgnore(filepath.Join(root, filepath.FromSlash(base), name), base); ig != nil {
					stack = append(stack, ig)
				}
			}
		}
	}
	stopped := false
	var walk func(absDir, rel string, stack []*ignoreFile)
	walk = func(absDir, rel string, stack []*ignoreFile) {
		ents, err := os.ReadDir(absDir)
		if err != nil {
			return // unreadable directory: nothing below it is indexed
		}
		if !dir(rel) {
			stopped = true
			return
		}
		for _, name := range ignoreFiles {
			if ig := readIgnore(filepath.Join(absDir, name), rel); ig != nil {
				stack = append(stack[:len(stack):len(stack)], ig)
			}
		}
		for _, e := range ents {
			if stopped {
				return
			}
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				continue // symlinks are never followed: no loops, no escapes
			}
			if e.IsDir() {
				if skip[name] || ignored(stack, r, true) {
					continue
				}
				walk(filepath.Join(absDir, name), r, stack)
				continue
			}
			if !typ.IsRegular() || ignored(stack, r, false) {
				continue
			}
			if !file(absDir, r, e) {
				stopped = true
				return
			}
		}
	}
	walk(filepath.Join(root, filepath.FromSlash(rel)), rel, stack)
}

// Tree is what a walk of part of a workspace found: the directories
// indexing enters and the documentation and configuration files the
// retrieval index covers, relative to the workspace root.
type Tree struct {
	Dirs []string
	Text []string
}

// Walk walks the tree of root below rel (a directory, slash-separated and
// relative to root; "" for all of it) by the discovery rules, as a
// watcher does for a directory that just appeared. Text files are listed
// when within the size limit.
func Walk(root, rel string, cfg config.Config) Tree {
	var t Tree
	walkTree(root, rel, cfg.SkipDirs, func(rel string) bool {
		t.Dirs = append(t.Dirs, rel)
		return true
	}, func(_, rel string, e fs.DirEntry) bool {
		if IsTextFile(rel) {
			if info, err := e.Info(); err == nil && info.Size() <= cfg.MaxFileSize {
				t.Text = append(t.Text, rel)
			}
		}
		return true
	})
	return t
}

// hasSourceMaxEntries bounds how much of a tree HasSource looks at.
const hasSourceMaxEntries = 50000

// HasSource reports whether root holds at least one file indexing would
// parse (by the discovery rules, a language with a grammar), looking at
// no more than a bounded number of entries: a root without one is never
// initialised.
func HasSource(root string, cfg config.Config) bool {
	reg, err := parse.Default()
	if err != nil {
		return false
	}
	seen, found := 0, false
	walkTree(root, "", cfg.SkipDirs, func(string) bool {
		seen++
		return seen <= hasSourceMaxEntries
	}, func(_, rel string, _ fs.DirEntry) bool {
		seen++
		if lang := config.LanguageFor(rel); lang != nil && reg.Supports(lang.Name) {
			found = true
			return false
		}
		return seen <= hasSourceMaxEntries
	})
	return found
}

// textExts are the non-code files the retrieval index covers (Markdown is
// split into sections; the others into line chunks).
var textExts = map[string]bool{
	".md": true, ".markdown": true, ".rst": true, ".txt": true, ".adoc": true,
	".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true,
	".proto": true, ".sql": true, ".graphql": true, ".tf": true, ".dockerfile": true,
}

// IsTextFile reports whether the retrieval index covers rel as a
// documentation or configuration file.
func IsTextFile(rel string) bool {
	base := strings.ToLower(path.Base(rel))
	return textExts[strings.ToLower(path.Ext(rel))] || base == "dockerfile" || base == "makefile" || base == "readme"
}

// Dirs lists the directories the walk that made r entered (relative,
// "" for the root): the ones a watcher watches. An update that walked
// nothing (UpdateFiles) keeps its predecessor's list.
func (r *Result) Dirs() []string { return r.dirs }

// TextFiles lists the documentation and configuration files (IsTextFile)
// the walk that made r found, within the size limit: with r's source
// files, what the retrieval index covers.
func (r *Result) TextFiles() []string {
	var out []string
	for _, rel := range r.text {
		info, err := os.Lstat(filepath.Join(r.Root, filepath.FromSlash(rel)))
		if err == nil && info.Mode().IsRegular() && info.Size() <= r.cfg.MaxFileSize {
			out = append(out, rel)
		}
	}
	return out
}
