// Command ccd-hook is the Claude Code hook shim (see package hookshim).
package main

import (
	"syscall"

	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/hookshim"
)

func main() { syscall.Exit(hookshim.Main(wire.Stdin, wire.Stdout)) }
