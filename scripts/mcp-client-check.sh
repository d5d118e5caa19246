#!/usr/bin/env bash
# Runs scripts/mcp-client-check.mjs: the official TypeScript MCP SDK client
# (installed from npm into .tools/mcp-client, pinned) against bin/ccd-mcp.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${CCD_TOOLS_DIR:-$top/.tools}/mcp-client
SDK_VERSION=1.32.2
if [ "$(node -e 'try{process.stdout.write(require(process.argv[1]).version)}catch{}' "$prefix/node_modules/@modelcontextprotocol/sdk/package.json")" != "$SDK_VERSION" ]; then
  mkdir -p "$prefix"
  npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" "@modelcontextprotocol/sdk@$SDK_VERSION" >&2
fi
# Node resolves packages from the script's directory upwards: link it there.
ln -sfn "$prefix/node_modules" "$top/scripts/node_modules"
node "$top/scripts/mcp-client-check.mjs" "${1:-$top/bin}"
