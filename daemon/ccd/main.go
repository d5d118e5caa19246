// Command ccd is the code-canvas daemon and its command line.
package main

import (
	"os"

	"github.com/ccd-dev/ccd/daemon/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
