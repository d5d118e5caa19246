// Command ccd-hook is the Claude Code hook shim (see package hookshim).
package main

import (
	"os"

	"github.com/ccd-dev/ccd/hookshim"
)

func main() { os.Exit(hookshim.Main(os.Stdin, os.Stdout)) }
