package wire

import (
	"context"
	"fmt"
	"time"

	"github.com/ccd-dev/ccd/daemon/wire/lean"
)

// Response is an answer read by Call; Err gives the daemon's envelope of
// a non-2xx answer.
type Response = lean.Response

// client is the lean client for ctx: its deadline (a minute when it has
// none, as a bound on a stuck daemon) and its cancellation.
func client(ctx context.Context) lean.Client {
	left := time.Minute
	if dl, ok := ctx.Deadline(); ok {
		left = time.Until(dl)
	}
	return lean.Client{Version: Version, Deadline: lean.After(int64(left)), Done: ctx.Done()}
}

// Call sends one HTTP/1.1 request over the socket and reads the whole
// answer. It is deliberately tiny (no net/http; see package lean). A dead
// socket gives an error wrapping ErrNoDaemon.
func Call(ctx context.Context, sock, method, path string, body []byte) (*Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNoDaemon, sock, err)
	}
	return client(ctx).Call(sock, method, path, body)
}

// Ping reports whether a daemon answers on the socket.
func Ping(ctx context.Context, sock string) error { return client(ctx).Ping(sock) }

// Ensure returns the socket of a running daemon. With autostart, a missing
// daemon is started (`ccd daemon`, see DaemonExe) and awaited until ctx
// expires (or a minute passes, when ctx has no deadline); concurrent callers start at most one process between them, and
// the daemon's own lock makes sure only one survives in any case.
func Ensure(ctx context.Context, autostart bool) (string, error) {
	return client(ctx).Ensure(autostart)
}
