package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/ccd-dev/ccd/core/store"
)

// runCheckStore checks a ccd database file; the daemon runs it in a child
// process before opening a workspace's store (store.CheckCommand), so a
// damaged file that makes bbolt panic costs the child only. Exit status:
// 0 sound, 1 damaged, 3 locked by another process.
func runCheckStore(c *ctx, args []string) error {
	if len(args) != 1 {
		return usageError{"want the database file"}
	}
	err := store.CheckFile(args[0])
	switch {
	case err == nil:
		fmt.Fprintln(c.stdout, "ok")
		return nil
	case errors.As(err, new(*store.ErrInUse)):
		fmt.Fprintf(c.stderr, "ccd check-store: %s is locked by another process\n", args[0])
		os.Exit(3)
	}
	return err
}
