package workspace

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/store"
)

// Artifacts are the files a workspace keeps under .codecanvas/ for people
// to look at: the pictures (architecture.png, impact_<Symbol>.png,
// board.png) and state.json, copied to the session's CLAUDE_CONFIG_DIR
// when one asks (Mirror). Every picture is drawn here, by Draw, and kept
// by Keep; SaveArtifact does both.

// Views a workspace draws.
const (
	ViewArchitecture = "architecture"
	ViewImpact       = "impact"
	ViewBoard        = "board"
)

// KeepImpacts is how many impact pictures .codecanvas/ keeps besides the
// ones the board shows.
const KeepImpacts = 8

// Draw draws one view of the workspace: the architecture of g, the impact
// of g's node (up to depth hops of callers), or the evidence board. file
// is the view's artifact name under .codecanvas/. Every picture of a
// workspace is drawn here.
func (w *Workspace) Draw(g *graph.Graph, view string, node, depth int, opt render.Options) (pic *render.Picture, file string, err error) {
	switch view {
	case ViewArchitecture:
		return render.Architecture(g, filepath.Base(w.root), opt), ArtifactFile(g, view, node), nil
	case ViewImpact:
		if node < 0 || node >= len(g.Nodes) {
			return nil, "", fmt.Errorf("impact picture: no node %d in the graph of %s", node, w.root)
		}
		return render.Impact(g, node, depth, opt), ArtifactFile(g, view, node), nil
	case ViewBoard:
		b, err := w.Board()
		if err != nil {
			return nil, "", err
		}
		if b == nil {
			return nil, "", fmt.Errorf("board picture of %s: no board", w.root)
		}
		return render.Board(boardView(w.root, b.Snapshot()), opt), ArtifactFile(g, view, node), nil
	}
	return nil, "", fmt.Errorf("unknown view %q (want architecture, impact or board)", view)
}

// ArtifactFile is the name of a view's artifact under .codecanvas/:
// architecture.png, board.png, or impact_<Qual>.png for g's node.
func ArtifactFile(g *graph.Graph, view string, node int) string {
	if view == ViewImpact && g != nil && node >= 0 && node < len(g.Nodes) {
		return ImpactFile(g.Nodes[node])
	}
	return view + ".png"
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// ImpactFile is the artifact name of a node's impact view:
// impact_<Qual>.png, disambiguated by the file when the name is common.
func ImpactFile(n *graph.Node) string {
	name := n.Qual
	if name == "" {
		name = n.Path
	}
	return "impact_" + strings.Trim(unsafeName.ReplaceAllString(name, "_"), "_") + ".png"
}

// Keep writes a drawn picture (PNG) as the artifact file under
// .codecanvas/ and copies it to the mirrors. When evidence names a board
// evidence ("E2"), the board records the picture as its image. Impact
// pictures past the newest KeepImpacts (and those the board shows) are
// removed.
func (w *Workspace) Keep(file string, data []byte, evidence string) error {
	dir, err := stateDir(w.root)
	if err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(dir, file), data); err != nil {
		return err
	}
	w.mirrors.copy(file, data)
	if evidence != "" {
		if b, err := w.Board(); err == nil {
			b.SetImage(evidence, file)
		}
	}
	if strings.HasPrefix(file, "impact_") {
		w.pruneImpacts()
	}
	return nil
}

// SaveArtifact draws a view as PNG and keeps it under .codecanvas/ (Keep,
// recording it as evidence's image when evidence names one), and returns
// the PNG and the file's name. A failure is logged as well as returned, so
// answers that save in the background can ignore it; a picture drawn but
// not kept comes back with the error and no file name.
func (w *Workspace) SaveArtifact(g *graph.Graph, view string, node, depth int, evidence string) (data []byte, file string, err error) {
	pic, file, err := w.Draw(g, view, node, depth, render.Options{})
	if err == nil {
		if data, err = pic.PNG(); err != nil {
			err = fmt.Errorf("%s picture: %w", view, err)
		} else {
			err = w.Keep(file, data, evidence)
		}
	}
	if err != nil {
		w.env.Log.Warn("artifact", "root", w.root, "view", view, "err", err)
		return data, "", err
	}
	return data, file, nil
}

