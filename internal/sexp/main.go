// Command sexp prints the tree-sitter syntax tree of a file (a schema-writing aid).
// Usage: go run ./internal/sexp LANG FILE
package main

import (
	"fmt"
	"os"

	"github.com/ccd-dev/ccd/core/parse"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sexp LANG FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := parse.DebugTree(os.Args[1], src)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(out)
}
