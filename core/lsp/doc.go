// Package lsp runs real language servers (gopls, pyright, TypeScript's
// native tsc, clangd, ...) as child processes and uses them to confirm and
// extend ccd's call graph.
//
// The layers, bottom up:
//
//   - client: one server process spoken to over stdio with JSON-RPC
//     (sourcegraph/jsonrpc2, VSCode framing) and glsp's protocol_3_16
//     types. It initializes with the workspace root, answers the server's
//     own requests (workspace/configuration, client/registerCapability,
//     window/workDoneProgress/create, workspace/workspaceFolders), tracks
//     work-done progress, and shuts the server down (shutdown, exit, kill
//     after a grace period).
//   - ServerSpec and DefaultServers: which server serves which files. Any
//     server is data: a command line, initialization options, extensions.
//     Detect reports which servers this machine has.
//   - Manager and Session: one session per (language, workspace root),
//     started lazily, restarted with backoff after a crash, stopped when
//     idle. Every request has a budget and is cancelled ($/cancelRequest)
//     when its context ends; no call blocks beyond its context.
//   - Refine: asks the servers about the call sites the resolver left
//     unresolved or weak, and about calls through Go interfaces, and returns
//     call edges with confidence graph.LSP.
//
// # Finding servers
//
// A command whose first word is an absolute path is used as is. Otherwise
// the word is looked up in the directories of CCD_LSP_PATH (a
// colon-separated list, searched first), then in <repo>/.tools/bin when
// the running executable lives in <repo>/bin (as `just build` puts it),
// then in PATH.
// scripts/install-lsp.sh installs gopls, pyright and TypeScript into
// <repo>/.tools and links every entry point into <repo>/.tools/bin, so
//
//	export CCD_LSP_PATH=$PWD/.tools/bin
//
// makes them visible to ccd. The package's tests default CCD_LSP_PATH to
// <module root>/.tools/bin when it is unset.
package lsp
