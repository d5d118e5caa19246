// Package mcp is ccd's MCP server: the `canvas` tool (init, impact, claim,
// decide, mark, skip, task_select, status, read) on the official go-sdk.
// The daemon runs one server session per upgraded socket connection with
// Serve, and implements Host to give the tool graphs, boards and pictures.
//
// Every successful answer has one layout: the action's result (what
// happened, with numbers), a blank line, the board summary line, and a
// "Next:" hint; then the pictures as PNG ImageContent (init: architecture
// and board; impact: impact and board; read: none; the others: board).
// Errors (IsError) are a message and a "Hint:" line saying what to do:
// unknown symbols list similar ones (impact, mark, skip, decide).
//
// repo_path defaults to the project of the session's last init (or the
// last explicit repo_path), then to the client's working directory given to
// Serve; relative paths are resolved against that directory. use_lsp is
// accepted and ignored, and not advertised in the schema.
//
// Answers stay far below Claude Code's limit on MCP results (about 25k
// tokens): the result part is cut at MaxResultChars, impact lists show 20
// entries per section, read shows the newest 30 items per section, and
// each cut says how to get more.
//
// Logs go to the slog.Logger given with WithLogger, never to the stream.
package mcp
