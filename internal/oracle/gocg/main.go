// Command gocg is the Go oracle of ccd's accuracy harness
// (internal/oracle): it loads every package of one module (tests
// included) with go/packages, builds SSA and prints, as JSON, the call
// edges the Go toolchain's own analyses find, with call-site and callee
// positions. ccd's parser plays no part: go/parser and go/types decide
// what a call is and where it goes.
//
//	gocg DIR > edges.json
//
// Edge kinds:
//
//	static     the callee is known statically (functions, concrete
//	           methods, method expressions and values, generic
//	           instantiations mapped to their generic declaration)
//	interface  a call through an interface: the abstract method
//	dynamic    the concrete functions that variable type analysis (VTA,
//	           seeded by CHA) finds behind a call through an interface or
//	           a function value
//
// Only callees declared in the module's files are printed; calls to
// anonymous functions (closures) are counted but not printed. Call-site
// lines are the line of the call's opening parenthesis, with the line the
// call expression starts on as an alternative (a chained call spanning
// lines starts where the chain starts).
//
// It lives in its own Go module so that ccd's go.mod does not depend on
// go/ssa and go/callgraph; scripts/install-oracle.sh builds it.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Edge is one call site and one callee, in the harness's common format.
type Edge struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Alt        []int  `json:"alt,omitempty"`
	CalleeFile string `json:"callee_file"`
	CalleeLine int    `json:"callee_line"`
	CalleeName string `json:"callee_name"`
	Kind       string `json:"kind"`
}

// Output is what gocg prints.
type Output struct {
	Tool   string         `json:"tool"`
	Root   string         `json:"root"`
	Files  []string       `json:"files"`
	Edges  []Edge         `json:"edges"`
	Counts map[string]int `json:"counts"`
	Errors []string       `json:"errors,omitempty"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gocg DIR")
		os.Exit(2)
	}
	out, err := run(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gocg:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "gocg:", err)
		os.Exit(1)
	}
}

func run(dir string) (*Output, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	start := time.Now()
	cfg := &packages.Config{
		Mode:  packages.LoadSyntax,
		Dir:   root,
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	out := &Output{Tool: "golang.org/x/tools go/ssa + callgraph/vta", Root: root, Counts: map[string]int{}}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			out.Errors = append(out.Errors, e.Error())
		}
	})

	rel := func(path string) (string, bool) {
		r, err := filepath.Rel(root, path)
		if err != nil || r == ".." || strings.HasPrefix(r, "../") {
			return "", false
		}
		return filepath.ToSlash(r), true
	}

	// Files of the module, and for every call expression the line its
	// opening parenthesis is on mapped to the line the expression starts.
	files := map[string]bool{}
	var fset *token.FileSet
	starts := map[token.Pos]token.Pos{} // Lparen -> CallExpr.Pos()
	for _, p := range pkgs {
		fset = p.Fset
		for _, f := range p.Syntax {
			name := p.Fset.Position(f.Pos()).Filename
			if r, ok := rel(name); ok && strings.HasSuffix(r, ".go") {
				files[r] = true
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					starts[c.Lparen] = c.Pos()
				}
				return true
			})
		}
	}
	for f := range files {
		out.Files = append(out.Files, f)
	}
	sort.Strings(out.Files)
	if fset == nil {
		return out, nil
	}

	prog, _ := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()

	inModule := func(pos token.Pos) (string, int, bool) {
		if !pos.IsValid() {
			return "", 0, false
		}
		p := prog.Fset.Position(pos)
		r, ok := rel(p.Filename)
		if !ok || !files[r] {
			return "", 0, false
		}
		return r, p.Line, true
	}

	// The functions whose bodies are in the module.
	funcs := map[*ssa.Function]bool{}
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Blocks == nil {
			continue
		}
		if fn.Synthetic != "" && fn.Synthetic != "package initializer" && !strings.HasPrefix(fn.Synthetic, "instance of ") {
			continue
		}
		if fn.Synthetic == "package initializer" {
			if fn.Pkg == nil || !pkgInModule(fn.Pkg, inModule) {
				continue
			}
		} else if _, _, ok := inModule(fn.Pos()); !ok {
			continue
		}
		funcs[fn] = true
	}

	seen := map[string]bool{}
	add := func(site token.Pos, fileSite string, lineSite int, obj *types.Func, kind string) {
		if obj == nil {
			return
		}
		obj = obj.Origin()
		cf, cl, ok := inModule(obj.Pos())
		if !ok {
			out.Counts[kind+"_outside"]++
			return
		}
		e := Edge{File: fileSite, Line: lineSite, CalleeFile: cf, CalleeLine: cl, CalleeName: obj.Name(), Kind: kind}
		if s, ok := starts[site]; ok {
			if _, l, ok := inModule(s); ok && l != lineSite {
				e.Alt = []int{l}
			}
		}
		key := fmt.Sprintf("%s:%d>%s:%d:%s", e.File, e.Line, e.CalleeFile, e.CalleeLine, e.Kind)
		if seen[key] {
			return
		}
		seen[key] = true
		out.Edges = append(out.Edges, e)
		out.Counts[kind]++
	}
	calleeObj := func(fn *ssa.Function) *types.Func {
		if fn.Parent() != nil {
			return nil // a closure
		}
		if o := fn.Origin(); o != nil {
			fn = o
		}
		f, _ := fn.Object().(*types.Func)
		return f
	}

	var sites []ssa.CallInstruction
	for fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common()
				file, line, ok := inModule(c.Pos())
				if !ok {
					continue
				}
				if _, isBuiltin := c.Value.(*ssa.Builtin); isBuiltin {
					continue
				}
				switch {
				case c.IsInvoke():
					add(c.Pos(), file, line, c.Method, "interface")
					sites = append(sites, call)
				case c.StaticCallee() != nil:
					callee := c.StaticCallee()
					if o := calleeObj(callee); o != nil {
						add(c.Pos(), file, line, o, "static")
					} else {
						out.Counts["static_closure"]++
					}
				default:
					sites = append(sites, call)
				}
			}
		}
	}

	// Dynamic calls: VTA over the module's functions, seeded by CHA.
	cg := vta.CallGraph(funcs, cha.CallGraph(prog))
	dyn := map[ssa.CallInstruction]bool{}
	for _, s := range sites {
		dyn[s] = true
	}
	for fn, node := range cg.Nodes {
		if fn == nil || !funcs[fn] {
			continue
		}
		for _, e := range node.Out {
			if e.Site == nil || !dyn[e.Site] {
				continue
			}
			c := e.Site.Common()
			file, line, ok := inModule(c.Pos())
			if !ok {
				continue
			}
			if o := calleeObj(e.Callee.Func); o != nil {
				add(c.Pos(), file, line, o, "dynamic")
			} else {
				out.Counts["dynamic_closure"]++
			}
		}
	}
	sort.Slice(out.Edges, func(i, j int) bool {
		a, b := out.Edges[i], out.Edges[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.CalleeFile != b.CalleeFile {
			return a.CalleeFile < b.CalleeFile
		}
		if a.CalleeLine != b.CalleeLine {
			return a.CalleeLine < b.CalleeLine
		}
		return a.Kind < b.Kind
	})
	out.Counts["millis"] = int(time.Since(start).Milliseconds())
	return out, nil
}

func pkgInModule(p *ssa.Package, inModule func(token.Pos) (string, int, bool)) bool {
	for _, m := range p.Members {
		if _, _, ok := inModule(m.Pos()); ok {
			return true
		}
	}
	return false
}
