package mutation

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// fn is a function that can be mutated.
type fn struct {
	File     string // relative to the corpus root, slash-separated
	Name     string // qualified: Recv.Name or Name
	Line     int    // of the definition
	Exported bool
	// Go: the byte offset just after the body's opening brace, the
	// package directory (relative) and the package name.
	// Python: where the failing statement goes (see pyInsert).
	Offset  int
	Dir     string
	Package string
	py      pyInsert
}

func (f fn) key() string { return f.File + ":" + strconv.Itoa(f.Line) }

// skipDir reports directories the go tool ignores (and testdata).
func skipDir(name string) bool {
	return name == "testdata" || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")
}

var generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// goFuncs lists the functions with bodies in root's non-test Go files
// (not generated, not init, not blank).
func goFuncs(root string) ([]fn, error) {
	var out []fn
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if generatedRE.Match(src) {
			return nil
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
				continue
			}
			name, exported := fd.Name.Name, fd.Name.IsExported()
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				recv := recvName(fd.Recv.List[0].Type)
				name = recv + "." + name
				exported = exported && ast.IsExported(recv)
			}
			out = append(out, fn{
				File: rel, Name: name, Line: fset.Position(fd.Type.Func).Line, Exported: exported,
				Offset: fset.Position(fd.Body.Lbrace).Offset + 1,
				Dir:    path.Dir(rel), Package: f.Name.Name,
			})
		}
		return nil
	})
	return out, err
}

// recvName is the base type name of a receiver: *T, T[K], *T[K, V] -> T.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// goTestDefs maps "<dir>::<Name>" to where each top-level Test, Example
// and Fuzz function of root's _test.go files is defined.
func goTestDefs(root string) (map[string]Test, error) {
	defs := map[string]Test{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil {
				id := path.Dir(rel) + "::" + fd.Name.Name
				defs[id] = Test{ID: id, File: rel, Qual: fd.Name.Name, Line: fset.Position(fd.Type.Func).Line}
			}
		}
		return nil
	})
	return defs, err
}

// goPkg is a package with tests.
type goPkg struct {
	ImportPath string
	Dir        string // relative to the root, "." for the root
	// Deps are the module's packages its test binary links (itself
	// included), by directory.
	Deps map[string]bool
}

// goTestPackages lists root's packages that have tests, with the module
// packages each test binary depends on.
func goTestPackages(ctx context.Context, root, module string) ([]goPkg, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-test", "-json=ImportPath,Dir,Deps,TestGoFiles,XTestGoFiles,ForTest", "./...")
	cmd.Dir = root
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	type entry struct {
		ImportPath, Dir, ForTest string
		Deps                     []string
		TestGoFiles              []string
		XTestGoFiles             []string
	}
	dirOf := func(ip string) (string, bool) {
		ip, _, _ = strings.Cut(ip, " ")
		if ip == module {
			return ".", true
		}
		if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
			return rest, true
		}
		return "", false
	}
	tested := map[string]entry{}
	mains := map[string]entry{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var e entry
		if err := dec.Decode(&e); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		switch {
		case strings.HasSuffix(e.ImportPath, ".test"):
			mains[strings.TrimSuffix(e.ImportPath, ".test")] = e
		case !strings.Contains(e.ImportPath, " ") && len(e.TestGoFiles)+len(e.XTestGoFiles) > 0:
			tested[e.ImportPath] = e
		}
	}
	var pkgs []goPkg
	for ip := range tested {
		dir, ok := dirOf(ip)
		if !ok {
			continue
		}
		p := goPkg{ImportPath: ip, Dir: dir, Deps: map[string]bool{dir: true}}
		for _, d := range mains[ip].Deps {
			if dd, ok := dirOf(d); ok {
				p.Deps[dd] = true
			}
		}
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(a, b int) bool { return pkgs[a].Dir < pkgs[b].Dir })
	return pkgs, nil
}

// goCovered returns the functions ("file:line") the baseline suite runs,
// from a coverage profile over all the module's packages.
func goCovered(ctx context.Context, root, module, work string) (map[string]bool, error) {
	prof := filepath.Join(work, "cover.out")
	cmd := exec.CommandContext(ctx, "go", "test", "-p", "1", "-count=1", "-vet=off", "-coverpkg=./...", "-coverprofile="+prof, "./...")
	cmd.Dir = root
	cmd.Env = goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		// Failing tests still write a profile; only a missing one is fatal.
		if _, serr := os.Stat(prof); serr != nil {
			return nil, fmt.Errorf("go test -cover: %v: %s", err, out)
		}
	}
	cmd = exec.CommandContext(ctx, "go", "tool", "cover", "-func="+prof)
	cmd.Dir = root
	cmd.Env = goEnv()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go tool cover: %v", err)
	}
	covered := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 3 || fields[0] == "total:" {
			continue
		}
		loc := strings.TrimSuffix(fields[0], ":")
		file, lineNo, ok := strings.Cut(loc, ":")
		if !ok {
			continue
		}
		rel, ok := strings.CutPrefix(file, module+"/")
		if !ok {
			continue
		}
		pct, _ := strconv.ParseFloat(strings.TrimSuffix(fields[len(fields)-1], "%"), 64)
		if pct > 0 {
			covered[rel+":"+lineNo] = true
		}
	}
	return covered, nil
}

