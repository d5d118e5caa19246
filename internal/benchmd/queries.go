package benchmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// QueryCase is one request to the daemon, measured over the socket with a
// kept-alive connection (the client's view: request written to body read).
type QueryCase struct {
	Name  string
	Floor bool
	First time.Duration // the first call (caches cold)
	Times []time.Duration
}

// queryBench times the daemon's query endpoints against GET /v1/ping,
// in interleaved rounds.
func queryBench(d *daemonProc, root string, t Target, iters int, logf func(string, ...any)) ([]*QueryCase, error) {
	q := func(path string, params url.Values) string {
		params.Set("root", root)
		return path + "?" + params.Encode()
	}
	pack, _ := json.Marshal(map[string]any{"root": root, "pattern": t.Name})
	type kase struct {
		*QueryCase
		method, path string
		body         []byte
		check        func([]byte) error
	}
	isJSON := func(key string) func([]byte) error {
		return func(b []byte) error {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return fmt.Errorf("not JSON: %w", err)
			}
			if len(m[key]) == 0 || string(m[key]) == "null" {
				return fmt.Errorf("no %q in the answer", key)
			}
			return nil
		}
	}
	isPNG := func(b []byte) error {
		if !bytes.HasPrefix(b, []byte("\x89PNG")) {
			return fmt.Errorf("not a PNG (%d bytes)", len(b))
		}
		return nil
	}
	cases := []kase{
		{&QueryCase{Name: "floor: GET /v1/ping", Floor: true}, http.MethodGet, "/v1/ping", nil, isJSON("version")},
		{&QueryCase{Name: "impact (depth 3): GET /v1/impact"}, http.MethodGet, q("/v1/impact", url.Values{"symbol": {t.ID}}), nil, isJSON("impact")},
		{&QueryCase{Name: "symbol search: GET /v1/symbols"}, http.MethodGet, q("/v1/symbols", url.Values{"q": {t.Name}}), nil, isJSON("symbols")},
		{&QueryCase{Name: "evidence_pack: POST /v1/search/evidence_pack"}, http.MethodPost, "/v1/search/evidence_pack", pack, nil},
		{&QueryCase{Name: "render architecture (PNG)"}, http.MethodGet, q("/v1/render", url.Values{"view": {"architecture"}}), nil, isPNG},
		{&QueryCase{Name: "render impact (PNG)"}, http.MethodGet, q("/v1/render", url.Values{"view": {"impact"}, "symbol": {t.ID}}), nil, isPNG},
		{&QueryCase{Name: "render board (PNG)"}, http.MethodGet, q("/v1/render", url.Values{"view": {"board"}}), nil, isPNG},
	}
	call := func(k kase) (time.Duration, error) {
		t0 := time.Now()
		r, err := d.call(k.method, k.path, k.body, 10*time.Minute)
		took := time.Since(t0)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", k.Name, err)
		}
		b := r.Body
		if r.Status != http.StatusOK {
			return 0, fmt.Errorf("%s: HTTP %d: %s", k.Name, r.Status, tail(string(b), 300))
		}
		if k.check == nil {
			k.check = isJSON("handles")
		}
		if err := k.check(b); err != nil {
			return 0, fmt.Errorf("%s %s: %w", k.Name, k.path, err)
		}
		return took, nil
	}
	for i := range iters + 1 {
		for _, k := range cases {
			t, err := call(k)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				k.First = t
			} else {
				k.Times = append(k.Times, t)
			}
		}
		if i > 0 && i%max(1, iters/4) == 0 {
			logf("  queries: %d/%d rounds", i, iters)
		}
	}
	out := make([]*QueryCase, len(cases))
	for i, k := range cases {
		out[i] = k.QueryCase
	}
	return out, nil
}
