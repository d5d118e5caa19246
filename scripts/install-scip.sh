#!/usr/bin/env bash
# Installs the pinned SCIP tools (https://github.com/sourcegraph/scip) that
# check ccd's SCIP support (core/scip) into the repository's .tools/scip
# (git ignores .tools/): the `scip` CLI, which lints, prints, snapshots and
# summarises the indexes `ccd export --format scip` writes, and the precise
# indexers whose indexes `--scip` reads, one per language ccd serves.
# Idempotent: a tool whose pinned version is there is left alone; a tool
# installed by this run is then made to index a tiny project, which
# `scip stats` must read. No tool downloads anything when it runs, with the
# flags below.
#
#   scip             v0.5.2  go build of github.com/sourcegraph/scip
#                            ./cmd/scip into .tools/scip/bin. Its pinned
#                            github.com/bytedance/sonic v1.12.5 does not link
#                            with Go 1.26 ("invalid reference to
#                            encoding/json.unquoteBytes"): the source is copied
#                            out of the module cache and sonic is raised to
#                            v1.15.5 (`go get`) first.
#   scip-go          v0.1.26 go build of github.com/sourcegraph/scip-go
#                            ./cmd/scip-go into .tools/scip/bin, from a copy
#                            of the module too: `go install MOD@VERSION`
#                            looks up the module's deprecation in its version
#                            list, which proxy.golang.org refuses (403) for
#                            this module. It builds with Go 1.26 unchanged
#                            (golang.org/x/tools v0.36.0).
#   scip-typescript  0.4.0   npm --prefix .tools/scip/scip-typescript, with
#                            typescript 5.9.3 (it asks for ^5.6.2: pinned here)
#   scip-python      0.6.6   npm --prefix .tools/scip/scip-python (a fork of
#                            pyright; bundles typeshed)
#
# Every entry point ends up in .tools/scip/bin, where core/scip's tests
# look (after the directories of $CCD_SCIP_PATH, before PATH). The Go tools
# are built with CGO_ENABLED=0 (no C compiler needed). Installing needs go,
# node and npm, and reaches only the Go module proxy (and its checksum
# database) and the npm registry.
#
# Indexing (each writes ./index.scip; --output / -o elsewhere):
#
#   scip-go -q                    in the module root; runs `go list` (go on
#                                 PATH), so the module's dependencies must be
#                                 in the module cache (`go mod download`), or
#                                 go fetches them; and git (remote get-url
#                                 origin, rev-parse, tag), for the module's
#                                 name and version, which may fail
#   scip-typescript index --no-progress-bar   next to tsconfig.json (without
#                                 one, --infer-tsconfig, which writes one:
#                                 {})
#   scip-python index --quiet --project-name NAME --project-version V \
#       --environment ENV.json    in the project root (or --cwd DIR).
#                                 Without --environment it runs `pip3 list`
#                                 and a script over every installed
#                                 distribution (seconds, and pip may check
#                                 PyPI for a newer pip); ENV.json holding []
#                                 skips that. Without --project-version it
#                                 takes `git rev-parse HEAD`, and outside a
#                                 git repository 0.6.6 crashes (TypeError in
#                                 normalizeNameOrVersion). It runs python3, if
#                                 on PATH, only for sys.path.
#   scip stats --from index.scip --project-root DIR   (without
#                                 --project-root, v0.5.2 cannot count lines
#                                 and logs "stat : no such file")
#
# Options (environment): CCD_TOOLS_DIR overrides .tools.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${CCD_TOOLS_DIR:-$top/.tools}/scip
bin=$tools/bin

SCIP_VERSION=v0.5.2
SONIC_VERSION=v1.15.5
SCIP_GO_VERSION=v0.1.26
SCIP_TS_VERSION=0.4.0
SCIP_TS_TYPESCRIPT_VERSION=5.9.3
SCIP_PY_VERSION=0.6.6

log() { echo "install-scip: $*" >&2; }

