package daemon

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// registry holds the workspaces of the daemon, by root.
type registry struct {
	cfg   config.Config
	knobs config.Daemon
	log   *slog.Logger
	lspm  *lsp.Manager // nil when CCD_LSP=off
	gc    *idleGC
	env   *workspace.Env // what every workspace shares

	mu sync.Mutex
	ws map[string]*workspace.Workspace
	// stopServers ends watchServers and watchRoots.
	stopServers chan struct{}
}

func newRegistry(cfg config.Config, knobs config.Daemon, log *slog.Logger) *registry {
	r := &registry{cfg: cfg, knobs: knobs, log: log, ws: map[string]*workspace.Workspace{}, gc: newIdleGC(knobs.IdleGC),
		stopServers: make(chan struct{})}
	r.lspm = newLSPManager(knobs, func(f string, a ...any) { log.Debug(fmt.Sprintf(f, a...)) },
		func(err error) { log.Warn("lsp", "err", err) })
	r.env = &workspace.Env{Config: cfg, Log: log, LSP: r.lspm, Version: wire.Version, Updated: r.gc.poke,
		Indexed: func(w *workspace.Workspace) { r.watch(w) }}
	if r.lspm != nil {
		go r.watchServers(r.stopServers)
	}
	go r.watchRoots(r.stopServers)
	return r
}

// errRoot is a root the daemon refuses to index.
type errRoot struct{ msg, hint string }

func (e *errRoot) Error() string { return e.msg }

// Hint says what to do instead (shown by the MCP tool).
func (e *errRoot) Hint() string { return e.hint }

// systemDirs are roots never indexed unless forced: the whole file system,
// and system directories full of code that is not the user's project.
var systemDirs = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/lib": true, "/lib32": true,
	"/lib64": true, "/libx32": true, "/opt": true, "/proc": true, "/run": true, "/sbin": true, "/srv": true,
	"/sys": true, "/tmp": true, "/usr": true, "/var": true, "/usr/bin": true, "/usr/lib": true,
	"/usr/include": true, "/usr/share": true, "/usr/local": true, "/usr/sbin": true, "/var/lib": true,
	"/var/log": true, "/var/tmp": true,
}

// systemTrees are refused with everything below them: pseudo file systems
// and configuration, never a project.
var systemTrees = []string{"/proc", "/sys", "/dev", "/run", "/boot", "/etc"}

// checkRoot resolves root to an absolute, symlink-free directory and
// refuses the file system root, the home directory and system directories
// unless forced.
func checkRoot(root string, force bool) (string, error) {
	if !filepath.IsAbs(root) {
		return "", &errRoot{fmt.Sprintf("workspace %q: not an absolute path", root),
			"give the project directory's absolute path (the daemon serves many directories and has none of its own)"}
	}
	abs := filepath.Clean(root)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", &errRoot{fmt.Sprintf("workspace %s: %v", root, err), "give the path of a project directory"}
	}
	if !st.IsDir() {
		return "", &errRoot{fmt.Sprintf("workspace %s: not a directory", root), "give the project's directory, not a file"}
	}
	if force {
		return abs, nil
	}
	home, _ := os.UserHomeDir()
	inSystemTree := false
	for _, t := range systemTrees {
		if abs == t || strings.HasPrefix(abs, t+"/") {
			inSystemTree = true
		}
	}
	switch {
	case systemDirs[abs] || inSystemTree:
		return "", &errRoot{fmt.Sprintf("refusing to index %s: a system directory, not a project", abs),
			"point ccd at a project directory, or pass force to index it anyway"}
	case home != "" && abs == filepath.Clean(home):
		return "", &errRoot{fmt.Sprintf("refusing to index %s: your home directory holds many projects", abs),
			"point ccd at one project directory, or pass force to index it anyway"}
	}
	return abs, nil
}

// add registers root and starts indexing it in the background. A root
// already registered is returned as is, unless its last run failed (an
// empty clone that has files now) or its root was made again, which
// starts a new run. A new root must pass the root checks (checkRoot;
// force lifts the home and system refusals) and hold a source file: a
// root without one yet (a clone before the clone) is refused, not
// registered, rather than locked in as an empty graph. Every entrance
// registers through here: an explicit init or reindex, and admit.
func (r *registry) add(root string, force bool) (*workspace.Workspace, error) {
	return r.addWith(root, force, false)
}

