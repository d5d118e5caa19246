package benchmd

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// EditResult is one-file edit to fresh graph: what a polling client saw
// (write to new generation visible and fresh) and what the daemon
// reported (first file event to new graph), against the floor of parsing
// that file alone.
type EditResult struct {
	File   string
	Bytes  int
	Client []time.Duration
	Daemon Sample // ms
	Floor  Sample // ms: tree-sitter parse of the file alone, in-process
}

// editFloorCopies is how many copies of the edited file the floor parses.
const editFloorCopies = 20

// editBench appends a comment to the target's file iters times, waiting
// each time for the new generation, then restores the file.
func editBench(d *daemonProc, ccdBin, root, work string, t Target, iters int, logf func(string, ...any)) (*EditResult, error) {
	abs := filepath.Join(root, filepath.FromSlash(t.Path))
	orig, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("edit: %w", err)
	}
	r := &EditResult{File: t.Path, Bytes: len(orig)}
	restore := func() error {
		w, err := d.workspace(root)
		if err != nil {
			return err
		}
		if err := os.WriteFile(abs, orig, 0o644); err != nil {
			return fmt.Errorf("restore %s: %w", abs, err)
		}
		_, err = d.waitFresh(root, w.Generation)
		return err
	}
	for i := range iters {
		w, err := d.workspace(root)
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(abs, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("edit: %w", err)
		}
		t0 := time.Now()
		_, werr := fmt.Fprintf(f, "\n%s\n", commentFor(t.Path, fmt.Sprintf("ccd bench edit %d", i)))
		cerr := f.Close()
		if werr != nil || cerr != nil {
			return nil, fmt.Errorf("edit %s: %v %v", abs, werr, cerr)
		}
		nw, err := d.waitFresh(root, w.Generation)
		if err != nil {
			return nil, err
		}
		r.Client = append(r.Client, time.Since(t0))
		r.Daemon = append(r.Daemon, nw.UpdateMS)
		// Agents edit seconds apart (a model call between two edits): let
		// the background work of this update (saving, re-indexing search,
		// the idle collection 100 ms after the last request) settle before
		// the next (not timed).
		time.Sleep(400 * time.Millisecond)
	}
	if err := restore(); err != nil {
		return nil, err
	}
	// The floor: parsing that file alone with a warm parser. `ccd bench
	// --mode floor` with one worker over a directory holding editFloorCopies
	// copies of the file, its in-process wall time divided by the count (no
	// process start, no schema load, the first parse's set-up spread thin).
	dir := filepath.Join(work, "edit-floor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ext := filepath.Ext(abs)
	for i := range editFloorCopies {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("copy%02d%s", i, ext)), orig, 0o644); err != nil {
			return nil, err
		}
	}
	for range max(3, min(iters, 10)) {
		cmd := exec.Command(ccdBin, "bench", "--mode", "floor", dir)
		cmd.Env = append(append([]string(nil), d.env...), "CCD_WORKERS=1")
		out, _, err := runMeasured(cmd, nil, false)
		if err != nil {
			return nil, err
		}
		l, err := ParseBenchLine(out)
		if err != nil {
			return nil, err
		}
		if l.Files != editFloorCopies {
			return nil, fmt.Errorf("edit floor: ccd bench parsed %d of the %d copies of %s", l.Files, editFloorCopies, t.Path)
		}
		r.Floor = append(r.Floor, l.WallMS/editFloorCopies)
	}
	logf("  edit→fresh: %d edits of %s", iters, t.Path)
	return r, nil
}
