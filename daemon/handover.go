package daemon

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/daemon/wire"
)

// A client newer than the daemon (a ccd-hook updated before the daemon
// restarted) makes the daemon answer and stop, so that the client's next
// call starts the newer daemon. When the ccd the client starts is still
// the old one, that would repeat on every event: each hand-over is noted
// in the state directory (handover.version), and a daemon that starts
// under a note for a version newer than its own was started by that very
// hand-over: it stays, and says once in its log that the versions differ.

const handoverNote = "handover.version"

// readHandover decides, as the daemon starts, whether it hands over to
// newer clients: not when it was itself started by a hand-over it cannot
// satisfy. A note its version satisfies is removed.
func (d *Daemon) readHandover() {
	p := filepath.Join(d.dir, handoverNote)
	b, err := os.ReadFile(p)
	if err != nil {
		return
	}
	want := strings.TrimSpace(string(b))
	if want != "" && newerThan(want, wire.Version) {
		d.noHandover = want
		d.log.Warn("a client of version "+want+" asked for a newer daemon, but the ccd started is still "+wire.Version+
			": serving it as is (install the newer ccd, or stop this daemon after installing it)",
			"client", want, "daemon", wire.Version, "exe", os.Args[0])
		return
	}
	os.Remove(p)
}

// handsOverTo reports whether a client of version v makes the daemon hand
// over (and notes it).
func (d *Daemon) handsOverTo(v string) bool {
	if v == "" || !newerThan(v, wire.Version) {
		return false
	}
	if d.noHandover != "" && !newerThan(v, d.noHandover) {
		return false // started by this hand-over already: once is enough
	}
	os.WriteFile(filepath.Join(d.dir, handoverNote), []byte(v+"\n"), 0o600)
	return true
}
