package wire

import "github.com/ccd-dev/ccd/daemon/wire/lean"

// DaemonExe finds the ccd binary: $CCD_EXE, the calling executable when it
// is ccd itself, a ccd beside it, or ccd on PATH.
func DaemonExe() (string, error) { return lean.DaemonExe() }

// StartDetached starts `ccd daemon` as a background process in its own
// session, with no terminal and its output discarded (it logs to a file).
func StartDetached() error { return lean.StartDetached() }
