package breakage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
)

// goChecker type-checks a Go module with go/types (the type checker go
// vet and gopls run; the compiler's types2 reports the same errors): every
// package of the module from source, each also with its _test.go files,
// and its external test package; the standard library from export data
// (importer.Default, `go list -export`, once). Unlike `go build`, it goes on
// past a package with errors (its dependents are checked against its
// declarations) and does not stop at ten errors, so every broken call in
// every package is seen.
type goChecker struct {
	root     string
	pkgs     []goPkg // in dependency order
	std      types.Importer
	baseline map[string]bool
	nbase    int
	cands    []*candidate
	// last is every error of the last check, as "file:line", and lastNew
	// how many of them were new; vetBase what go build and go vet report
	// for the unchanged module (for CrossCheck).
	last       map[string]bool
	lastNew    int
	vetBase    map[string]bool
	baseFailed bool
}

// goPkg is one package of the module, as `go list` describes it.
type goPkg struct {
	ImportPath, Dir, Name              string
	GoFiles, TestGoFiles, XTestGoFiles []string
	Imports, TestImports, XTestImports []string
	Module                             *struct{ GoVersion string }
}

// goKey identifies a function by where its name is: file and offset
// (mutations only edit after the name, so it holds across them).
type goKey struct {
	file string
	off  int
}

// goErr is a type error.
type goErr struct {
	pos token.Position
	at  token.Pos
	msg string
}

func (e goErr) key() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.pos.Filename, e.pos.Line, e.pos.Column, e.msg)
}

type goLoad struct {
	fset *token.FileSet
	errs []goErr // deduplicated across a package's variants
	// calls of each function, and its uses as a value
	calls  map[goKey][]goCall
	values map[goKey][]goValue
	files  map[string]*ast.File // by absolute file name
}

type goCall struct {
	call *ast.CallExpr
	file string
}

type goValue struct {
	expr ast.Expr // the identifier or selector
	file string
}

func newGoChecker(ctx context.Context, root string) (*goChecker, error) {
	g := &goChecker{root: root, std: importer.Default()}
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-json=ImportPath,Dir,Name,GoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports,Module,Error", "./...")
	cmd.Dir = root
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v %s", err, stderr.String())
	}
	byPath := map[string]goPkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p goPkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		byPath[p.ImportPath] = p
	}
	// Dependency order among the module's packages.
	done := map[string]bool{}
	var visit func(string)
	visit = func(ip string) {
		p, ok := byPath[ip]
		if !ok || done[ip] {
			return
		}
		done[ip] = true
		for _, dep := range p.Imports {
			visit(dep)
		}
		g.pkgs = append(g.pkgs, p)
	}
	paths := make([]string, 0, len(byPath))
	for ip := range byPath {
		paths = append(paths, ip)
	}
	sort.Strings(paths)
	for _, ip := range paths {
		visit(ip)
	}
	l, err := g.load()
	if err != nil {
		return nil, err
	}
	g.baseline = map[string]bool{}
	for _, e := range l.errs {
		g.baseline[e.key()] = true
	}
	g.nbase = len(l.errs)
	g.cands, err = g.candidates(l)
	if err != nil {
		return nil, err
	}
	g.vetBase, g.baseFailed, err = g.goTool(ctx)
	return g, err
}

var goToolErr = regexp.MustCompile(`(?m)^(?:vet: )?(\S+\.go):(\d+):\d+: `)

// goTool runs go build and go vet on every package and returns the
// file:line of the errors they report, and whether either failed.
func (g *goChecker) goTool(ctx context.Context) (map[string]bool, bool, error) {
	errs := map[string]bool{}
	failed := false
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = g.root
		cmd.Env = goEnv()
		out, err := cmd.CombinedOutput()
		if err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				return nil, false, fmt.Errorf("go %s: %v", args[0], err)
			}
			failed = true
		}
		for _, m := range goToolErr.FindAllStringSubmatch(string(out), -1) {
			errs[filepath.ToSlash(filepath.Clean(m[1]))+":"+m[2]] = true
		}
	}
	return errs, failed, nil
}

