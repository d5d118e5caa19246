// Command ccd-mcp is the MCP stdio shim (see package mcpshim).
package main

import (
	"os"

	"github.com/ccd-dev/ccd/mcpshim"
)

func main() { os.Exit(mcpshim.Main(os.Stdin, os.Stdout, os.Stderr)) }
