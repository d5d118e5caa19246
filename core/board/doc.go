// Package board is ccd's evidence board: the agent's external memory for
// one workspace. It holds evidence, claims, decisions, the focus, analyses
// with their progress, and tasks. It is pure Go and knows nothing of the
// graph or the daemon: callers resolve symbols and pass node ids and
// labels (Ref).
//
// # Items
//
// Evidence E1, E2, ... is an analysis artefact. Kind "architecture" comes
// from init, with metrics modules, classes, funcs, files, call_edges and
// import_edges; kind "impact" comes from impact, with metrics callers,
// callees (1-hop, aggregated as in the impact view), blast_radius
// (transitive callers up to depth), blast_files, tests (affected tests) and
// depth. Evidence records the graph generation it reflects. An init or
// impact identical to evidence already on the board (same root or node,
// same generation, same metrics) reuses that evidence instead of repeating
// it.
//
// Claims C1, C2, ... are assertions: hypothesis, finding or question. Each
// starts "open" and is linked to the latest evidence: the one the latest
// init or impact made or reused (what the agent looked at last; with no
// init or impact yet, none). Resolve settles one:
// hypotheses and findings become "confirmed" or "refuted", questions
// "answered" (the canvas tool does this with kind=confirmed|refuted|answered
// and text="C1: why").
//
// Decisions D1, D2, ... are commitments (plan, test, edit) linked to the
// latest evidence, or outcomes for one node: mark (verified) and skip (out
// of scope), linked to the evidence of the analysis they count toward.
//
// Ids are issued from counters that are persisted with the board and raised
// above every id present when a board is loaded, so an id is never reused.
//
// # Focus and progress
//
// The focus is what the agent works on. Init sets it to the project name,
// but only when nothing else has the focus. Impact sets it to the analysed
// symbol and makes that symbol's analysis active. task_select sets it to
// "task <id>", with the task's resolved symbols and files as its analysis.
// Mark and skip move it to the analysis the addressed node belongs to (the
// active one is searched first, then the others newest first); a node in no
// analysis becomes the focus only when no analysis is active.
//
// An analysis lists the affected nodes: for an impact, the target and its
// direct callers (aggregated per class when the target is a class or a
// module); for a task, its symbols and files. A node is addressed once it
// is marked or skipped (marking a method counts for its class when the
// analysis lists the class). Progress is addressed/total of the active
// analysis. Running impact again on the same symbol refreshes its node list
// and keeps what was addressed.
//
// # Summary line
//
// Every answer of the canvas tool carries the summary line, exactly:
//
//	Board: N evidence, M claims, K decisions | Focus: X | Progress: d/t addressed
//
// N, M and K count every item (claims of any status). X is the focus label,
// "(none)" before anything set one. The progress segment is always present;
// it reads "Progress: -" when no analysis is active (after init, before the
// first impact or task).
//
// # tasks.yaml
//
// Tasks are read from the first of .codecanvas/tasks.yaml, tasks.yaml,
// .codecanvas/tasks.yml, tasks.yml under the workspace root (TasksFiles):
//
//	tasks:
//	  - id: T1                       # required, unique (case-insensitive), no spaces
//	    title: Fix the discount      # required, one line
//	    description: |               # optional, free text
//	      Orders over 100 get 10% off; the discount is never applied.
//	    symbols: [discount, total]   # optional: names the graph resolves (as impact does)
//	    files: [shop/pricing.py]     # optional: paths relative to the root
//
// The document may also be the bare list. Unknown keys are errors, so a
// misspelt field never silently drops data. testdata/board/tasks.yaml is an
// example.
//
// # Persistence
//
// Marshal encodes the whole board as versioned JSON ({"format":"ccd-board",
// "version":1, ...}); Unmarshal reads it back, refusing other formats and
// newer versions. The daemon stores these bytes in the workspace database.
//
// WriteState writes the human-readable .codecanvas/state.json, an indented
// JSON object:
//
//	schema       "ccd.state/1"
//	summary      the summary line
//	project      {root, name, generation, head, files, parsed, languages{lang: files}, init_at}
//	focus        {kind: project|symbol|task, label, node, analysis}
//	progress     the active analysis: {key, label, addressed, total, marked, skipped,
//	             remaining: [{id, label}]}, or null
//	evidence     [{id, kind, symbol, node, metrics{}, generation, image, created}]
//	claims       [{id, kind, text, status, evidence, focus, resolution, created, resolved}]
//	decisions    [{id, kind, text, symbol, node, evidence, created}]
//	analyses     [{key, label, evidence, nodes: [{id, label}],
//	             addressed: {node id: {status: mark|skip, decision}}, progress: "d/t"}]
//	tasks        [{id, title, description, symbols, files}]
//	active_task  the selected task id (absent when none)
//	latest_evidence  the evidence new claims and decisions link to
//	rev          revision, bumped by every change
//	updated      time of the last change (RFC 3339, UTC)
//
// Optional fields are left out when empty. Times are UTC.
//
// # Concurrency
//
// A Board is safe for concurrent use. Every action runs under the board's
// lock and returns the View (summary and next hint) taken under the same
// lock. Sessions that share a workspace must share one *Board (the daemon
// holds one per workspace for its lifetime): then each session's actions
// are applied to the same state in turn, nothing is lost, and ids never
// collide. A saver should marshal and write under one lock of its own, or
// compare Rev, so an older copy never overwrites a newer one.
package board
