package hookshim

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeanDeps keeps ccd-hook's start-up cheap: every package a Go binary
// links initialises before main, and these cost milliseconds together
// (internal/godebug via time and os, net, fmt and reflect via
// encoding/json, unicode tables via strings and bytes). The daemon's e2e
// tests check the rest (no cgo, no engine).
func TestLeanDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./ccd-hook").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, d := range strings.Fields(string(out)) {
		deps[d] = true
	}
	if !deps["github.com/ccd-dev/ccd/daemon/wire"] || !deps["syscall"] {
		t.Fatalf("go list gave no sensible answer:\n%s", out)
	}
	for _, bad := range []string{"os", "time", "internal/godebug", "fmt", "reflect", "encoding/json", "net", "net/url",
		"strings", "bytes", "unicode", "context", "os/exec", "net/http", "github.com/gofrs/flock"} {
		if deps[bad] {
			t.Errorf("ccd-hook links %s", bad)
		}
	}
}
