package hooks

import (
	"os"
	"path/filepath"
)

// Markers make a directory a project root. A directory holding .git (or
// .hg) wins over the nearer markers of a sub-package; without one the
// nearest marker-backed directory is the root.
var Markers = []string{
	"go.mod", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "Cargo.toml",
	"pom.xml", "build.gradle", "build.gradle.kts", "Gemfile", "composer.json",
	"CMakeLists.txt", "Makefile", "meson.build", "tsconfig.json", "requirements.txt",
}

var vcsMarkers = []string{".git", ".hg"}

// FindRoot walks up from p (a file or directory, which need not exist yet)
// and returns the project root holding it, or "" when no marker is found
// below the home directory or the file system root.
func FindRoot(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	// Start from the nearest existing directory.
	dir := abs
	for {
		if st, err := os.Stat(dir); err == nil {
			if !st.IsDir() {
				dir = filepath.Dir(dir)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	home, _ := os.UserHomeDir()
	nearest := ""
	for d := dir; ; {
		if d == "/" || (home != "" && d == filepath.Clean(home)) {
			break
		}
		for _, m := range vcsMarkers {
			if exists(filepath.Join(d, m)) {
				return d
			}
		}
		if nearest == "" {
			for _, m := range Markers {
				if exists(filepath.Join(d, m)) {
					nearest = d
					break
				}
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return nearest
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// abs makes p absolute against cwd (tool paths are usually absolute
// already; relative ones are relative to the session's cwd).
func abs(p, cwd string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if cwd == "" {
		return ""
	}
	return filepath.Join(cwd, p)
}
