package cli

import (
	"os"
	"strings"
	"syscall"
)

// lazyFreeSetting is the runtime setting the daemon runs with: memory the
// Go runtime returns to the kernel is released with MADV_FREE instead of
// MADV_DONTNEED. An edit of a large workspace allocates a few MB of fresh
// arrays; when those pages had been released with MADV_DONTNEED, faulting
// them back in cost 40–60 ms per edit on a VM (about 17 µs a fault), most
// of the edit's tail latency. The kernel still takes MADV_FREE pages back
// under memory pressure, and status reports RSS without them.
const lazyFreeSetting = "madvdontneed=0"

// lazyFreeEnv returns env with lazyFreeSetting added to GODEBUG, and false
// when GODEBUG already says how to release memory (the user's choice).
func lazyFreeEnv(env []string) ([]string, bool) {
	out := make([]string, 0, len(env)+1)
	found := false
	for _, kv := range env {
		v, ok := strings.CutPrefix(kv, "GODEBUG=")
		if !ok {
			out = append(out, kv)
			continue
		}
		if strings.Contains(v, "madvdontneed=") {
			return env, false
		}
		found = true
		if v != "" {
			v += ","
		}
		out = append(out, "GODEBUG="+v+lazyFreeSetting)
	}
	if !found {
		out = append(out, "GODEBUG="+lazyFreeSetting)
	}
	return out, true
}

// reexecLazyFree replaces the process with itself under lazyFreeSetting
// (GODEBUG is read once, at start-up). It returns only when it does not
// (the setting is there already, or exec failed: the daemon then runs as
// it is).
func reexecLazyFree() {
	env, ok := lazyFreeEnv(os.Environ())
	if !ok {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	syscall.Exec(exe, os.Args, env)
}
