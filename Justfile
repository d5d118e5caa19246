# ccd tasks. On a fresh machine run them through scripts/just, which
# installs just itself when it is missing.

set shell := ["bash", "-euo", "pipefail", "-c"]

# cgo compiles through scripts/cc: the compiler you chose (CC, default
# gcc), with one grammar's known warning silenced (see the script).
export CCD_CC := env_var_or_default("CCD_CC", env_var_or_default("CC", "gcc"))
export CC := justfile_directory() + "/scripts/cc"

# Default workspace for `just run`: a copy of Go's net/http (a real package
# every machine has; copied so the daemon's .codecanvas/ lands in bin/, not
# in GOROOT), laid out as in GOROOT (src/net/http) so that its imports of
# its own packages resolve. Set CCD_DEMO_ROOT to use your own project.
workspace := env_var_or_default("CCD_DEMO_ROOT", justfile_directory() + "/bin/_demo/src/net/http")

# Build the binaries into bin/: ccd (daemon + CLI), and the two static shims.
build:
    go build -o bin/ccd ./daemon/ccd
    CGO_ENABLED=0 go build -ldflags='-s -w' -o bin/ccd-hook ./hookshim/ccd-hook
    CGO_ENABLED=0 go build -ldflags='-s -w' -o bin/ccd-mcp ./mcpshim/ccd-mcp

# Copy the binaries into PREFIX/bin (default ~/.local/bin), where
# `ccd setup claude` and Claude Code find them on PATH.
install: build
    #!/usr/bin/env bash
    set -euo pipefail
    dest="${PREFIX:-$HOME/.local}/bin"
    install -d "$dest"
    install -m 0755 bin/ccd bin/ccd-hook bin/ccd-mcp "$dest/"
    echo "installed ccd, ccd-hook and ccd-mcp into $dest"
    case ":$PATH:" in *":$dest:"*) ;; *) echo "note: $dest is not on PATH; add it (export PATH=\"$dest:\$PATH\")" ;; esac
    echo "language servers: the installed ccd looks on PATH and in \$CCD_LSP_PATH; for the ones scripts/install-lsp.sh puts here: export CCD_LSP_PATH={{justfile_directory()}}/.tools/bin"

# Build, start the daemon, index a real workspace, print status and an
# impact analysis, draw the pictures (the impact picture at the same depth
# as the text), export the graph.
run: build
    @if [ -z "${CCD_DEMO_ROOT:-}" ] && [ ! -d bin/_demo/src/net/http ]; then mkdir -p bin/_demo/src/net && cp -r "$(go env GOROOT)/src/net/http" bin/_demo/src/net/http; fi
    bin/ccd daemon --detach
    bin/ccd init {{workspace}}
    @echo
    bin/ccd status
    @echo
    bin/ccd impact --root {{workspace}} Server.Serve --depth 3
    @echo
    bin/ccd render architecture --root {{workspace}}
    bin/ccd render impact Server.Serve --root {{workspace}} --depth 3
    bin/ccd render board --root {{workspace}}
    @echo
    bin/ccd export {{workspace}} -o bin/graph.json -q
    @echo "graph written to bin/graph.json ($(wc -c < bin/graph.json) bytes); the daemon keeps the workspace fresh until 'bin/ccd stop' or 30 idle minutes"

# Run the whole test suite: install the language servers and the agent
# CLIs the tests drive (Claude Code, Codex, Gemini CLI, Copilot CLI,
# Droid) and the SCIP tools (the scip CLI, scip-go, scip-typescript,
# scip-python; into .tools/), vet, every Go test, then the official
# TypeScript MCP client against the real ccd-mcp.
test: build
    bash scripts/install-lsp.sh
    bash scripts/install-claude.sh
    bash scripts/install-agents.sh
    bash scripts/install-scip.sh
    go vet ./...
    go test ./...
    bash scripts/mcp-client-check.sh
    # Budgets in executions, not seconds: a -fuzztime duration can end in a
    # spurious "context deadline exceeded" under load (Go 1.26's fuzzing
    # coordinator, golang/go#75804); about 10 s each on 2 cores.
    go test ./core/store -run '^$' -fuzz FuzzDecode -fuzztime 300000x
    go test ./daemon/hooks -run '^$' -fuzz FuzzHandle -fuzztime 200000x
    go test ./core/parse -run '^$' -fuzz FuzzParsePython -fuzztime 20000x

# Fuzz the store's decoders, the hook engine on a real index and the Python extractor, longer than `just test` does (just fuzz 5m)
fuzz TIME="1m":
    go test ./core/store -run '^$' -fuzz FuzzDecode -fuzztime {{TIME}}
    go test ./daemon/hooks -run '^$' -fuzz FuzzHandle -fuzztime {{TIME}}
    go test ./core/parse -run '^$' -fuzz FuzzParsePython -fuzztime {{TIME}}