// CrossCheck runs go build and go vet on the mutant as it is on disk: the
// errors they report (they stop at ten per package and skip the
// dependents of a broken package) must be among the ones the last Check
// found, and they must fail exactly when it found new errors.
func (g *goChecker) CrossCheck(ctx context.Context) (string, error) {
	errs, failed, err := g.goTool(ctx)
	if err != nil {
		return "", err
	}
	var missing []string
	fresh := 0
	for k := range errs {
		if g.vetBase[k] {
			continue
		}
		fresh++
		if !g.last[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	switch {
	case len(missing) > 0:
		return fmt.Sprintf("go build/vet report errors go/types did not: %s", strings.Join(missing, ", ")), nil
	case (fresh > 0 || failed && !g.baseFailed) != (g.lastNew > 0):
		return fmt.Sprintf("go build/vet: %d new errors (failed: %v); go/types: %d", fresh, failed, g.lastNew), nil
	}
	return "", nil
}

func (g *goChecker) Baseline() int { return g.nbase }

func (g *goChecker) Checker() string {
	return "go/types (" + runtime.Version() + "): every package of the module from source, with its tests"
}

func (g *goChecker) Candidates() []*candidate { return g.cands }

func (g *goChecker) Close() error { return nil }

// modImporter imports the module's packages from what load checked, the
// rest (the standard library) from export data.
type modImporter struct {
	std  types.Importer
	pkgs map[string]*types.Package
}

func (m modImporter) Import(path string) (*types.Package, error) {
	if p, ok := m.pkgs[path]; ok {
		return p, nil
	}
	return m.std.Import(path)
}

// load parses and checks every package as the files are on disk now.
func (g *goChecker) load() (*goLoad, error) {
	fset := token.NewFileSet()
	l := &goLoad{fset: fset, calls: map[goKey][]goCall{}, values: map[goKey][]goValue{}, files: map[string]*ast.File{}}
	seenErr := map[string]bool{}
	seenSite := map[string]bool{}
	parsed := map[string]*ast.File{}
	parse := func(dir string, names []string) ([]*ast.File, error) {
		var out []*ast.File
		for _, n := range names {
			p := filepath.Join(dir, n)
			f, ok := parsed[p]
			if !ok {
				var err error
				f, err = parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
				if err != nil {
					return nil, fmt.Errorf("parse: %v", err)
				}
				parsed[p] = f
				l.files[p] = f
			}
			out = append(out, f)
		}
		return out, nil
	}
	plain := map[string]*types.Package{}
	check := func(p goPkg, path string, files []*ast.File, imp modImporter) (*types.Package, error) {
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Uses:       map[*ast.Ident]types.Object{},
			Defs:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Instances:  map[*ast.Ident]types.Instance{},
		}
		conf := types.Config{Importer: imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				e := goErr{pos: fset.Position(te.Pos), at: te.Pos, msg: te.Msg}
				if k := e.key(); !seenErr[k] {
					seenErr[k] = true
					l.errs = append(l.errs, e)
				}
			}
		}}
		if p.Module != nil && p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
		pkg, _ := conf.Check(path, fset, files, info)
		l.index(fset, files, info, seenSite)
		return pkg, nil
	}
	for _, p := range g.pkgs {
		files, err := parse(p.Dir, p.GoFiles)
		if err != nil {
			return nil, err
		}
		pkg, err := check(p, p.ImportPath, files, modImporter{g.std, plain})
		if err != nil {
			return nil, err
		}
		plain[p.ImportPath] = pkg
	}
	for _, p := range g.pkgs {
		withTests := plain[p.ImportPath]
		if len(p.TestGoFiles) > 0 {
			files, err := parse(p.Dir, append(append([]string(nil), p.GoFiles...), p.TestGoFiles...))
			if err != nil {
				return nil, err
			}
			if withTests, err = check(p, p.ImportPath, files, modImporter{g.std, plain}); err != nil {
				return nil, err
			}
		}
		if len(p.XTestGoFiles) > 0 {
			files, err := parse(p.Dir, p.XTestGoFiles)
			if err != nil {
				return nil, err
			}
			imp := map[string]*types.Package{}
			for k, v := range plain {
				imp[k] = v
			}
			imp[p.ImportPath] = withTests
			if _, err := check(p, p.ImportPath+"_test", files, modImporter{g.std, imp}); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

// index records the calls of every function in files, and the uses of
// functions as values.
func (l *goLoad) index(fset *token.FileSet, files []*ast.File, info *types.Info, seen map[string]bool) {
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		callee := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id := calleeIdent(call.Fun)
			if id == nil {
				return true
			}
			fn, _ := info.Uses[id].(*types.Func)
			if fn == nil {
				return true
			}
			callee[id] = true
			k := keyOf(fset, fn.Origin())
			site := fmt.Sprintf("c%s:%d", name, fset.Position(call.Pos()).Offset)
			if !seen[site] {
				seen[site] = true
				l.calls[k] = append(l.calls[k], goCall{call: call, file: name})
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			var id *ast.Ident
			var expr ast.Expr
			switch x := n.(type) {
			case *ast.SelectorExpr:
				id, expr = x.Sel, x
			case *ast.Ident:
				id, expr = x, x
			default:
				return true
			}
			if callee[id] {
				return true
			}
			fn, _ := info.Uses[id].(*types.Func)
			if fn == nil {
				return true
			}
			k := keyOf(fset, fn.Origin())
			site := fmt.Sprintf("v%s:%d", name, fset.Position(id.Pos()).Offset)
			if !seen[site] {
				seen[site] = true
				l.values[k] = append(l.values[k], goValue{expr: expr, file: name})
			}
			return true
		})
	}
}

