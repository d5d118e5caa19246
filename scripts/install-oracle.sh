#!/usr/bin/env bash
# Installs the independent call-graph tools ccd's accuracy harness
# (internal/oracle, `just oracle`) compares ccd with. Idempotent: what is
# there at the pinned version is left alone.
#
#   jedi        0.18.x  Debian python3-jedi, for /usr/bin/python3 (apt-get;
#                       needs root or sudo)
#   typescript  5.9.3   npm --prefix .tools/oracle/node (the compiler API;
#                       TypeScript 7 is a native binary without it)
#   universal-ctags     Debian universal-ctags (apt-get), the reference for
#                       definitions
#   gocg                go build of internal/oracle/gocg (its own module:
#                       golang.org/x/tools go/ssa and callgraph/vta) into
#                       .tools/oracle/bin
#
# Options (environment): CCD_ORACLE_TOOLS overrides .tools/oracle.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${CCD_ORACLE_TOOLS:-$top/.tools/oracle}
TS_VERSION=5.9.3

log() { echo "install-oracle: $*" >&2; }
mkdir -p "$tools/bin" "$tools/node"

# jedi, from Debian, for Debian's python3.
if ! /usr/bin/python3 -c 'import jedi' 2>/dev/null; then
  log "installing python3-jedi (apt-get) ..."
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-jedi >&2
fi
jedi=$(/usr/bin/python3 -c 'import jedi; print(jedi.__version__)')

# universal-ctags, from Debian: the definitions reference.
if ! ctags --version 2>/dev/null | grep -q '^Universal Ctags'; then
  log "installing universal-ctags (apt-get) ..."
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq universal-ctags >&2
fi
ctags=$(ctags --version | head -1 | cut -d, -f1)

# The TypeScript compiler API.
have=""
pj="$tools/node/node_modules/typescript/package.json"
if [ -f "$pj" ]; then have=$(node -e 'process.stdout.write(require(process.argv[1]).version)' "$pj"); fi
if [ "$have" != "$TS_VERSION" ]; then
  log "installing typescript $TS_VERSION (npm) ..."
  npm install --silent --no-audit --no-fund --save-exact --prefix "$tools/node" "typescript@$TS_VERSION" >&2
fi

# The Go oracle, from its own module (go.sum pins golang.org/x/tools).
log "building gocg ..."
(cd "$top/internal/oracle/gocg" && GOWORK=off GOFLAGS="-mod=readonly -buildvcs=false" go build -o "$tools/bin/gocg" .)

log "jedi $jedi (/usr/bin/python3), $ctags, typescript $TS_VERSION ($tools/node), gocg ($tools/bin/gocg)"
