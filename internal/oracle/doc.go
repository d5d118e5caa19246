// Package oracle is ccd's accuracy harness: it scores the call edges of
// `ccd export` against independent call graphs of real packages, per
// language, with precision and recall. The oracles decide call sites with
// their own parsers and type checkers:
//
//   - Go: gocg (a nested module, internal/oracle/gocg): go/packages,
//     go/ssa, and callgraph/vta for calls through interfaces and function
//     values;
//   - Python: pyoracle.py (run by Debian's /usr/bin/python3): the ast
//     module finds the calls, jedi resolves each callee name;
//   - JavaScript and TypeScript: jsoracle.js: the TypeScript 5.9 compiler
//     API (allowJs) finds the calls and resolves their declarations.
//
// Both sides are normalised to (call-site file, call-site line, callee
// definition file, callee definition start line), restricted to callees
// defined in the package's files that the oracle analysed, and scored at
// call-site level and at function-pair level (Score). Run fetches the
// corpora with their ordinary clients (go mod download, npm pack, the
// Python installation's own files), runs ccd and the oracles and writes
// ORACLE.md (Report.Markdown) and per-package JSON. `just oracle` runs it
// in full, `just oracle-quick` on one small package per language.
//
// See README.md in this directory for the conventions and their reasons.
package oracle