// pruneImpacts removes all but the newest impact pictures, keeping those
// the board view shows as thumbnails.
func (w *Workspace) pruneImpacts() {
	keep := map[string]bool{}
	if b, err := w.Board(); err == nil {
		evs := b.Snapshot().Evidence
		for _, e := range evs[max(0, len(evs)-render.BoardEvidenceShown):] {
			if e.Image != "" {
				keep[e.Image] = true
			}
		}
	}
	PruneImpacts(filepath.Join(w.root, store.Dir), KeepImpacts, keep)
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

// mirrorState is where the artifacts are copied to: the
// CLAUDE_CONFIG_DIRs of the sessions that asked, a list replaced whole
// (copy on write) when one more asks.
type mirrorState struct {
	dirs atomic.Pointer[[]string]
}

// Mirror records that the artifacts are also copied to
// configDir/codecanvas/ (CLAUDE_CONFIG_DIR, whose session directory
// outlives a throw-away workspace), and copies what exists now.
func (w *Workspace) Mirror(configDir string) {
	if configDir == "" {
		return
	}
	m := &w.mirrors
	for {
		old := m.dirs.Load()
		var dirs []string
		if old != nil {
			dirs = *old
		}
		if slices.Contains(dirs, configDir) {
			return
		}
		next := append(slices.Clip(dirs), configDir)
		if m.dirs.CompareAndSwap(old, &next) {
			go w.mirrorAll()
			return
		}
	}
}

// targets returns the directories artifacts are copied to.
func (m *mirrorState) targets() []string {
	dirs := m.dirs.Load()
	if dirs == nil {
		return nil
	}
	out := make([]string, len(*dirs))
	for i, d := range *dirs {
		out[i] = filepath.Join(d, "codecanvas")
	}
	return out
}

// copy copies one artifact (a file under .codecanvas/) to the mirrors.
func (m *mirrorState) copy(file string, data []byte) {
	for _, d := range m.targets() {
		if os.MkdirAll(d, 0o755) == nil {
			writeAtomic(filepath.Join(d, file), data)
		}
	}
}

// mirrorAll copies every picture and state.json to the mirrors.
func (w *Workspace) mirrorAll() {
	dir := filepath.Join(w.root, store.Dir)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".png") || n == "state.json" {
			if data, err := os.ReadFile(filepath.Join(dir, n)); err == nil {
				w.mirrors.copy(n, data)
			}
		}
	}
}

// boardView maps a board snapshot onto the renderer's view, with the
// saved evidence pictures as thumbnails.
func boardView(root string, s board.Snapshot) render.BoardView {
	v := render.BoardView{Title: s.Project.Name, Focus: s.Focus.Label}
	if v.Title == "" {
		v.Title = filepath.Base(root)
	}
	if p := s.View.Progress; p != nil {
		v.Done, v.Total = p.Done, p.Total
	}
	for _, c := range s.Claims {
		v.Claims = append(v.Claims, render.BoardItem{ID: c.ID, Kind: string(c.Kind), Text: c.Text, Status: string(c.Status), Evidence: nonEmpty(c.Evidence)})
	}
	for _, d := range s.Decisions {
		text := d.Text
		if text == "" {
			text = d.Symbol
		} else if d.Symbol != "" && !strings.Contains(text, d.Symbol) {
			text = d.Symbol + ": " + text
		}
		v.Decisions = append(v.Decisions, render.BoardItem{ID: d.ID, Kind: string(d.Kind), Text: text, Evidence: nonEmpty(d.Evidence)})
	}
	for _, e := range s.Evidence {
		be := render.BoardEvidence{ID: e.ID, Kind: string(e.Kind), Summary: metricsLine(e.Metrics)}
		if e.Kind == board.EvidenceKind("impact") {
			be.Title = "Impact: " + e.Symbol
		} else {
			be.Title = "Architecture"
		}
		if e.Image != "" {
			be.Thumb = loadPNG(filepath.Join(root, store.Dir, e.Image))
		}
		v.Evidence = append(v.Evidence, be)
	}
	return v
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

func metricsLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), m[k]))
	}
	return strings.Join(parts, ", ")
}

func loadPNG(p string) image.Image {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

// writeAtomic writes a file through a temporary file of its own (two
// writers of one file never share one), synced before the rename, so a
// crash leaves the old content or the new, never a torn file.
func writeAtomic(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
