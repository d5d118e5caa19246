package wire

// Status is the answer of GET /v1/status.
type Status struct {
	PID      int     `json:"pid"`
	Version  string  `json:"version"`
	UptimeS  float64 `json:"uptime_s"`
	RSSBytes int64   `json:"rss_bytes"` // resident memory, less LazyFreeBytes
	// LazyFreeBytes is memory the daemon has given back lazily (MADV_FREE):
	// still counted as resident by the kernel until it needs the pages.
	LazyFreeBytes int64           `json:"lazy_free_bytes,omitempty"`
	Socket        string          `json:"socket"`
	StateDir      string          `json:"state_dir"`
	Requests      int64           `json:"requests"`
	Workspaces    []WorkspaceInfo `json:"workspaces"`
	// Hooks counts hook events per event type, with the cards emitted and
	// the daemon-side latency.
	Hooks map[string]HookStats `json:"hooks,omitempty"`
	// LSP lists the language-server sessions.
	LSP []LSPSession `json:"lsp,omitempty"`
}

// LSPSession is one language server the daemon runs for a workspace.
type LSPSession struct {
	Language  string `json:"language"`
	Server    string `json:"server"`
	Root      string `json:"root"`
	State     string `json:"state"`
	Version   string `json:"version,omitempty"`
	PID       int    `json:"pid,omitempty"`
	RSSBytes  int64  `json:"rss_bytes,omitempty"`
	Requests  uint64 `json:"requests"`
	Failures  uint64 `json:"failures"`
	Restarts  int    `json:"restarts"`
	LastError string `json:"last_error,omitempty"`
}

// DoctorLanguage is one row of `ccd doctor`: what ccd has for a language.
type DoctorLanguage struct {
	Language   string   `json:"language"`
	Extensions []string `json:"extensions"`
	Grammar    bool     `json:"grammar"`
	Schema     string   `json:"schema"` // full, generic or none
	// Files counts the language's files in the workspace doctor was
	// asked about (-1: no workspace known).
	Files    int          `json:"files"`
	Server   string       `json:"server,omitempty"`
	Found    bool         `json:"server_found"`
	Path     string       `json:"server_path,omitempty"`
	Version  string       `json:"server_version,omitempty"`
	Problem  string       `json:"problem,omitempty"`
	Sessions []LSPSession `json:"sessions,omitempty"`
}

// HookStats are the counters of one hook event type.
type HookStats struct {
	Count int     `json:"count"`
	Cards int     `json:"cards"`
	P50MS float64 `json:"p50_ms"`
	P99MS float64 `json:"p99_ms"`
}

// WorkspaceInfo describes one workspace; every answer about a workspace
// carries it, so no answer is stale without saying so.
type WorkspaceInfo struct {
	Root       string `json:"root"`
	State      string `json:"state"` // indexing, ready, failed
	Error      string `json:"error,omitempty"`
	Generation uint64 `json:"generation"`
	Fresh      bool   `json:"fresh"` // no file change is waiting to be applied
	Head       string `json:"head,omitempty"`
	Updates    int    `json:"updates"`
	Warm       bool   `json:"warm_start,omitempty"` // the graph was restored from the store
	// Watch is how the tree is followed: "inotify", or "polling" when
	// inotify's limits were reached (the tree is walked every 2 s).
	Watch string `json:"watch,omitempty"`
	// Store says why the workspace works without its database (another
	// process holds it): nothing is saved; "" when the store is in use.
	Store    string  `json:"store,omitempty"`
	Reparsed int     `json:"reparsed"`                 // files parsed by the last index run or update
	Reused   int     `json:"reused"`                   // files whose stored facts were reused
	UpdateMS float64 `json:"last_update_ms,omitempty"` // first event to fresh graph
	// Trees counts the syntax trees kept for incremental reparsing, and
	// the reparses that used one.
	Trees       int `json:"trees,omitempty"`
	Incremental int `json:"incremental_parses,omitempty"`
	// LSP is the language-server refinement: off, refining, done or
	// failed; LSPAdded and LSPUpgraded count the call edges it added and
	// confirmed (they are in every answer once it is done).
	LSP         string `json:"lsp,omitempty"`
	LSPAdded    int    `json:"lsp_added,omitempty"`
	LSPUpgraded int    `json:"lsp_upgraded,omitempty"`
	LSPProgress string `json:"lsp_progress,omitempty"` // "asked/total" while refining
	// Precise says what the workspace's precise SCIP index (index.scip,
	// from scip-go, scip-typescript, scip-python) contributed, or why it
	// was not used; empty without one.
	Precise string `json:"precise,omitempty"`
	// Tests says what the workspace's recording of its test suite holds
	// (`ccd tests record`): "recorded 2h ago: 83 tests ran 126 of 208
	// functions", or why the file is not used; "" without one.
	Tests string `json:"tests,omitempty"`
	// LSPServers maps each language asked about to its server; LSPMissing
	// each language whose server is not installed to the server it needs
	// ("go": "gopls"): the daemon looks for those again every 30 s.
	LSPServers map[string]string `json:"lsp_servers,omitempty"`
	LSPMissing map[string]string `json:"lsp_missing,omitempty"`
	// LSPSpliced and LSPReapplied count how the refined graph followed
	// updates: by splicing in the changed files, or by applying the whole
	// refinement again (after a full resolve).
	LSPSpliced   int            `json:"lsp_spliced,omitempty"`
	LSPReapplied int            `json:"lsp_reapplied,omitempty"`
	Phase        string         `json:"phase,omitempty"`
	Done         int            `json:"done,omitempty"`
	Total        int            `json:"total,omitempty"`
	Files        int            `json:"files"`
	Nodes        int            `json:"nodes"`
	Edges        int            `json:"edges"`
	Languages    map[string]int `json:"languages,omitempty"`
	Summary      string         `json:"summary,omitempty"`
	// SyntaxErrors lists the files with syntax errors (path, first line,
	// count); what the parser recovered from them is in the graph.
	SyntaxErrors []FileError `json:"syntax_errors,omitempty"`
	IndexedAt    string      `json:"indexed_at,omitempty"`
	IndexMS      float64     `json:"index_ms,omitempty"`
}

// FileError is a file with syntax errors: the line of the first, and how
// many.
type FileError struct {
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Errors int    `json:"errors"`
}

// AddWorkspace is the body of POST /v1/workspaces and /v1/workspaces/reindex.
type AddWorkspace struct {
	Root  string `json:"root"`
	Force bool   `json:"force,omitempty"`
	// WaitS waits up to this many seconds for indexing to finish.
	WaitS float64 `json:"wait_s,omitempty"`
}
