package testmap

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/words"
)

// goPackage is one package of the module being recorded.
type goPackage struct {
	importPath string
	rel        string // its directory relative to the root ("" for the root)
	files      []string
	tests      bool
}

// goPackages lists the packages of the Go module in modDir, their
// directories relative to the workspace root.
func goPackages(ctx context.Context, root, modDir string) ([]goPackage, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f",
		"{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}\t{{join .GoFiles \",\"}}", "./...")
	cmd.Dir = modDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./... in %s: %v: %s", modDir, err, words.FirstLine(stderr.String()))
	}
	var pkgs []goPackage
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			continue
		}
		rel, err := filepath.Rel(root, f[1])
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		p := goPackage{importPath: f[0], rel: rel, tests: f[2] != "0" || f[3] != "0"}
		for _, name := range strings.Split(f[4], ",") {
			if name != "" {
				p.files = append(p.files, joinRel(rel, name))
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// goModules returns the directories of the Go modules holding the
// workspace's Go files: for each directory of a .go file of g, the
// nearest one up to root with a go.mod (read from the graph's files, not
// from another walk of the tree).
func goModules(root string, g *graph.Graph) []string {
	type mod struct {
		dir string
		ok  bool
	}
	found := map[string]mod{} // a directory -> its module, if any
	var lookup func(dir string) mod
	lookup = func(dir string) mod {
		if m, seen := found[dir]; seen {
			return m
		}
		var m mod
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), "go.mod")); err == nil {
			m = mod{dir, true}
		} else if dir != "" {
			m = lookup(pathDir(dir))
		}
		found[dir] = m
		return m
	}
	mods := map[string]bool{}
	for _, p := range g.Files() {
		if strings.HasSuffix(p, ".go") {
			if m := lookup(pathDir(p)); m.ok {
				mods[m.dir] = true
			}
		}
	}
	var out []string
	for m := range mods {
		out = append(out, filepath.Join(root, filepath.FromSlash(m)))
	}
	sort.Strings(out)
	return out
}

// recordGo runs every test of the Go module in modDir, each on its own
// with a coverage profile, and adds what each ran to b.
func recordGo(ctx context.Context, root, modDir string, b *builder, opt Options) error {
	pkgs, err := goPackages(ctx, root, modDir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ccd-testmap-go-")
	if err != nil {
		return fmt.Errorf("testmap: %w", err)
	}
	defer os.RemoveAll(tmp)
	var all []string
	byImport := map[string]string{}
	var files []string
	for _, p := range pkgs {
		all = append(all, p.importPath)
		byImport[p.importPath] = p.rel
		files = append(files, p.files...)
	}
	b.know(files)
	var work []goPackage
	for _, p := range pkgs {
		if p.tests {
			work = append(work, p)
		}
	}
	coverpkg := strings.Join(all, ",")
	jobs := opt.jobs()
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				recordGoPackage(ctx, root, modDir, tmp, k, work[k], coverpkg, byImport, b, opt)
			}
		}()
	}
	for k := range work {
		if ctx.Err() != nil {
			break
		}
		next <- k
	}
	close(next)
	wg.Wait()
	return nil
}

// recordGoPackage builds p's test binary with coverage of every package
// of the module and runs its tests one by one.
func recordGoPackage(ctx context.Context, root, modDir, tmp string, k int, p goPackage, coverpkg string, byImport map[string]string, b *builder, opt Options) {
	bin := filepath.Join(tmp, fmt.Sprintf("p%d.test", k))
	build := exec.CommandContext(ctx, "go", "test", "-c", "-cover", "-covermode=set", "-coverpkg="+coverpkg, "-o", bin, p.importPath)
	build.Dir = modDir
	if out, err := build.CombinedOutput(); err != nil {
		b.problem("go test -c %s: %v: %s", p.importPath, err, words.FirstLine(string(out)))
		return
	}
	dir := filepath.Join(root, filepath.FromSlash(p.rel))
	list := exec.CommandContext(ctx, bin, "-test.list", ".")
	list.Dir = dir
	out, err := list.Output()
	if err != nil {
		b.problem("%s -test.list: %v", p.importPath, err)
		return
	}
	tests := b.loc.goTests(p.rel)
	ran := 0
	profile := filepath.Join(tmp, fmt.Sprintf("p%d.cover", k))
	for _, name := range strings.Fields(string(out)) {
		if !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Example") && !strings.HasPrefix(name, "Fuzz") {
			continue // benchmarks run only with -bench
		}
		if ctx.Err() != nil {
			b.problem("%s: stopped by the time budget after %d tests", p.importPath, ran)
			break
		}
		test, ok := tests[name]
		if !ok {
			continue
		}
		os.Remove(profile)
		tctx, cancel := context.WithTimeout(ctx, opt.perTest())
		run := exec.CommandContext(tctx, bin, "-test.run", "^"+name+"$", "-test.count=1", "-test.coverprofile="+profile,
			"-test.timeout="+opt.perTest().String())
		run.Dir = dir
		start := time.Now()
		runErr := run.Run()
		cancel()
		funcs, perr := readProfile(profile, byImport, b.loc)
		if perr != nil {
			b.problem("%s %s: no coverage (%v; the test ended with %v after %s)", p.importPath, name, perr, runErr, time.Since(start).Round(time.Millisecond))
			continue
		}
		b.ran(test, funcs)
		ran++
	}
	b.suite("go test %s (%d tests)", p.importPath, ran)
}

// readProfile reads a coverage profile and returns the functions whose
// blocks ran.
func readProfile(path string, byImport map[string]string, l locator) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	seen := map[int]bool{}
	var out []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		// import/path/file.go:12.3,14.2 2 1
		colon := strings.LastIndex(line, ".go:")
		if colon < 0 || strings.HasSuffix(line, " 0") {
			continue
		}
		file := line[:colon+3]
		rest := line[colon+4:]
		dot := strings.IndexByte(rest, '.')
		if dot < 0 {
			continue
		}
		start, err := strconv.Atoi(rest[:dot])
		if err != nil {
			continue
		}
		slash := strings.LastIndexByte(file, '/')
		if slash < 0 {
			continue
		}
		rel, ok := byImport[file[:slash]]
		if !ok {
			continue
		}
		if fn := l.funcAt(joinRel(rel, file[slash+1:]), start); fn >= 0 && !seen[fn] {
			seen[fn] = true
			out = append(out, fn)
		}
	}
	return out, sc.Err()
}
