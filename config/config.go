// Package config owns ccd's defaults and the language table, and applies
// overrides from the environment.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Config is the set of knobs the engine reads.
type Config struct {
	// MaxFileSize is the largest file, in bytes, that is parsed.
	MaxFileSize int64
	// SkipDirs are directory base names never descended into.
	SkipDirs []string
	// Workers is the number of parallel parsers.
	Workers int
	// IncludeDirs are extra C/C++ include directories, relative to the root.
	IncludeDirs []string
	// SCIPIndex is the precise SCIP index a workspace may hold (made by
	// scip-go, scip-typescript, scip-python), relative to its root or
	// absolute; "" turns precise mode off.
	SCIPIndex string
	// SCIPExport, when set, is where the daemon writes each workspace's
	// graph as a SCIP index after indexing it (relative to the root or
	// absolute).
	SCIPExport string
}

// DefaultSCIPIndex is where the SCIP indexers write their index.
const DefaultSCIPIndex = "index.scip"

// DefaultSkipDirs are directories that hold dependencies, build outputs or
// tool state rather than the workspace's own code.
var DefaultSkipDirs = []string{
	".git", ".hg", ".svn", ".codecanvas",
	"node_modules", "bower_components", "vendor", "third_party_vendor",
	".venv", "venv", "env", ".env", "virtualenv", ".tox", ".nox", "__pycache__",
	".mypy_cache", ".pytest_cache", ".ruff_cache",
	"dist", "build", "out", "target", "_build", ".next", ".nuxt", ".gradle",
	".idea", ".vscode", ".cache", "coverage", ".terraform", "bazel-out",
}

// Default returns the built-in configuration.
func Default() Config {
	w := runtime.NumCPU()
	if w < 1 {
		w = 1
	}
	return Config{
		MaxFileSize: 1 << 20,
		SkipDirs:    append([]string(nil), DefaultSkipDirs...),
		Workers:     w,
		SCIPIndex:   DefaultSCIPIndex,
	}
}

// Load returns the defaults overridden by CCD_* environment variables:
// CCD_MAX_FILE_SIZE (bytes), CCD_WORKERS, CCD_SKIP_DIRS (comma list that
// replaces the default; a leading "+" appends instead), CCD_INCLUDE_DIRS,
// CCD_SCIP_INDEX (the precise index read, "off" for none) and
// CCD_SCIP_EXPORT (where the daemon writes ccd's own SCIP index).
func Load() (Config, error) {
	c := Default()
	if v := os.Getenv("CCD_MAX_FILE_SIZE"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("CCD_MAX_FILE_SIZE=%q: want a positive number of bytes", v)
		}
		c.MaxFileSize = n
	}
	if v := os.Getenv("CCD_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("CCD_WORKERS=%q: want a positive integer", v)
		}
		c.Workers = n
	}
	if v := os.Getenv("CCD_SKIP_DIRS"); v != "" {
		if strings.HasPrefix(v, "+") {
			c.SkipDirs = append(c.SkipDirs, splitList(v[1:])...)
		} else {
			c.SkipDirs = splitList(v)
		}
	}
	if v := os.Getenv("CCD_INCLUDE_DIRS"); v != "" {
		c.IncludeDirs = splitList(v)
	}
	if v := strings.TrimSpace(os.Getenv("CCD_SCIP_INDEX")); v == "off" {
		c.SCIPIndex = ""
	} else if v != "" {
		c.SCIPIndex = v
	}
	c.SCIPExport = strings.TrimSpace(os.Getenv("CCD_SCIP_EXPORT"))
	if c.SCIPExport != "" && filepath.Clean(c.SCIPExport) == filepath.Clean(c.SCIPIndex) {
		return c, fmt.Errorf("CCD_SCIP_EXPORT=%q is the precise index ccd reads (CCD_SCIP_INDEX, default %s): write ccd's own index elsewhere, e.g. ccd.scip", c.SCIPExport, DefaultSCIPIndex)
	}
	return c, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