# Measure ccd against its floors and write BENCHMARKS.md: cold index vs the
# raw tree-sitter parse (and universal-ctags when installed) on GOROOT/src
# and the Python stdlib, warm start, edit -> fresh graph, hook round trips
# vs spawning a no-op binary, queries vs a socket ping, daemon RSS, and the
# parser's `go test -bench` underneath (internal/benchmd; about 15 minutes
# on 2 cores).
bench: build
    CCD_BENCH_COMMAND="just bench" go run ./internal/benchmd/cmd/ccd-benchmd --bin bin --out BENCHMARKS.md

# The same harness on a small corpus (GOROOT/src/net/http and the stdlib's
# email package) with fewer repetitions: proves it works, for CI; writes
# bin/BENCHMARKS-quick.md.
bench-quick: build
    CCD_BENCH_COMMAND="just bench-quick" go run ./internal/benchmd/cmd/ccd-benchmd --quick --bin bin --out bin/BENCHMARKS-quick.md

# Regenerate every golden file (the packages whose tests take -update),
# after reviewing the change that moves them; `git diff` shows what moved.
update-golden:
    go test ./core/board ./core/index ./core/render ./core/scip ./core/search ./core/search/dsl ./daemon ./daemon/cli ./daemon/mcp ./internal/benchmd -update

# Score ccd's affected tests against the mutation oracle's cached truth
# (testdata/mutation/: the tests that fail when a function is made to fail
# on entry, in chi, pflag, toml and a slice of the Python stdlib) and write
# MUTATION.md; seconds (internal/mutation).
mutation:
    go run ./internal/mutation/cmd/ccd-mutation --out MUTATION.md

# Record the corpora's test suites again (which tests run which functions,
# as `ccd tests record` does), then score with and without the recordings.
mutation-record:
    go run ./internal/mutation/cmd/ccd-mutation --record --out MUTATION.md

# Recompute that truth first (every mutant runs its corpus's test suite,
# one at a time: about an hour on 2 cores), then write MUTATION.md.
mutation-refresh:
    go run ./internal/mutation/cmd/ccd-mutation --refresh --out MUTATION.md

# Ask ccd's retrieval the questions of testdata/retrieval/questions.tsv and
# of the held-out testdata/retrieval/heldout.tsv (never used to tune the
# ranking) over GOROOT/src and the Python stdlib (gold: the file that
# implements the answer) beside a keyword grep loop, and write RETRIEVAL.md:
# recall@1, recall@8, MRR, latency and how evidence-pack confidence bears
# out, each set apart (internal/retrieval; about 5 minutes).
retrieval:
    go run ./internal/retrieval/cmd/ccd-retrieval --out RETRIEVAL.md

# Score ccd's call edges against independent call graphs (Go: go/ssa and
# VTA; Python: jedi; JS/TS: the TypeScript checker) on three or more real
# packages per language, fetched with go mod download, npm pack and the
# Python installation, and write ORACLE.md plus per-package JSON under
# bin/oracle/ (internal/oracle; installs its tools first).
oracle: build
    bash scripts/install-oracle.sh
    go run ./internal/oracle/cmd/ccd-oracle

# The same on one small package per language (pflag, logging, commander), in
# well under two minutes; writes bin/oracle/ORACLE-quick.md.
oracle-quick: build
    bash scripts/install-oracle.sh
    go run ./internal/oracle/cmd/ccd-oracle --quick

# Score ccd's call edges without and with each corpus package's precise
# SCIP index (made by scip-go, scip-python, scip-typescript) against the
# same oracles, and write SCIP.md (runs the oracles first where their
# output is missing; about a minute when it is there).
oracle-scip: build
    bash scripts/install-oracle.sh
    bash scripts/install-scip.sh
    go run ./internal/oracle/cmd/ccd-oracle --scip .tools/scip/bin

# Score ccd's call edges against the runtime truth of the small programs in
# testdata/micro (Python and JavaScript, one pattern each: value flow,
# callbacks, decorators, chains, MRO, CommonJS...): each is run under a
# tracer that records every call; writes MICRO.md (about 20 seconds).
micro: build
    go run ./internal/oracle/cmd/ccd-oracle micro

# Score the edit card's "will break" against the compilers' cached truth
# (testdata/breakage/: signature changes of functions in pflag, toml, chi,
# argparse, email, immer and mobx, and the calls go/types, pyright and the
# TypeScript compiler reject) and write BREAKAGE.md; seconds
# (internal/breakage).
breakage:
    go run ./internal/breakage/cmd/ccd-breakage --out BREAKAGE.md

# Recompute that truth first (every mutation type-checked, one at a time;
# pyright and the TypeScript compiler from .tools/: run
# scripts/install-lsp.sh first; about 40 minutes on 2 cores).
breakage-refresh:
    go run ./internal/breakage/cmd/ccd-breakage --refresh --out BREAKAGE.md
