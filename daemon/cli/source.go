package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/lsp"
	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/daemon"
	"github.com/ccd-dev/ccd/daemon/wire"
	"github.com/ccd-dev/ccd/daemon/workspace"
)

// source answers a command's questions about a workspace: the running
// daemon, or, without one (or with CCD_NO_DAEMON=1), the workspace opened
// in this process. Either way the answer is made by the same code
// (daemon/workspace, report.ImpactOf, report.Symbols, daemon.Doctor),
// so every command has one body: it asks its source, then prints.
type source interface {
	// impact is the impact report of sym (recorded on the board as
	// evidence and focus when the daemon makes it).
	impact(root, sym string, depth int, conf graph.Confidence) (*report.Impact, error)
	// symbols finds up to limit symbols like q.
	symbols(root, q string, limit int) ([]graph.ExportNode, error)
	// picture draws a view as format (png or svg) and says where its
	// artifact goes under .codecanvas/ and whether it is written there
	// already.
	picture(root, view, sym string, depth int, scale float64, format string) (picture, error)
	// doctor is the doctor's table for the workspace holding root.
	doctor(root string) (doctorAnswer, error)
}

// picture is a drawn view.
type picture struct {
	data     []byte
	artifact string // the view's file under .codecanvas/
	saved    bool   // written there already (by the daemon)
}

// doctorAnswer is the answer of GET /v1/doctor.
type doctorAnswer struct {
	LSP        string                `json:"lsp"`
	Workspace  string                `json:"workspace,omitempty"`
	SearchPath []string              `json:"search_path"`
	Languages  []wire.DoctorLanguage `json:"languages"`
	where      string                // who answered, for the heading
}

// sourceFor returns the running daemon, else this process.
func sourceFor(c *ctx) source {
	if cl := running(); cl != nil {
		return daemonSource{cl}
	}
	return localSource{c}
}

// daemonSource asks the running daemon.
type daemonSource struct{ cl *daemonClient }

func (d daemonSource) impact(root, sym string, depth int, conf graph.Confidence) (*report.Impact, error) {
	var ans struct {
		Impact *report.Impact `json:"impact"`
	}
	// record: the impact becomes evidence and the board's focus, as an
	// agent's does through the MCP tool.
	p := url.Values{"symbol": {sym}, "depth": {fmt.Sprint(depth)}, "min_confidence": {conf.String()}, "record": {"1"}}
	if err := daemonQuery(d.cl, "/v1/impact", root, p, &ans); err != nil {
		return nil, err
	}
	return ans.Impact, nil
}

func (d daemonSource) symbols(root, q string, limit int) ([]graph.ExportNode, error) {
	var ans struct {
		Symbols []graph.ExportNode `json:"symbols"`
	}
	if err := daemonQuery(d.cl, "/v1/symbols", root, url.Values{"q": {q}, "limit": {fmt.Sprint(limit)}}, &ans); err != nil {
		return nil, err
	}
	return ans.Symbols, nil
}

func (d daemonSource) picture(root, view, sym string, depth int, scale float64, format string) (picture, error) {
	p := url.Values{"view": {view}, "format": {format}, "scale": {fmt.Sprint(scale)}, "depth": {fmt.Sprint(depth)}}
	if sym != "" {
		p.Set("symbol", sym)
	}
	r, err := daemonAnswer(d.cl, "/v1/render", root, p)
	if err != nil {
		return picture{}, err
	}
	return picture{data: r.Body, artifact: r.Header["x-ccd-artifact"], saved: format == "png" && scale == 1}, nil
}

func (d daemonSource) doctor(root string) (doctorAnswer, error) {
	var ans doctorAnswer
	abs, err := filepath.Abs(root)
	if err != nil {
		return ans, err
	}
	err = d.cl.within(30*time.Second).do(http.MethodGet, "/v1/doctor?root="+url.QueryEscape(abs), nil, &ans)
	ans.where = "daemon"
	return ans, err
}

// localSource opens the workspace in this process: the daemon's own
// workspace code (daemon/workspace), one-shot (no store, no board, no
// language servers), with its precise SCIP index when it has one.
type localSource struct{ c *ctx }

func (l localSource) impact(root, sym string, depth int, conf graph.Confidence) (*report.Impact, error) {
	w, err := open(root)
	if err != nil {
		return nil, err
	}
	w.Refine() // the precise index, when the workspace has one
	checkPrecise(l.c.stderr, w, preciseAuto, false)
	s := w.Snapshot()
	if s.Runs == nil && s.RunsLine != "" {
		fmt.Fprintf(l.c.stderr, "tests: %s; affected tests come from the call graph alone\n", s.RunsLine)
	}
	r, _, err := report.ImpactOf(s.Graph, sym, depth, graph.Filter{MinConfidence: conf, Runs: s.Runs}, s.Precise.Line())
	return r, err
}

func (l localSource) symbols(root, q string, limit int) ([]graph.ExportNode, error) {
	res, err := load(root)
	if err != nil {
		return nil, err
	}
	return report.Symbols(res.Graph, q, limit), nil
}

func (l localSource) picture(root, view, sym string, depth int, scale float64, format string) (picture, error) {
	if view == workspace.ViewBoard {
		return picture{}, fmt.Errorf("the board lives in the daemon: start it with `ccd daemon --detach` (or `ccd init`), then render the board")
	}
	w, err := open(root)
	if err != nil {
		return picture{}, err
	}
	res, _ := w.Result()
	g, node := res.Graph, -1
	if view == workspace.ViewImpact {
		if node, _, err = report.Target(g, sym); err != nil {
			return picture{}, err
		}
	}
	pic, file, err := w.Draw(g, view, node, depth, render.Options{Scale: scale})
	if err != nil {
		return picture{}, err
	}
	out := picture{artifact: filepath.Join(w.Root(), store.Dir, file)}
	if format == "svg" {
		out.data = pic.SVG()
	} else if out.data, err = pic.PNG(); err != nil {
		return picture{}, err
	}
	return out, nil
}

func (l localSource) doctor(string) (doctorAnswer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return doctorAnswer{LSP: "auto", Languages: daemon.Doctor(ctx, nil, nil), SearchPath: lsp.DefaultSearchPath(),
		where: "in-process, no daemon running"}, nil
}