mkdir -p "$bin"
work=$(mktemp -d "${TMPDIR:-/tmp}/install-scip.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# The go command as the builds use it, whatever the caller's go env says.
gocmd() { GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0 go "$@"; }

# module_src MOD VERSION DEST copies MOD@VERSION's source out of the
# read-only module cache (downloading it through GOPROXY) into DEST, writable.
module_src() {
  local json dir
  if ! json=$(cd "$work" && gocmd mod download -json "$1@$2"); then
    log "go mod download $1@$2 failed:"
    echo "$json" >&2
    exit 1
  fi
  dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' <<<"$json")
  if [ ! -d "$dir" ]; then
    log "go mod download $1@$2 named no directory:"
    echo "$json" >&2
    exit 1
  fi
  cp -R "$dir" "$3"
  chmod -R u+w "$3"
}

# npm_version PREFIX PKG prints the version of PKG installed under PREFIX, or
# nothing.
npm_version() {
  node -e 'try{process.stdout.write(require(process.argv[1]).version)}catch{}' "$1/node_modules/$2/package.json"
}

# check NAME GOT WANT fails unless GOT (a tool's --version) is WANT.
check() {
  if [ "$2" != "$3" ]; then
    log "$1 --version printed '$2', want '$3'"
    exit 1
  fi
}

# smoke NAME DIR CMD... runs CMD in DIR, which must write DIR/index.scip
# with at least one document that `scip stats` reads.
smoke() {
  local name=$1 dir=$2 stats
  shift 2
  log "indexing a tiny project with $name ..."
  if ! (cd "$dir" && "$@") >"$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    log "$name failed to index $dir"
    exit 1
  fi
  stats=$("$bin/scip" stats --from "$dir/index.scip" --project-root "$dir" 2>&1) || true
  if ! grep -q '"documents": [1-9]' <<<"$stats"; then
    cat "$work/$name.log" >&2
    echo "$stats" >&2
    log "scip stats did not read $name's index of $dir"
    exit 1
  fi
}

fresh=" "

# scip
want="scip version $SCIP_VERSION"
have=""
if [ -x "$bin/scip" ]; then have=$("$bin/scip" --version 2>/dev/null | head -n1 || true); fi
if [ "$have" != "$want" ]; then
  log "building scip $SCIP_VERSION with sonic $SONIC_VERSION (go, about a minute) ..."
  src=$work/scip
  module_src github.com/sourcegraph/scip "$SCIP_VERSION" "$src"
  (
    cd "$src"
    gocmd get "github.com/bytedance/sonic@$SONIC_VERSION"
    # -mod=mod adds the go.sum lines the raised modules need; `go mod tidy`
    # selects the same versions but downloads every test dependency of the
    # whole module (about 600 MB more).
    # Reproducible drops the "-dev" and the empty VCS lines from --version.
    gocmd build -mod=mod -trimpath -ldflags "-X main.Reproducible=1" -o "$bin/scip.new" ./cmd/scip
  ) >&2
  mv -f "$bin/scip.new" "$bin/scip"
  fresh+="scip "
fi
check scip "$("$bin/scip" --version 2>&1 | head -n1)" "$want"
for cmd in lint print snapshot stats; do
  if ! "$bin/scip" "$cmd" --help >/dev/null 2>&1; then
    log "scip has no '$cmd' command"
    exit 1
  fi
done

# scip-go
want=${SCIP_GO_VERSION#v}
have=""
if [ -x "$bin/scip-go" ]; then have=$("$bin/scip-go" --version 2>&1 | head -n1 || true); fi
if [ "$have" != "$want" ]; then
  log "building scip-go $SCIP_GO_VERSION (go, about half a minute) ..."
  src=$work/scip-go
  module_src github.com/sourcegraph/scip-go "$SCIP_GO_VERSION" "$src"
  (cd "$src" && gocmd build -mod=readonly -trimpath -o "$bin/scip-go.new" ./cmd/scip-go) >&2
  mv -f "$bin/scip-go.new" "$bin/scip-go"
  fresh+="scip-go "
fi
check scip-go "$("$bin/scip-go" --version 2>&1 | head -n1)" "$want"

# scip-typescript and scip-python
# name package version other-pinned-packages...
npm_tools=(
  "scip-typescript @sourcegraph/scip-typescript $SCIP_TS_VERSION typescript@$SCIP_TS_TYPESCRIPT_VERSION"
  "scip-python @sourcegraph/scip-python $SCIP_PY_VERSION"
)
for t in "${npm_tools[@]}"; do
  read -r name pkg version extra <<<"$t"
  prefix=$tools/$name
  ok=1
  if [ "$(npm_version "$prefix" "$pkg")" != "$version" ] || [ ! -x "$prefix/node_modules/.bin/$name" ]; then ok=0; fi
  for e in $extra; do
    if [ "$(npm_version "$prefix" "${e%@*}")" != "${e##*@}" ]; then ok=0; fi
  done
  if [ "$ok" = 0 ]; then
    log "installing $pkg@$version (npm) ..."
    mkdir -p "$prefix"
    # shellcheck disable=SC2086 # extra is a list
    npm install --silent --no-audit --no-fund --save-exact --prefix "$prefix" "$pkg@$version" $extra >&2
    fresh+="$name "
  fi
  ln -sfn "$prefix/node_modules/.bin/$name" "$bin/$name"
  check "$name" "$("$bin/$name" --version 2>&1 | head -n1)" "$version"
done

# A tool installed by this run must index.
case "$fresh" in *" scip-go "*)
  d=$work/smoke-go
  mkdir -p "$d/lib"
  printf 'module example.com/smoke\n\ngo 1.22\n' >"$d/go.mod"
  printf 'package lib\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n' >"$d/lib/lib.go"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/smoke/lib"\n)\n\nfunc main() { fmt.Println(lib.Add(1, 2)) }\n' >"$d/main.go"
  smoke scip-go "$d" env GOWORK=off GOFLAGS= "$bin/scip-go" -q
  ;;
esac
case "$fresh" in *" scip-typescript "*)
  d=$work/smoke-ts
  mkdir -p "$d/src"
  printf '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n' >"$d/tsconfig.json"
  printf 'export function add(a: number, b: number): number { return a + b; }\n' >"$d/src/lib.ts"
  printf 'import { add } from "./lib";\nconsole.log(add(1, 2));\n' >"$d/src/main.ts"
  smoke scip-typescript "$d" "$bin/scip-typescript" index --no-progress-bar
  ;;
esac
case "$fresh" in *" scip-python "*)
  d=$work/smoke-py
  mkdir -p "$d/smoke"
  printf '' >"$d/smoke/__init__.py"
  printf 'def add(a: int, b: int) -> int:\n    return a + b\n' >"$d/smoke/lib.py"
  printf 'from smoke.lib import add\n\nprint(add(1, 2))\n' >"$d/smoke/main.py"
  echo '[]' >"$d/environment.json"
  smoke scip-python "$d" "$bin/scip-python" index --quiet --project-name smoke --project-version 0.0.0 --environment environment.json
  ;;
esac

echo "scip $SCIP_VERSION in $bin/scip"
echo "scip-go $SCIP_GO_VERSION in $bin/scip-go"
echo "scip-typescript $SCIP_TS_VERSION in $bin/scip-typescript"
echo "scip-python $SCIP_PY_VERSION in $bin/scip-python"