// goBuildTest compiles pkg's test binary into bin.
func goBuildTest(ctx context.Context, root string, pkg goPkg, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-o", bin, pkg.ImportPath)
	cmd.Dir = root
	cmd.Env = goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c %s: %v: %s", pkg.ImportPath, err, out)
	}
	return nil
}

// goListTests lists the tests, examples (with output) and fuzz targets a
// test binary runs; benchmarks do not run under go test.
func goListTests(ctx context.Context, bin, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, bin, "-test.list", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -test.list: %v", bin, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "Benchmark") || strings.HasPrefix(l, "ok ") {
			continue
		}
		names = append(names, l)
	}
	return names, nil
}

// outcome is what one run found for one test.
type outcome struct {
	Ran     bool // it ended (passed, failed or skipped)
	Skipped bool
	Failed  bool
	// Path is the first recorded call path from the mutated function to
	// this test ("" when it never ran the function).
	Path string
}

// runResult is the outcome of running a set of tests against one tree.
type runResult struct {
	Tests    map[string]*outcome // by test id
	Crash    string              // "init" or ""
	TimedOut bool
}

func (r *runResult) get(id string) *outcome {
	o := r.Tests[id]
	if o == nil {
		o = &outcome{}
		r.Tests[id] = o
	}
	return o
}

// runTimeout bounds one run of a test binary; the slowest test of the
// corpora sleeps 10 s.
const runTimeout = 90 * time.Second

// goRunTests runs the named tests of a compiled package, resuming after a
// crash (a panic in a test kills the binary) with the tests that have not
// finished, until every test has an outcome. Tests that had started but
// not ended when the binary died (paused parallel tests, or the test whose
// goroutine crashed it) are run again one by one: alone, a test that does
// not end failed.
func goRunTests(ctx context.Context, bin string, pkg goPkg, root string, names []string, res *runResult) error {
	remaining := append([]string(nil), names...)
	var suspects []string
	for len(remaining) > 0 {
		done, running, crashed, err := goRunOnce(ctx, bin, pkg, root, remaining, res)
		if err != nil {
			return err
		}
		if crashed == "timeout" {
			res.TimedOut = true
		}
		var next []string
		for _, n := range remaining {
			switch {
			case done[n]:
			case running[n]:
				suspects = append(suspects, n)
			default:
				next = append(next, n)
			}
		}
		if len(next) == len(remaining) {
			// Nothing ran: the binary dies before any test starts (package
			// initialisation ran the mutated function).
			if crashed == "crash" {
				res.Crash = "init"
			}
			for _, n := range next {
				res.get(pkg.Dir + "::" + n).Failed = true
			}
			break
		}
		remaining = next
	}
	for _, n := range suspects {
		done, _, crashed, err := goRunOnce(ctx, bin, pkg, root, []string{n}, res)
		if err != nil {
			return err
		}
		if crashed == "timeout" {
			res.TimedOut = true
		}
		if !done[n] {
			res.get(pkg.Dir + "::" + n).Failed = true
		}
	}
	return nil
}

type testEvent struct {
	Action string
	Test   string
	Output string
}

// goRunOnce runs the tests once; it returns the tests that ended, those
// that started without ending, and whether the binary crashed.
func goRunOnce(ctx context.Context, bin string, pkg goPkg, root string, names []string, res *runResult) (done, running map[string]bool, crashed string, err error) {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	ctx, cancel := context.WithTimeout(ctx, runTimeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "tool", "test2json", "-p", pkg.ImportPath, bin,
		"-test.v=test2json", "-test.count=1", "-test.timeout="+runTimeout.String(),
		"-test.run=^("+strings.Join(quoted, "|")+")$")
	cmd.Dir = filepath.Join(root, filepath.FromSlash(pkg.Dir))
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, "", err
	}
	done, running = map[string]bool{}, map[string]bool{}
	timedOut := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev testEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		top, _, _ := strings.Cut(ev.Test, "/")
		switch ev.Action {
		case "run":
			if top != "" {
				running[top] = true
			}
		case "pass", "skip", "fail":
			if top == "" || ev.Test != top {
				continue
			}
			delete(running, top)
			done[top] = true
			o := res.get(pkg.Dir + "::" + top)
			o.Ran = true
			switch ev.Action {
			case "fail":
				o.Failed = true
			case "skip":
				o.Skipped = true
			}
		case "output":
			if strings.HasPrefix(ev.Output, "panic: test timed out") {
				timedOut = true
			}
			// The line starts with the marker, unless output without a
			// newline came just before it.
			if i := strings.Index(ev.Output, hitMarker); i >= 0 {
				frames := strings.TrimRight(ev.Output[i+len(hitMarker):], "\n")
				t := goTestOfPath(frames)
				if t == "" {
					t = top
				}
				if t != "" {
					if o := res.get(pkg.Dir + "::" + t); o.Path == "" {
						o.Path = frames
					}
				}
			}
		}
	}
	werr := cmd.Wait()
	switch {
	case timedOut:
		crashed = "timeout"
	case werr != nil && ctx.Err() != nil:
		crashed = "timeout"
	case werr != nil:
		crashed = "crash"
	}
	return done, running, crashed, nil
}

