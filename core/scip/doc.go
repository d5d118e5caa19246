// Package scip speaks SCIP, the Source Code Intelligence Protocol that
// Sourcegraph ingests, in both directions.
//
// Export turns ccd's graph into an index: a document per file, symbols
// for modules, classes and functions with definition occurrences, and a
// reference occurrence at every call, reference and import site. Symbols
// use the scheme "ccd" and the package the nearest manifest declares
// (go.mod: gomod, package.json: npm, pyproject.toml: pypi).
//
// Import reads an index made by a precise indexer (scip-go,
// scip-typescript, scip-python) and uses its references to confirm,
// redirect and add call edges, as the language-server refinement does
// but without a server: the result is a refinement whose edges carry the
// confidence graph.Precise. Documents of files changed since the index
// was written are left out; their call sites keep what tree-sitter (and
// the servers) found.
//
// The wire format is written and read with protowire against the field
// numbers of scip.proto (SCIP 0.5); nothing is generated.
package scip
