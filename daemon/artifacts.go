package daemon

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/report"
	"github.com/ccd-dev/ccd/core/store"
)

// picture draws one view of ws: architecture, impact (of node) or board.
// file is the artifact name under .codecanvas/.
func picture(ws *workspace, g *graph.Graph, view string, node, depth int, opt render.Options) (*render.Picture, string, error) {
	switch view {
	case "architecture":
		return render.Architecture(g, filepath.Base(ws.root), opt), "architecture.png", nil
	case "impact":
		return render.Impact(g, node, depth, opt), ImpactFile(g.Nodes[node]), nil
	case "board":
		b, err := ws.loadBoard()
		if err != nil {
			return nil, "", err
		}
		return render.Board(boardView(ws.root, b.Snapshot()), opt), "board.png", nil
	}
	return nil, "", fmt.Errorf("unknown view %q (want architecture, impact or board)", view)
}

// writeArtifact saves a picture under root/.codecanvas/.
func writeArtifact(root, file string, data []byte) error {
	dir, err := stateDir(root)
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, file), data)
}

// mirrorDirs returns the directories w's artifacts are copied to.
func (w *workspace) mirrorDirs() []string {
	w.mirrorMu.Lock()
	defer w.mirrorMu.Unlock()
	var out []string
	for d := range w.mirrors {
		out = append(out, filepath.Join(d, "codecanvas"))
	}
	return out
}

// mirror copies one artifact (a file under .codecanvas/) to the mirrors.
func (w *workspace) mirror(file string, data []byte) {
	for _, d := range w.mirrorDirs() {
		if os.MkdirAll(d, 0o755) == nil {
			writeAtomic(filepath.Join(d, file), data)
		}
	}
}

// mirrorAll copies every picture and state.json to the mirrors.
func (w *workspace) mirrorAll() {
	dir := filepath.Join(w.root, store.Dir)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".png") || n == "state.json" {
			if data, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				w.mirror(n, data)
			}
		}
	}
}

// saveArtifact renders a view as PNG into .codecanvas/ in the background
// of an answer (init, impact) and returns the file's name ("" when it
// failed); failures are logged, never returned.
func (r *registry) saveArtifact(ws *workspace, g *graph.Graph, view string, node, depth int) string {
	pic, file, err := picture(ws, g, view, node, depth, render.Options{})
	if err == nil {
		var data []byte
		if data, err = pic.PNG(); err == nil {
			if err = writeArtifact(ws.root, file, data); err == nil {
				ws.mirror(file, data)
				if view == "impact" {
					ws.pruneImpacts()
				}
			}
		}
	}
	if err != nil {
		r.log.Warn("artifact", "root", ws.root, "view", view, "err", err)
		return ""
	}
	return file
}

// keepImpacts is how many impact pictures .codecanvas/ keeps besides the
// ones the board shows.
const keepImpacts = 8

// pruneImpacts removes all but the newest impact pictures of ws, keeping
// those the board view shows as thumbnails.
func (ws *workspace) pruneImpacts() {
	keep := map[string]bool{}
	if b, err := ws.loadBoard(); err == nil {
		evs := b.Snapshot().Evidence
		for _, e := range evs[max(0, len(evs)-render.BoardEvidenceShown):] {
			if e.Image != "" {
				keep[e.Image] = true
			}
		}
	}
	PruneImpacts(filepath.Join(ws.root, store.Dir), keepImpacts, keep)
}

// PruneImpacts removes the impact pictures (impact_*.png) of an artifact
// directory but the newest n and those in keep.
func PruneImpacts(dir string, n int, keep map[string]bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type pic struct {
		name string
		mod  int64
	}
	var pics []pic
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "impact_") || !strings.HasSuffix(name, ".png") || keep[name] {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			pics = append(pics, pic{name, info.ModTime().UnixNano()})
		}
	}
	sort.Slice(pics, func(i, j int) bool {
		if pics[i].mod != pics[j].mod {
			return pics[i].mod > pics[j].mod
		}
		return pics[i].name < pics[j].name
	})
	for i := n; i < len(pics); i++ {
		os.Remove(filepath.Join(dir, pics[i].name))
	}
}

// handleRender draws a view: GET /v1/render?root=&view=architecture|impact|board
// [&symbol=][&depth=][&format=png|svg][&scale=1|2]. The PNG at scale 1 is
// also saved as the view's artifact under .codecanvas/.
func (d *Daemon) handleRender(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	view := q.Get("view")
	format := q.Get("format")
	if format == "" {
		format = "png"
	}
	if format != "png" && format != "svg" {
		writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("format=%q: want png or svg", format), "pass format=png or format=svg")
		return
	}
	scale := 1.0
	if v := q.Get("scale"); v != "" {
		s, err := strconv.ParseFloat(v, 64)
		if err != nil || s < 1 || s > 4 {
			writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("scale=%q: want 1 to 4", v), "pass scale=2 for a high-resolution PNG")
			return
		}
		scale = s
	}
	depth, ok := intParam(w, q, "depth", 3, 0)
	if !ok {
		return
	}
	switch view {
	case "architecture", "board", "impact":
	default:
		writeErr(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("view=%q: want architecture, impact or board", view),
			"pass view=architecture, view=board, or view=impact&symbol=Name")
		return
	}
	node := -1
	if view == "impact" && q.Get("symbol") == "" {
		writeErr(w, http.StatusBadRequest, "bad_request", "view=impact needs a symbol", "pass symbol=Name")
		return
	}
	ws, g, _ := d.workspaceFor(w, r)
	if ws == nil {
		return
	}
	if view == "impact" {
		cands := g.Find(q.Get("symbol"))
		if len(cands) == 0 {
			fail(w, report.NotFound(g, q.Get("symbol")))
			return
		}
		node = cands[0]
	}
	pic, file, err := picture(ws, g, view, node, depth, render.Options{Scale: scale})
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("X-Ccd-Artifact", filepath.Join(ws.root, store.Dir, file))
	if format == "svg" {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(pic.SVG())
		return
	}
	data, err := pic.PNG()
	if err != nil {
		fail(w, err)
		return
	}
	if scale == 1 {
		if err := writeArtifact(ws.root, file, data); err != nil {
			d.log.Warn("artifact", "root", ws.root, "file", file, "err", err)
		} else {
			ws.mirror(file, data)
			if view == "impact" {
				ws.pruneImpacts()
			}
		}
	}
	w.Header().Set("Content-Type", "image/png")
	w.Write(data)
}