// calleeIdent is the identifier naming a call's function: f, x.f, f[T],
// x.f[T].
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch x := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return calleeIdent(x.X)
	case *ast.IndexListExpr:
		return calleeIdent(x.X)
	}
	return nil
}

func keyOf(fset *token.FileSet, obj types.Object) goKey {
	p := fset.Position(obj.Pos())
	return goKey{p.Filename, p.Offset}
}

func (g *goChecker) rel(abs string) string {
	r, err := filepath.Rel(g.root, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

// candidates lists every function and method declared with a body in the
// module's non-test files, with the mutations that apply to it and the
// calls go/types resolves to it.
func (g *goChecker) candidates(l *goLoad) ([]*candidate, error) {
	var out []*candidate
	names := make([]string, 0, len(l.files))
	for n := range l.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f := l.files[name]
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name == "init" || fd.Name.Name == "main" || fd.Name.Name == "_" {
				continue
			}
			pos := l.fset.Position(fd.Name.Pos())
			c := &candidate{File: g.rel(name), Line: pos.Line, Short: fd.Name.Name, Name: goFuncName(fd), key: goKey{pos.Filename, pos.Offset}}
			for _, call := range l.calls[c.key.(goKey)] {
				c.Calls = append(c.Calls, g.site(l.fset, call))
			}
			for _, m := range goMutations(l.fset, fd, src) {
				m.File = c.File
				for i := range m.Edits {
					m.Edits[i].File = c.File
				}
				c.Muts = append(c.Muts, m)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func (g *goChecker) site(fset *token.FileSet, c goCall) Site {
	s := Site{File: g.rel(c.file), Line: fset.Position(c.call.Pos()).Line}
	var name ast.Node = c.call.Fun
	if sel, ok := ast.Unparen(c.call.Fun).(*ast.SelectorExpr); ok {
		name = sel.Sel
	}
	if nl := fset.Position(name.Pos()).Line; nl != s.Line {
		s.NameLine = nl
	}
	return s
}

func goFuncName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// Check type-checks the module as it is on disk and returns the calls of
// c's function that have new errors, and the other new errors.
func (g *goChecker) Check(ctx context.Context, c *candidate) ([]Site, []Diag, error) {
	l, err := g.load()
	if err != nil {
		return nil, nil, err
	}
	key := c.key.(goKey)
	calls := l.calls[key]
	var decl *ast.FuncDecl
	if f := l.files[key.file]; f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && l.fset.Position(fd.Name.Pos()).Offset == key.off {
				decl = fd
			}
		}
	}
	if decl == nil {
		return nil, nil, fmt.Errorf("%s:%d: %s not found after the mutation", c.File, c.Line, c.Name)
	}
	g.last, g.lastNew = map[string]bool{}, 0
	for _, e := range l.errs {
		g.last[g.rel(e.pos.Filename)+":"+fmt.Sprint(e.pos.Line)] = true
		if !g.baseline[e.key()] {
			g.lastNew++
		}
	}
	bySite := map[*ast.CallExpr]*Site{}
	var order []*ast.CallExpr
	var other []Diag
	for _, e := range l.errs {
		if g.baseline[e.key()] {
			continue
		}
		p := e.pos
		if call := innermostCall(l, calls, p.Filename, e.at); call != nil {
			s := bySite[call]
			if s == nil {
				st := g.site(l.fset, goCall{call: call, file: p.Filename})
				s = &st
				bySite[call] = s
				order = append(order, call)
			}
			s.Errors = append(s.Errors, e.msg)
			continue
		}
		d := Diag{File: g.rel(p.Filename), Line: p.Line, Message: e.msg, Where: "elsewhere"}
		switch {
		case p.Filename == key.file && decl.Pos() <= e.at && e.at < decl.End():
			d.Where = "definition"
		case inValue(l.values[key], p.Filename, e.at):
			d.Where = "value"
		}
		other = append(other, d)
	}
	var breaks []Site
	for _, call := range order {
		breaks = append(breaks, *bySite[call])
	}
	return breaks, other, nil
}

// innermostCall returns the call among calls that holds pos: the
// innermost one whose extent holds it, else the one in the statement that
// holds it (an assignment mismatch is reported at the assignment).
func innermostCall(l *goLoad, calls []goCall, file string, pos token.Pos) *ast.CallExpr {
	var best *ast.CallExpr
	for _, c := range calls {
		if c.file == file && c.call.Pos() <= pos && pos < c.call.End() {
			if best == nil || c.call.End()-c.call.Pos() < best.End()-best.Pos() {
				best = c.call
			}
		}
	}
	if best != nil {
		return best
	}
	f := l.files[file]
	if f == nil {
		return nil
	}
	// The innermost statement holding pos.
	var stmt ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos || pos >= n.End() {
			return false
		}
		if _, ok := n.(ast.Stmt); ok {
			if _, block := n.(*ast.BlockStmt); !block {
				stmt = n
			}
		}
		return true
	})
	if stmt == nil {
		return nil
	}
	for _, c := range calls {
		if c.file == file && stmt.Pos() <= c.call.Pos() && c.call.End() <= stmt.End() {
			return c.call
		}
	}
	return nil
}

