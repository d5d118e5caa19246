#!/usr/bin/env bash
# Installs the language servers ccd's tests and daemon use, into the
# repository's .tools/ directory (git ignores it). Idempotent: a server whose
# pinned version is already there is left alone.
#
#   gopls        v0.23.0  go install (GOBIN=.tools/bin)
#   pyright      1.1.414  npm --prefix .tools/node
#   typescript   7.0.2    npm --prefix .tools/node (the native compiler:
#                         `tsc --lsp --stdio`); when 7 is not installable,
#                         typescript 5.9 + typescript-language-server 5.3.0
#
# Every server's entry point ends up as a link in .tools/bin. core/lsp
# searches, in order: the directories of $CCD_LSP_PATH, <repo>/.tools/bin
# when the running binary is <repo>/bin/ccd (as `just build` makes it),
# then PATH. Its tests default CCD_LSP_PATH to <module root>/.tools/bin.
# Anywhere else:
#
#   export CCD_LSP_PATH="$PWD/.tools/bin"
#
# Options (environment): CCD_TOOLS_DIR overrides .tools; CCD_LSP_ONLY is a
# space-separated subset of "gopls pyright typescript".
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${CCD_TOOLS_DIR:-$top/.tools}
bin=$tools/bin
node=$tools/node
only=${CCD_LSP_ONLY:-gopls pyright typescript}

GOPLS_VERSION=v0.23.0
PYRIGHT_VERSION=1.1.414
TS_VERSION=7.0.2
TS_FALLBACK_VERSION=5.9.3
TSLS_VERSION=5.3.0

mkdir -p "$bin" "$node"

log() { echo "install-lsp: $*" >&2; }
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

# npm_version PKG prints the version of PKG installed under .tools/node, or
# nothing.
npm_version() {
  local pj="$node/node_modules/$1/package.json"
  [ -f "$pj" ] || return 0
  node -e 'process.stdout.write(require(process.argv[1]).version)' "$pj"
}

npm_install() {
  npm install --silent --no-audit --no-fund --save-exact --prefix "$node" "$@" >&2
}

# link NAME TARGET makes .tools/bin/NAME point at TARGET.
link() {
  ln -sfn "$2" "$bin/$1"
}

installed=()

if want gopls; then
  have=""
  if [ -x "$bin/gopls" ]; then
    have=$("$bin/gopls" version 2>/dev/null | sed -n 's/.*gopls \(v[0-9.]*\).*/\1/p' | head -n1 || true)
  fi
  if [ "$have" != "$GOPLS_VERSION" ]; then
    log "installing gopls $GOPLS_VERSION (go install, about 1.5 minutes) ..."
    (cd "$tools" && GOBIN="$bin" GOFLAGS= go install "golang.org/x/tools/gopls@$GOPLS_VERSION")
  fi
  installed+=("gopls $("$bin/gopls" version 2>/dev/null | sed -n 's/.*gopls \(v[0-9.]*\).*/\1/p' | head -n1) $bin/gopls")
fi

if want pyright; then
  if [ "$(npm_version pyright)" != "$PYRIGHT_VERSION" ]; then
    log "installing pyright $PYRIGHT_VERSION (npm) ..."
    npm_install "pyright@$PYRIGHT_VERSION"
  fi
  link pyright-langserver "$node/node_modules/.bin/pyright-langserver"
  installed+=("pyright $(npm_version pyright) $bin/pyright-langserver")
fi

if want typescript; then
  have=$(npm_version typescript)
  case "$have" in
  7.*) ;;
  *)
    log "installing typescript $TS_VERSION (npm, native compiler) ..."
    if ! npm_install "typescript@$TS_VERSION"; then
      log "typescript $TS_VERSION did not install; falling back to typescript $TS_FALLBACK_VERSION + typescript-language-server $TSLS_VERSION"
      npm_install "typescript@$TS_FALLBACK_VERSION" "typescript-language-server@$TSLS_VERSION"
    fi
    ;;
  esac
  have=$(npm_version typescript)
  case "$have" in
  7.*)
    # The native binary, not the node wrapper: no node start-up per server.
    native=""
    for cand in "$node"/node_modules/@typescript/typescript-linux-*/lib/tsc "$node"/node_modules/@typescript/native-preview-linux-*/lib/tsgo; do
      if [ -x "$cand" ]; then native=$cand; break; fi
    done
    if [ -z "$native" ]; then
      native="$node/node_modules/.bin/tsc"
      log "no native tsc binary found under @typescript/; using the npm wrapper $native"
    fi
    link tsc "$native"
    installed+=("typescript $have $bin/tsc (--lsp --stdio)")
    ;;
  *)
    link tsc "$node/node_modules/.bin/tsc"
    link typescript-language-server "$node/node_modules/.bin/typescript-language-server"
    installed+=("typescript $have + typescript-language-server $(npm_version typescript-language-server) $bin/typescript-language-server")
    ;;
  esac
fi

echo "language servers in $bin:"
for line in "${installed[@]}"; do
  echo "  $line"
done
echo "use them with: export CCD_LSP_PATH=$bin"
