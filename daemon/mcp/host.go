package mcp

import (
	"context"
	"errors"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
)

// Host is what the canvas tool needs from the daemon. Roots passed in are
// absolute paths; a root may be any directory inside a workspace except
// where a method says it is the workspace root (InitInfo.Root or
// Meta.Root). All methods may be called concurrently, from several
// sessions.
//
// Errors may implement `Hint() string`; the tool shows that hint to the
// agent. Errors for an unknown workspace must wrap ErrNotInitialized, and
// errors for a workspace whose first index is still running must wrap
// ErrIndexing, so the tool can say what to do.
type Host interface {
	// Init makes sure the workspace containing root is indexed and
	// watched: it adds root when unknown (refusing /, $HOME and system
	// directories, and roots without source files), and waits until a
	// graph is ready or ctx ends. It never touches the board.
	Init(ctx context.Context, root string) (InitInfo, error)

	// Graph returns the current graph of the workspace containing root,
	// without indexing anything. The graph must not change afterwards (a
	// new generation is a new *graph.Graph).
	Graph(ctx context.Context, root string) (*graph.Graph, Meta, error)

	// Board returns the evidence board of the workspace root. Every call
	// for one workspace must return the same *board.Board for as long as
	// the daemon runs (load it from the store on first use; board.New()
	// when there is none): sessions sharing a workspace then share one
	// board, and their actions never lose each other's items.
	Board(root string) (*board.Board, error)

	// SaveBoard persists b after a change: b.Marshal() into the workspace
	// store and b.WriteState() to .codecanvas/state.json. Marshal and write
	// under one lock per workspace (or compare b.Rev()), so an older copy
	// never overwrites a newer one.
	SaveBoard(root string, b *board.Board) error

	// Picture renders one view of the workspace root as PNG.
	Picture(ctx context.Context, root string, req PictureRequest) ([]byte, error)
}

// InitInfo describes a workspace after Init.
type InitInfo struct {
	Root         string         // the workspace root, absolute
	Files        int            // source files found
	Parsed       int            // files parsed
	SyntaxErrors int            // parsed files with syntax errors
	ErrorFiles   []string       // some of them, "path:line"
	Skipped      int            // binary, too large or unreadable
	Languages    map[string]int // parsed files per language (nil: counted from the graph)
	Generation   uint64
	Head         string // git HEAD the graph reflects, "" outside git
	Fresh        bool   // no file change is pending
	Warm         bool   // the graph came from the store without reparsing
}

// Meta says which state of a workspace a graph reflects.
type Meta struct {
	Root       string // the workspace root, absolute
	Generation uint64
	Head       string
	Fresh      bool
	// Runs is the workspace's recording of which tests run which
	// functions (`ccd tests record`), nil when there is none.
	Runs graph.TestRuns
}

// Picture kinds.
const (
	PictureArchitecture = "architecture"
	PictureImpact       = "impact"
	PictureBoard        = "board"
)

// PictureRequest asks for one picture.
type PictureRequest struct {
	// Kind is PictureArchitecture, PictureImpact or PictureBoard (the
	// board of the workspace, as Host.Board returns it).
	Kind string
	// Node is the id of the impact target (PictureImpact).
	Node string
	// Depth bounds the transitive callers of an impact (0: unlimited).
	Depth int
	// MaxNodes is the display budget of an impact view (the canvas tool's
	// max_nodes, default 20; at most 8 callers and 8 callees are drawn).
	MaxNodes int
	// Evidence is the board evidence the picture illustrates ("E2"), so the
	// host can save it as such (and record it with board.SetImage); "" for
	// the board picture.
	Evidence string
}

// Errors a Host wraps so the tool can explain them.
var (
	ErrNotInitialized = errors.New("workspace not initialized")
	ErrIndexing       = errors.New("workspace is still indexing")
)