func inValue(vs []goValue, file string, pos token.Pos) bool {
	for _, v := range vs {
		if v.file == file && v.expr.Pos() <= pos && pos < v.expr.End() {
			return true
		}
	}
	return false
}

// goMutations builds the signature changes of fd (src is its file).
func goMutations(fset *token.FileSet, fd *ast.FuncDecl, src []byte) []Mutation {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	params := fd.Type.Params.List
	named := len(params) == 0 || len(params[0].Names) > 0
	variadic := len(params) > 0 && isEllipsis(params[len(params)-1].Type)
	var muts []Mutation
	add := func(kind string, edits ...Edit) {
		out, err := spliceEdits(src, edits)
		if err != nil {
			return
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", out, parser.SkipObjectResolution); err != nil {
			return
		}
		muts = append(muts, Mutation{Kind: kind, Edits: edits})
	}
	ins := func(at int, text string) Edit { return Edit{Off: at, New: text} }
	// del keeps the lines it removes as empty ones (a deleted return value
	// spread over lines); the parse check drops what that makes invalid.
	del := func(from, to int) Edit {
		old := string(src[from:to])
		return Edit{Off: from, Old: old, New: strings.Repeat("\n", strings.Count(old, "\n"))}
	}
	decl := func(name, typ string) string {
		if named {
			return name + " " + typ
		}
		return typ
	}

	// A new required parameter: at the end, or before a variadic one.
	switch {
	case len(params) == 0:
		add(AddRequired, ins(off(fd.Type.Params.Opening)+1, decl("ccdExtra", "int")))
	case variadic:
		add(AddRequired, ins(off(params[len(params)-1].Pos()), decl("ccdExtra", "int")+", "))
	default:
		add(AddRequired, ins(off(params[len(params)-1].End()), ", "+decl("ccdExtra", "int")))
	}
	// A trailing variadic: every call still compiles.
	switch {
	case len(params) == 0:
		add(AddOptional, ins(off(fd.Type.Params.Opening)+1, decl("ccdOpts", "...int")))
	case !variadic:
		add(AddOptional, ins(off(params[len(params)-1].End()), ", "+decl("ccdOpts", "...int")))
	}
	// The last parameter removed.
	if n := len(params); n > 0 {
		last := params[n-1]
		switch {
		case len(last.Names) >= 2:
			k := len(last.Names)
			add(RemoveLast, del(off(last.Names[k-2].End()), off(last.Names[k-1].End())))
		case trailingComma(src, off(last.End())) >= 0:
			add(RemoveLast, del(off(last.Pos()), trailingComma(src, off(last.End()))+1))
		case n >= 2:
			add(RemoveLast, del(off(params[n-2].End()), off(last.End())))
		default:
			add(RemoveLast, del(off(last.Pos()), off(last.End())))
		}
	}
	// The last two parameters swapped.
	if n := len(params); n > 0 && !variadic {
		last := params[n-1]
		switch {
		case len(last.Names) >= 2:
			k := len(last.Names)
			a, b := last.Names[k-2], last.Names[k-1]
			add(Reorder, Edit{Off: off(a.Pos()), Old: a.Name, New: b.Name}, Edit{Off: off(b.Pos()), Old: b.Name, New: a.Name})
		case n >= 2 && len(params[n-2].Names) <= 1:
			a, b := params[n-2], params[n-1]
			at, bt := string(src[off(a.Pos()):off(a.End())]), string(src[off(b.Pos()):off(b.End())])
			if at != bt && !strings.Contains(at, "\n") && !strings.Contains(bt, "\n") {
				add(Reorder, Edit{Off: off(a.Pos()), Old: at, New: bt}, Edit{Off: off(b.Pos()), Old: bt, New: at})
			}
		}
	}
	// Results: one more (error), one fewer.
	res := fd.Type.Results
	nres := 0
	resNamed := false
	if res != nil {
		for _, f := range res.List {
			if len(f.Names) == 0 {
				nres++
			} else {
				nres += len(f.Names)
				resNamed = true
			}
		}
	}
	returns := bodyReturns(fd.Body)
	{
		var edits []Edit
		switch {
		case nres == 0:
			edits = append(edits, ins(off(fd.Type.Params.Closing)+1, " error"))
		case res.Opening == token.NoPos:
			edits = append(edits, ins(off(res.List[0].Pos()), "("), ins(off(res.List[0].End()), ", error)"))
		case resNamed:
			edits = append(edits, ins(off(res.List[len(res.List)-1].End()), ", ccdErr error"))
		default:
			edits = append(edits, ins(off(res.List[len(res.List)-1].End()), ", error"))
		}
		for _, r := range returns {
			switch {
			case len(r.Results) == 0 && nres == 0:
				edits = append(edits, ins(off(r.Pos())+len("return"), " nil"))
			case len(r.Results) == nres && nres > 0:
				edits = append(edits, ins(off(r.Results[nres-1].End()), ", nil"))
			}
		}
		add(AddResult, edits...)
	}
	if nres > 0 {
		var edits []Edit
		last := res.List[len(res.List)-1]
		switch {
		case nres == 1:
			edits = append(edits, del(off(fd.Type.Params.Closing)+1, off(res.End())))
		case len(last.Names) >= 2:
			k := len(last.Names)
			edits = append(edits, del(off(last.Names[k-2].End()), off(last.Names[k-1].End())))
		default:
			edits = append(edits, del(off(res.List[len(res.List)-2].End()), off(last.End())))
		}
		for _, r := range returns {
			switch {
			case len(r.Results) == nres && nres == 1:
				edits = append(edits, del(off(r.Pos())+len("return"), off(r.Results[0].End())))
			case len(r.Results) == nres:
				edits = append(edits, del(off(r.Results[nres-2].End()), off(r.Results[nres-1].End())))
			}
		}
		add(DropResult, edits...)
	}
	return muts
}

func isEllipsis(e ast.Expr) bool {
	_, ok := e.(*ast.Ellipsis)
	return ok
}

// trailingComma returns the offset of a comma right after at (spaces
// between), or -1.
func trailingComma(src []byte, at int) int {
	for i := at; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t':
			continue
		case ',':
			return i
		}
		return -1
	}
	return -1
}

// bodyReturns lists the return statements of a function body, not those
// of the function literals inside it.
func bodyReturns(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, x)
		}
		return true
	})
	return out
}

func (g *goChecker) Restored(context.Context) error { return nil }
