#!/usr/bin/env bash
# Installs the pinned Claude Code CLI into the repository's .tools/claude
# (git ignores .tools/) for daemon/claudecode_e2e_test.go, which drives it
# headless (`claude -p`) against a scripted stand-in for the model API on
# localhost. Idempotent: nothing happens when the pinned version is there.
# The npm package brings a native binary through an optional dependency;
# nothing is downloaded when claude runs.
#
# Options (environment): CCD_TOOLS_DIR overrides .tools.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${CCD_TOOLS_DIR:-$top/.tools}/claude
CLAUDE_CODE_VERSION=2.1.328

have=$(node -e 'try{process.stdout.write(require(process.argv[1]).version)}catch{}' \
  "$prefix/node_modules/@anthropic-ai/claude-code/package.json")
if [ "$have" != "$CLAUDE_CODE_VERSION" ] || [ ! -x "$prefix/node_modules/.bin/claude" ]; then
  echo "install-claude: installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION (npm) ..." >&2
  mkdir -p "$prefix"
  npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >&2
fi
# The version it reports must be the pinned one (the optional dependency
# holding the native binary can fail to install silently).
got=$(DISABLE_AUTOUPDATER=1 "$prefix/node_modules/.bin/claude" --version 2>/dev/null || true)
case "$got" in
"$CLAUDE_CODE_VERSION "*) ;;
*)
  echo "install-claude: $prefix/node_modules/.bin/claude --version printed '$got', want $CLAUDE_CODE_VERSION" >&2
  exit 1
  ;;
esac
echo "claude $CLAUDE_CODE_VERSION in $prefix/node_modules/.bin/claude"
