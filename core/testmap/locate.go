package testmap

import (
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
)

// locator names traced code by the graph's node ids.
type locator struct {
	g *graph.Graph
}

// funcAt returns the innermost function of file whose lines hold line
// (-1: none).
func (l locator) funcAt(file string, line int) int {
	best, span := -1, 1<<30
	for _, i := range l.g.InFile(file) {
		n := l.g.Nodes[i]
		if n.Kind != graph.Func || line < n.StartLine || line > n.EndLine {
			continue
		}
		if s := n.EndLine - n.StartLine; s < span {
			best, span = i, s
		}
	}
	return best
}

// pyFunc returns the function a Python code object is: by its name and
// first line (a decorated function's code starts at its first decorator,
// the node at its definition or decorators); code without a name of its
// own (a lambda, a comprehension) is part of the function holding it.
func (l locator) pyFunc(file string, line int, qualname string) int {
	name := qualname[strings.LastIndex(qualname, ".")+1:]
	if strings.HasPrefix(name, "<") {
		return l.funcAt(file, line)
	}
	best, dist := -1, 1<<30
	for _, i := range l.g.InFile(file) {
		n := l.g.Nodes[i]
		if n.Kind != graph.Func || n.Name != name {
			continue
		}
		d := n.StartLine - line
		if d < 0 {
			if line > n.EndLine {
				continue
			}
			d = 0 // the node's lines hold the code's first line
		}
		if d < dist {
			best, dist = i, d
		}
	}
	if best >= 0 && dist <= 64 {
		return best
	}
	return l.funcAt(file, line)
}

// goTests maps the test functions of the package whose files are in dir
// ("" for the root) to their nodes, by name.
func (l locator) goTests(dir string) map[string]int {
	out := map[string]int{}
	for _, p := range l.g.Files() {
		if !strings.HasSuffix(p, "_test.go") || pathDir(p) != dir {
			continue
		}
		for _, i := range l.g.InFile(p) {
			if n := l.g.Nodes[i]; n.Kind == graph.Func && n.Test {
				out[n.Qual] = i
			}
		}
	}
	return out
}

func pathDir(p string) string {
	if k := strings.LastIndex(p, "/"); k >= 0 {
		return p[:k]
	}
	return ""
}

// known lists the ids of the functions (tests left out) of files.
func (l locator) known(files []string) []string {
	var out []string
	for _, f := range files {
		for _, i := range l.g.InFile(f) {
			if n := l.g.Nodes[i]; n.Kind == graph.Func && !n.Test {
				out = append(out, n.ID)
			}
		}
	}
	return out
}
