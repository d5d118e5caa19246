package parse

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goCorpus loads the .go files of a few GOROOT packages.
func goCorpus(b *testing.B) [][]byte {
	b.Helper()
	out := loadCorpus(filepath.Join(runtime.GOROOT(), "src"), ".go", "net", "runtime", "go")
	if len(out) == 0 {
		b.Skip("no GOROOT sources")
	}
	return out
}

// loadCorpus reads the files ending in ext below root's dirs.
func loadCorpus(root, ext string, dirs ...string) [][]byte {
	var out [][]byte
	for _, dir := range dirs {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
				if src, err := os.ReadFile(p); err == nil {
					out = append(out, src)
				}
			}
			return nil
		})
	}
	return out
}

// BenchmarkGoParseOnly is the floor: tree-sitter parsing alone.
func BenchmarkGoParseOnly(b *testing.B) {
	files := goCorpus(b)
	r, _ := Default()
	p := r.NewParser()
	defer p.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			p.ParseOnly("go", src)
		}
	}
}

// BenchmarkGoExtract is parsing plus fact extraction with the Go schema.
func BenchmarkGoExtract(b *testing.B) {
	files := goCorpus(b)
	r, _ := Default()
	p := r.NewParser()
	defer p.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			p.Parse("x.go", "go", src)
		}
	}
}

// BenchmarkGoQueryOnly is parsing plus running the Go schema's query in C,
// with no Go-side processing of the matches: what the query itself costs.
func BenchmarkGoQueryOnly(b *testing.B) {
	files := goCorpus(b)
	r, _ := Default()
	s := r.byLang["go"]
	if err := s.compile(); err != nil {
		b.Fatal(err)
	}
	p := r.NewParser()
	defer p.Close()
	p.ParseOnly("go", nil)
	tp := p.parsers["go"]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			tree, _ := tp.ParseCtx(context.Background(), nil, src)
			p.cursor.run(s.query, tree.RootNode(), nil, func(int, []capture) {})
			tree.Close()
		}
	}
}

// pyCorpus loads the .py files of a few Python standard library packages.
func pyCorpus(b *testing.B) [][]byte {
	b.Helper()
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		b.Skipf("no python3: %v", err)
	}
	files := loadCorpus(strings.TrimSpace(string(out)), ".py", "email", "json", "asyncio", "logging", "importlib")
	if len(files) == 0 {
		b.Skip("no Python standard library sources")
	}
	return files
}

// BenchmarkPythonParseOnly is the floor for Python: tree-sitter parsing
// alone.
func BenchmarkPythonParseOnly(b *testing.B) {
	files := pyCorpus(b)
	r, _ := Default()
	p := r.NewParser()
	defer p.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			p.ParseOnly("python", src)
		}
	}
}

// BenchmarkPythonExtract is parsing plus fact extraction with the Python
// schema.
func BenchmarkPythonExtract(b *testing.B) {
	files := pyCorpus(b)
	r, _ := Default()
	p := r.NewParser()
	defer p.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range files {
			p.Parse("x.py", "python", src)
		}
	}
}