// addWith is add; with freshLSP a new workspace asks the language servers
// rather than restoring a stored refinement.
func (r *registry) addWith(root string, force, freshLSP bool) (*workspace.Workspace, error) {
	abs, err := checkRoot(root, force)
	if err != nil {
		return nil, err
	}
	if r.registered(abs) == nil {
		// A bounded walk, outside the lock.
		if err := index.RequireSource(abs, nil, r.cfg); err != nil {
			return nil, &errRoot{err.Error() + " yet",
				"clone or create the project there (or name the project's directory), then init again"}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ws[abs] == nil && len(r.ws) >= r.knobs.MaxWorkspaces {
		return nil, &errRoot{fmt.Sprintf("refusing to index %s: this daemon already holds %d workspaces", abs, len(r.ws)),
			"remove one you no longer need (DELETE /v1/workspaces?root=DIR), or raise CCD_MAX_WORKSPACES"}
	}
	if w := r.ws[abs]; w != nil {
		failed := w.Failed()
		replaced := !w.Indexing() && w.RootStatus() == workspace.RootReplaced
		if replaced {
			r.dropWatch(w)
		}
		if failed || replaced {
			w.Start()
		}
		return w, nil
	}
	w := workspace.Open(abs, r.env, freshLSP)
	r.ws[abs] = w
	w.Start()
	return w, nil
}

// admit is how every entrance auto-registers a root nobody initialised
// (a hook's session start, the MCP tool's init and retrieval, an HTTP
// question with auto=1): it returns the registered workspace holding
// root (with exact, only one at root itself: a hook's root is a project
// of its own), unless that one's last index run failed; otherwise root
// is registered by the rules of an explicit init (add).
func (r *registry) admit(root string, exact, force bool) (*workspace.Workspace, error) {
	if w := r.find(root); w != nil && (!exact || w.Root() == root) && !w.Failed() {
		return w, nil
	}
	return r.add(root, force)
}

// reindex starts a full index of a registered root (and adds a root not
// registered yet), asking the language servers again.
func (r *registry) reindex(root string) (*workspace.Workspace, error) {
	w := r.find(root)
	if w == nil {
		return r.addWith(root, false, true)
	}
	w.RefineFresh()
	r.mu.Lock()
	w.Start()
	r.mu.Unlock()
	return w, nil
}

// registered returns the workspace registered at exactly root, or nil.
func (r *registry) registered(root string) *workspace.Workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ws[root]
}

// find returns the registered workspace whose root contains path (the
// deepest one), or nil.
func (r *registry) find(path string) *workspace.Workspace {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var best *workspace.Workspace
	for root, w := range r.ws {
		if (abs == root || strings.HasPrefix(abs, root+"/") || root == "/") && (best == nil || len(root) > len(best.Root())) {
			best = w
		}
	}
	return best
}

func (r *registry) remove(root string) error {
	w := r.find(root)
	if w == nil {
		return errNotInitialised(root)
	}
	r.mu.Lock()
	delete(r.ws, w.Root())
	r.mu.Unlock()
	w.Remove()
	return nil
}

// list returns the workspaces sorted by root.
func (r *registry) list() []*workspace.Workspace {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*workspace.Workspace, 0, len(r.ws))
	for _, w := range r.ws {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Root() < out[j].Root() })
	return out
}

// busy reports whether any workspace is indexing.
func (r *registry) busy() bool {
	for _, w := range r.list() {
		if w.Indexing() {
			return true
		}
	}
	return false
}

// close waits for running index jobs (bounded by the caller's patience:
// index runs cannot be interrupted, so this is best effort), then saves
// and closes every workspace.
func (r *registry) close() {
	r.gc.stop()
	select {
	case <-r.stopServers:
	default:
		close(r.stopServers)
	}
	for _, w := range r.list() {
		w.StopRefining()
	}
	if r.lspm != nil {
		r.lspm.Close()
	}
	for _, w := range r.list() {
		if wt := w.Unwatch(); wt != nil {
			wt.Close()
		}
	}
	deadline := time.After(2 * time.Second)
	for _, w := range r.list() {
		if ready := w.Ready(); ready != nil {
			select {
			case <-ready:
			case <-deadline:
			}
		}
	}
	for _, w := range r.list() {
		w.Close()
	}
}

var errNoWorkspace = errors.New("not initialised")

func errNotInitialised(root string) error {
	return fmt.Errorf("%w: %s is not in any workspace of this daemon", errNoWorkspace, root)
}