// hitMarker starts the line the mutated function prints when it runs.
const hitMarker = "ccd-mutant-hit "

// goTestOfPath finds the top-level test at the bottom of a recorded call
// path: the outermost frame in a _test.go file whose function is a Test,
// Example or Fuzz function (or a closure in one).
func goTestOfPath(frames string) string {
	parts := strings.Split(frames, pathSep)
	for i := len(parts) - 1; i >= 0; i-- {
		loc, fun, ok := strings.Cut(parts[i], " ")
		if !ok || strings.HasPrefix(loc, "~") {
			continue
		}
		file, _, _ := strings.Cut(loc, ":")
		if !strings.HasSuffix(file, "_test.go") {
			continue
		}
		top, _, _ := strings.Cut(fun, ".")
		for _, p := range []string{"Test", "Example", "Fuzz"} {
			if strings.HasPrefix(top, p) {
				return top
			}
		}
	}
	return ""
}

// pathSep joins the frames of a recorded call path.
const pathSep = " < "

// goHelper is the file added to the mutated package: ccdMutantHit prints
// one line with the call path (frames inside the corpus as "file:line
// Func", runs of frames outside it as one "~pkg.Func"), down to the
// testing package.
const goHelper = `package %s

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
)

var ccdMutantHits atomic.Int64

// ccdMutantOut is the process's standard error even when a test replaces
// os.Stderr (pflag's do).
var ccdMutantOut = os.NewFile(2, "stderr")

func ccdMutantHit() {
	if ccdMutantHits.Add(1) > 5000 {
		return
	}
	const root = %q
	pc := make([]uintptr, 512)
	n := runtime.Callers(2, pc)
	frames := runtime.CallersFrames(pc[:n])
	var b strings.Builder
	b.WriteString("\n" + %q)
	outside := false
	first := true
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.") {
			break
		}
		rel, in := strings.CutPrefix(f.File, root)
		name := f.Function
		if i := strings.LastIndex(name, "/"); i >= 0 {
			name = name[i+1:]
		}
		if in {
			if _, after, ok := strings.Cut(name, "."); ok {
				name = after
			}
			if !first {
				b.WriteString(%q)
			}
			b.WriteString(rel + ":" + strconv.Itoa(f.Line) + " " + name)
			outside = false
			first = false
		} else if !outside && f.Function != "runtime.goexit" {
			if !first {
				b.WriteString(%q)
			}
			b.WriteString("~" + f.Function)
			outside = true
			first = false
		}
		if !more {
			break
		}
	}
	b.WriteString("\n")
	ccdMutantOut.WriteString(b.String())
}
`

// goMutate makes f fail on entry in the tree at root: the first
// statement of its body becomes a call that records the call path and a
// panic, on the brace's line so that line numbers do not move. It returns
// a function that restores the tree.
func goMutate(root string, f fn) (restore func() error, err error) {
	file := filepath.Join(root, filepath.FromSlash(f.File))
	orig, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if f.Offset <= 0 || f.Offset > len(orig) || orig[f.Offset-1] != '{' {
		return nil, fmt.Errorf("%s: no body brace at offset %d for %s", f.File, f.Offset, f.Name)
	}
	mutated := append(append(append([]byte{}, orig[:f.Offset]...), ` ccdMutantHit(); panic("ccd-mutant");`...), orig[f.Offset:]...)
	helper := filepath.Join(root, filepath.FromSlash(f.Dir), "zz_ccd_mutant_hit.go")
	rootPrefix := filepath.ToSlash(root) + "/"
	src := fmt.Sprintf(goHelper, f.Package, rootPrefix, hitMarker, pathSep, pathSep)
	restore = func() error {
		err := os.WriteFile(file, orig, 0o644)
		if rerr := os.Remove(helper); err == nil && rerr != nil && !os.IsNotExist(rerr) {
			err = rerr
		}
		return err
	}
	if err := os.WriteFile(helper, []byte(src), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, mutated, 0o644); err != nil {
		restore()
		return nil, err
	}
	return restore, nil
}
