package parse

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCCWrapperSilencesTheLuaGrammar: scripts/cc (the Justfile's CC)
// compiles a string literal holding a NUL byte, as the Lua grammar's
// parser.c does, without gcc's warning in that package's directory, and
// with it anywhere else (the wrapper changes nothing for other code).
func TestCCWrapperSilencesTheLuaGrammar(t *testing.T) {
	wrapper, err := filepath.Abs(filepath.Join("..", "..", "scripts", "cc"))
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("const char *s = \"\x00\";\n")
	compile := func(dir string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "parser.c"), src, 0o644)
		cmd := exec.Command(wrapper, "-c", "parser.c", "-o", "parser.o")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CCD_CC=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", dir, err, out)
		}
		return string(out)
	}
	tmp := t.TempDir()
	if out := compile(filepath.Join(tmp, "mod", "github.com", "smacker", "go-tree-sitter@v0.0.0-x", "lua")); out != "" {
		t.Errorf("the Lua grammar's directory still warns:\n%s", out)
	}
	if out := compile(filepath.Join(tmp, "other")); !strings.Contains(out, "null character") {
		t.Errorf("elsewhere the warning is gone too (want gcc's own output): %q", out)
	}
}
