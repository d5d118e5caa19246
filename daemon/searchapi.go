package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ccd-dev/ccd/core/search"
)

// searchSessions are the retrieval sessions of HTTP clients (what they
// expanded recently), by workspace and client-chosen session name. A
// session unused for sessionIdle is forgotten, and at most maxSessions
// are kept (the least recently used goes first).
type searchSessions struct {
	mu sync.Mutex
	m  map[string]*searchSession
}

type searchSession struct {
	s    *search.Session
	used time.Time
}

const (
	sessionIdle = time.Hour
	maxSessions = 256
)

// get returns the session name of the workspace root, made on first use.
func (ss *searchSessions) get(root, name string) *search.Session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	now := time.Now()
	if ss.m == nil {
		ss.m = map[string]*searchSession{}
	}
	k := root + "\x00" + name
	if e := ss.m[k]; e != nil {
		e.used = now
		return e.s
	}
	for key, e := range ss.m {
		if now.Sub(e.used) > sessionIdle {
			delete(ss.m, key)
		}
	}
	for len(ss.m) >= maxSessions {
		oldest := ""
		for key, e := range ss.m {
			if oldest == "" || e.used.Before(ss.m[oldest].used) {
				oldest = key
			}
		}
		delete(ss.m, oldest)
	}
	e := &searchSession{s: search.NewSession(), used: now}
	ss.m[k] = e
	return e.s
}

// searchRequest is the body of the retrieval endpoints: the workspace, an
// optional session name (expanded handles are de-prioritised per
// session), and the tool's parameters.
type searchRequest struct {
	Root    string `json:"root"`
	Path    string `json:"path"` // alias of Root (Canopy's tools called it path)
	Session string `json:"session"`
	search.PackRequest
	HandleIDs []string `json:"handle_ids"`
}

// handleSearch serves POST /v1/search/{query,evidence_pack,expand,index,invalidate}
// and GET /v1/search/status?root=.
func (d *Daemon) handleSearch(w http.ResponseWriter, r *http.Request) {
	op := r.PathValue("op")
	var req searchRequest
	if r.Method == http.MethodGet {
		req.Root = r.URL.Query().Get("root")
	} else if !decode(w, r, &req) {
		return
	}
	if req.Root == "" {
		req.Root = req.Path
	}
	if req.Root == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "missing root", `send {"root": "/path/inside/the/workspace", ...}`)
		return
	}
	h := mcpHost{d.reg}
	ix, g, err := h.Search(r.Context(), req.Root)
	if err != nil {
		fail(w, err)
		return
	}
	sess := d.sessions.get(req.Root, req.Session)
	var out any
	switch op {
	case "query":
		out, err = ix.Query(req.QueryParams, search.GraphRefs(g))
	case "evidence_pack":
		out, err = ix.EvidencePack(req.PackRequest, sess, search.GraphRefs(g))
	case "expand":
		if len(req.HandleIDs) == 0 {
			writeErr(w, http.StatusBadRequest, "bad_request", "handle_ids is empty", "pass the ids of handles from query or evidence_pack")
			return
		}
		out = ix.Expand(req.HandleIDs, sess, nil)
	case "status":
		out = ix.Status()
	case "index":
		out, err = ix.IndexGlob(req.Glob)
	case "invalidate":
		out, err = ix.Invalidate(req.Glob)
	default:
		writeErr(w, http.StatusNotFound, "not_found", fmt.Sprintf("no retrieval operation %q", op),
			"use query, evidence_pack, expand, status, index or invalidate")
		return
	}
	if err != nil {
		var se *search.Error
		if errors.As(err, &se) {
			writeJSON(w, http.StatusBadRequest, map[string]any{"code": se.Code, "message": se.Message, "hint": se.Hint,
				"offset": se.Offset, "column": se.Column})
			return
		}
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
