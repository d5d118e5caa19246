// Package benchmd is ccd's benchmark harness: it drives the real binaries
// (ccd, ccd-hook; built from the tree, or taken from a bin directory) in a
// private state directory, measures each figure against its floor, and
// renders BENCHMARKS.md. `just bench` runs it over GOROOT/src and the
// Python standard library; `just bench-quick` over net/http and the
// stdlib's email package, for CI.
//
// What it measures, per corpus (a copy of the tree, so nothing is ever
// written into GOROOT or the Python installation):
//
//   - cold index: `ccd bench --mode build` (discover, parse, extract,
//     resolve) against `ccd bench --mode floor` (the raw tree-sitter parse
//     of the same files with the same workers) and universal-ctags over the
//     same file list, each run in a fresh process, the phases alternating
//     run by run; wall time, CPU time and peak RSS from the child's rusage;
//   - the daemon: cold init, time until the search index is filled, warm
//     start from the database (a fresh daemon process), one-file edit to
//     fresh graph (client-observed and daemon-reported, against the parse
//     of that file alone), RSS at rest;
//   - hooks: the real ccd-hook per event type, next to spawning a static
//     no-op binary (the floor) and a `python3 -c` JSON reader;
//   - queries over the socket (impact, symbols, evidence_pack, render)
//     against a GET /v1/ping round trip on the same connection.
//
// The pure parts (statistics, formatting, Markdown tables, parsing of the
// JSON lines and tool outputs, the report) are tested on their own; Run
// does the measuring and Report.Markdown the writing.
package benchmd
