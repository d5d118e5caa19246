package lsp

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// pyright asks the Python interpreter on PATH for its search paths each
// time it starts, and does it more than once. Behind a version manager's
// shim (pyenv) every run costs seconds: 9 of pyright's 11 s to a first
// definition on this project's machines. Telling it the interpreter's real
// path (the same interpreter it would have found) avoids that.

var (
	pythonOnce sync.Once
	pythonExe  string
)

// pythonExecutable returns the real path of the python3 on PATH, asking
// the interpreter once per process; "" when there is none.
func pythonExecutable() string {
	pythonOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		for _, name := range []string{"python3", "python"} {
			cmd := exec.CommandContext(ctx, name, "-c", "import sys; print(sys.executable)")
			cmd.WaitDelay = time.Second
			out, err := cmd.Output()
			if exe := strings.TrimSpace(string(out)); err == nil && exe != "" {
				pythonExe = exe
				return
			}
		}
	})
	return pythonExe
}

// withPythonPath returns spec with the "python" settings section set to
// the interpreter's real path, for pyright, unless the spec configures
// that section itself.
func withPythonPath(spec ServerSpec) ServerSpec {
	if spec.DisplayName() != "pyright" && !strings.HasPrefix(spec.DisplayName(), "pyright") {
		return spec
	}
	if _, ok := spec.Settings["python"]; ok {
		return spec
	}
	exe := pythonExecutable()
	if exe == "" {
		return spec
	}
	v, err := json.Marshal(map[string]string{"pythonPath": exe})
	if err != nil {
		return spec
	}
	settings := make(map[string]json.RawMessage, len(spec.Settings)+1)
	for k, s := range spec.Settings {
		settings[k] = s
	}
	settings["python"] = v
	spec.Settings = settings
	return spec
}
