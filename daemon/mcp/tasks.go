package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/words"
)

// maxTasksFile bounds the size of a tasks file read.
const maxTasksFile = 1 << 20

// loadTasks reads the first tasks file under root (board.TasksFiles).
func loadTasks(root string) ([]board.Task, string, *toolError) {
	for _, rel := range board.TasksFiles {
		p := filepath.Join(root, filepath.FromSlash(rel))
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && !insideRoot(root, p) {
			// A link out of the project (to ~/.ssh/id_rsa, /etc/shadow):
			// never read, and nothing of it is echoed.
			return nil, rel, &toolError{msg: fmt.Sprintf("%s is a link to a file outside the project; it is not read.", rel),
				hint: "keep the tasks file inside the project, as a regular file"}
		}
		if err != nil {
			return nil, rel, &toolError{msg: fmt.Sprintf("Cannot read %s: %v.", rel, err), hint: "check the file's permissions"}
		}
		if st.Size() > maxTasksFile {
			return nil, rel, &toolError{msg: fmt.Sprintf("%s is %d bytes; the limit is %d.", rel, st.Size(), maxTasksFile), hint: "keep the tasks file small: ids, titles and short descriptions"}
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, rel, &toolError{msg: fmt.Sprintf("Cannot read %s: %v.", rel, err), hint: "check the file's permissions"}
		}
		ts, err := board.ParseTasks(data)
		if err != nil {
			return nil, rel, fromBoardError(err)
		}
		if !st.Mode().IsRegular() {
			return nil, rel, &toolError{msg: rel + " is not a regular file.", hint: "write the tasks in a regular file"}
		}
		return ts, rel, nil
	}
	return nil, "", &toolError{msg: "No tasks file: looked for " + strings.Join(board.TasksFiles, ", ") + " in " + root + ".",
		hint: "write tasks.yaml at the project root, e.g.\ntasks:\n  - id: T1\n    title: Fix the discount\n    description: Orders over 100 get 10% off\n    symbols: [discount, total]\n    files: [shop/pricing.py]"}
}

func (c *canvas) taskSelect(ctx context.Context, a args) (*response, *toolError) {
	w, terr := c.open(ctx, a)
	if terr != nil {
		return nil, terr
	}
	tasks, file, terr := loadTasks(w.meta.Root)
	if terr != nil {
		return nil, terr
	}
	w.b.SetTasks(tasks)
	id := strings.TrimSpace(string(a.TaskID))
	if id == "" {
		r := &response{view: w.b.View("status")}
		r.printf("Tasks in %s (%d):\n", file, len(tasks))
		for i, t := range tasks {
			if i == 50 {
				r.printf("  … %d more\n", len(tasks)-50)
				break
			}
			r.printf("  %s  %s", t.ID, words.Clip(t.Title, 120))
			if len(t.Symbols) > 0 {
				r.printf(" (symbols: %s)", strings.Join(head(t.Symbols, 5), ", "))
			}
			r.printf("\n")
		}
		r.view.Next = fmt.Sprintf(`Next: Pick one with canvas(action="task_select", task_id=%q).`, tasks[0].ID)
		c.save(w, r)
		c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
		return r, nil
	}
	var task *board.Task
	for i := range tasks {
		if strings.EqualFold(tasks[i].ID, id) {
			task = &tasks[i]
		}
	}
	var refs []board.Ref
	var found, missing []string
	if task != nil {
		for _, s := range task.Symbols {
			if cands := w.g.Find(s); len(cands) > 0 {
				refs = append(refs, refOf(w.g, cands[0]))
				found = append(found, fmt.Sprintf("%s (%s)", report.Label(w.g.Nodes[cands[0]]), w.g.Nodes[cands[0]].Loc()))
				continue
			}
			missing = append(missing, s+didYouMean(w.g, s))
		}
		for _, f := range task.Files {
			if mod := moduleOf(w.g, f); mod >= 0 {
				refs = append(refs, refOf(w.g, mod))
				found = append(found, w.g.Nodes[mod].Path)
				continue
			}
			missing = append(missing, f+" (no such indexed file)")
		}
	}
	t, view, err := w.b.SelectTask(id, refs)
	if err != nil {
		return nil, fromBoardError(err)
	}
	r := &response{view: view}
	r.printf("Selected task %s: %s\n", t.ID, t.Title)
	if t.Description != "" {
		r.printf("%s\n", words.Cut(t.Description, 3000))
	}
	if len(found) > 0 {
		r.printf("In the graph (%d, tracked for progress): %s\n", len(found), strings.Join(head(found, 20), ", "))
	}
	if len(missing) > 0 {
		r.printf("Not in the graph: %s\n", strings.Join(head(missing, 20), ", "))
	}
	c.save(w, r)
	c.picture(ctx, w.meta.Root, r, PictureRequest{Kind: PictureBoard})
	return r, nil
}

// moduleOf finds the module node of a file path relative to the root.
func moduleOf(g *graph.Graph, p string) int {
	p = filepath.ToSlash(filepath.Clean(strings.TrimPrefix(p, "./")))
	for _, i := range g.InFile(p) {
		if g.Nodes[i].Kind == graph.Module {
			return i
		}
	}
	return -1
}

// didYouMean suggests the closest symbol for an unknown name.
func didYouMean(g *graph.Graph, q string) string {
	if s := g.Similar(q, 1); len(s) > 0 {
		return fmt.Sprintf(" (did you mean %s?)", report.Label(g.Nodes[s[0].Node]))
	}
	return ""
}

func head(xs []string, n int) []string {
	if len(xs) > n {
		return append(append([]string(nil), xs[:n]...), fmt.Sprintf("+%d more", len(xs)-n))
	}
	return xs
}

// insideRoot reports whether p, with every link resolved, is inside root
// (itself resolved).
func insideRoot(root, p string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	r, err := filepath.Rel(realRoot, real)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}
