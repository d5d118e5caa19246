#!/usr/bin/env bash
# Installs the pinned CLIs of the other coding agents ccd serves into the
# repository's .tools/agents/NAME (git ignores .tools/), for
# daemon/agents_e2e_test.go, which drives each one headless against a
# scripted stand-in for its model API on localhost. Idempotent: nothing
# happens when the pinned versions are there. No agent downloads anything
# when it runs.
#
#   codex    @openai/codex (a native binary in an optional dependency)
#   gemini   @google/gemini-cli
#   copilot  @github/copilot
#   droid    @factory/cli-linux-x64: Factory's wrapper package @factory/cli
#            fetches its platform binary in a postinstall script, from the
#            npm registry, by its own version; the binary package is
#            installed directly instead (the same binary, no script).
#
# Options (environment): CCD_TOOLS_DIR overrides .tools.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${CCD_TOOLS_DIR:-$top/.tools}/agents

# name package version binary(relative to the prefix) version-output-prefix
agents=(
  "codex @openai/codex 0.169.0 node_modules/.bin/codex codex-cli 0.169.0"
  "gemini @google/gemini-cli 0.61.0 node_modules/.bin/gemini 0.61.0"
  "copilot @github/copilot 1.0.102 node_modules/.bin/copilot GitHub Copilot CLI 1.0.102"
  "droid @factory/cli-linux-x64 0.225.2 node_modules/@factory/cli-linux-x64/bin/droid 0.225.2"
)

case "$(uname -s)-$(uname -m)" in
Linux-x86_64) ;;
*) echo "install-agents: the pinned agent binaries are for linux-x64; skipping on $(uname -s)-$(uname -m)" >&2; exit 0 ;;
esac

for a in "${agents[@]}"; do
  read -r name pkg version bin want <<<"$a"
  prefix=$tools/$name
  have=$(node -e 'try{process.stdout.write(require(process.argv[1]).version)}catch{}' "$prefix/node_modules/$pkg/package.json")
  if [ "$have" != "$version" ] || [ ! -x "$prefix/$bin" ]; then
    echo "install-agents: installing $pkg@$version (npm) ..." >&2
    mkdir -p "$prefix"
    npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" "$pkg@$version" >&2
  fi
  # The version it reports must be the pinned one (an optional dependency
  # holding a native binary can fail to install silently).
  got=$(HOME="$prefix" "$prefix/$bin" --version 2>/dev/null | head -1 || true)
  case "$got" in
  "$want"*) ;;
  *)
    echo "install-agents: $prefix/$bin --version printed '$got', want '$want'" >&2
    exit 1
    ;;
  esac
  echo "$name $version in $prefix/$bin"
done
