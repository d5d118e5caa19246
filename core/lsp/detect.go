package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// EnvPath names the environment variable whose colon-separated
// directories are searched for servers before PATH.
const EnvPath = "CCD_LSP_PATH"

// ErrNotFound is wrapped by errors about a server binary that is missing.
var ErrNotFound = errors.New("language server not found")

// SearchPathFromEnv returns the directories of $CCD_LSP_PATH.
func SearchPathFromEnv() []string {
	var out []string
	for _, d := range filepath.SplitList(os.Getenv(EnvPath)) {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// DefaultSearchPath is where a Manager looks for servers before PATH when
// Options.SearchPath is nil: the directories of $CCD_LSP_PATH, then the
// .tools/bin that scripts/install-lsp.sh fills in the source checkout the
// running executable was built into (bin/ccd → .tools/bin). That one is
// listed even before it exists: a daemon started by `just run` finds the
// servers `just test` installs afterwards.
func DefaultSearchPath() []string {
	dirs := SearchPathFromEnv()
	if exe, err := os.Executable(); err == nil {
		top := filepath.Dir(filepath.Dir(exe))
		if isFile(filepath.Join(top, "scripts", "install-lsp.sh")) {
			dirs = append(dirs, filepath.Join(top, ".tools", "bin"))
		}
	}
	return dirs
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// LookPath finds a server executable: an absolute path is checked as is;
// otherwise the name is searched in dirs, then in PATH. What to do about a
// missing one is the caller's to say (InstallHint).
func LookPath(name string, dirs []string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("empty command: %w", ErrNotFound)
	}
	if filepath.IsAbs(name) {
		if isExecutable(name) {
			return name, nil
		}
		return "", fmt.Errorf("%s is not an executable file: %w", name, ErrNotFound)
	}
	if strings.ContainsRune(name, filepath.Separator) {
		abs, err := filepath.Abs(name)
		if err == nil && isExecutable(abs) {
			return abs, nil
		}
		return "", fmt.Errorf("%s is not an executable file: %w", name, ErrNotFound)
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if isExecutable(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		where := "PATH"
		if len(dirs) > 0 {
			where = strings.Join(dirs, ", ") + " or PATH"
		}
		return "", fmt.Errorf("%s not found in %s: %w", name, where, ErrNotFound)
	}
	return p, nil
}

// InstallHint says how to get the servers ccd knows out of the box.
const InstallHint = "bash scripts/install-lsp.sh (in a ccd checkout) installs gopls, pyright and TypeScript into .tools/bin, " +
	"which a ccd built there finds; elsewhere put a server on PATH or list its directory in " + EnvPath

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Detection is what Detect learned about the server of one language.
type Detection struct {
	Language string
	Name     string   // display name of the chosen (or first) candidate
	Command  []string // its command line
	Found    bool
	Path     string // resolved executable
	Version  string // best effort; empty when unknown
	// Problem says why no candidate is usable (not found, wrong version).
	Problem string
}

// Detect reports, for every language of specs (in order of first
// appearance), the first candidate that is installed, or why none is. It
// runs each found server's version command with a short timeout; it never
// takes longer than ctx allows per candidate.
func Detect(ctx context.Context, specs []ServerSpec, dirs []string) []Detection {
	var out []Detection
	idx := map[string]int{}
	for _, s := range specs {
		i, seen := idx[s.Language]
		if seen && out[i].Found {
			continue
		}
		path, version, err := resolveSpec(ctx, s, dirs)
		d := Detection{Language: s.Language, Name: s.DisplayName(), Command: s.Command, Path: path, Version: version}
		if err != nil {
			d.Path, d.Problem = "", strings.TrimSuffix(err.Error(), ": "+ErrNotFound.Error())
		} else {
			d.Found = true
		}
		if !seen {
			idx[s.Language] = len(out)
			out = append(out, d)
			continue
		}
		if d.Found {
			out[i] = d
		} else {
			out[i].Problem += "; " + d.Problem
		}
	}
	return out
}

// resolveSpec finds a spec's executable and version, and checks
// VersionMatch.
func resolveSpec(ctx context.Context, s ServerSpec, dirs []string) (path, version string, err error) {
	if err := s.Validate(); err != nil {
		return "", "", err
	}
	path, err = LookPath(s.Command[0], dirs)
	if err != nil {
		if s.DisplayName() == filepath.Base(s.Command[0]) {
			return "", "", err // "gopls not found in ...", not "gopls: gopls not found"
		}
		return "", "", fmt.Errorf("%s: %w", s.DisplayName(), err)
	}
	version, err = serverVersion(ctx, path, s.VersionArgs)
	if err != nil {
		// Found but broken: rustup's proxy for a component that is not
		// installed, a wrapper whose target is gone.
		return "", "", fmt.Errorf("%s at %s does not run (%s %s: %v%s): %w", s.DisplayName(), path,
			filepath.Base(path), strings.Join(s.VersionArgs, " "), err, quoteOutput(version), ErrNotFound)
	}
	if s.VersionMatch != "" {
		re, rerr := regexp.Compile(s.VersionMatch)
		if rerr != nil {
			return "", "", fmt.Errorf("%s: bad VersionMatch %q: %v", s.DisplayName(), s.VersionMatch, rerr)
		}
		if !re.MatchString(version) {
			return "", version, fmt.Errorf("%s at %s has version %q, which does not match %q: %w",
				s.DisplayName(), path, version, s.VersionMatch, ErrNotFound)
		}
	}
	return path, version, nil
}

// serverVersion runs path with args (or reads an npm package.json when
// args is empty) and returns the first line of output. A version command
// that exits with an error (or is killed after 5 s) says the server does
// not run; the first line is returned with the error.
func serverVersion(ctx context.Context, path string, args []string) (string, error) {
	if len(args) == 0 {
		return npmVersion(path), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	first := ""
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = line[:200]
			}
			first = line
			break
		}
	}
	return first, err
}

// quoteOutput is ": LINE" for a non-empty line of a server's output.
func quoteOutput(line string) string {
	if line == "" {
		return ""
	}
	return ": " + strconv.Quote(line)
}

// npmVersion reads the version of the npm package an executable belongs
// to, walking up from its real location to the nearest package.json.
func npmVersion(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(real)
	for i := 0; i < 6; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pj struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			}
			if json.Unmarshal(bytes.TrimSpace(b), &pj) == nil && pj.Version != "" {
				return strings.TrimSpace(pj.Name + " " + pj.Version)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}
