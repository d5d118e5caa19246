package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/store"
	"github.com/ccd-dev/ccd/daemon/mcp"
)

// boardKey is the store blob that holds a workspace's evidence board.
const boardKey = "board"

// boardBackup is a copy of the board's bytes beside the database, so a
// database moved aside as corrupt does not take the board with it.
const boardBackup = "board.bak.json"

// boardState is a workspace's evidence board, loaded on first use.
type boardState struct {
	once sync.Once
	b    *board.Board
	err  error
	save sync.Mutex // serialises saves so an older copy never wins
	// startedOver: the stored board did not decode and b began empty;
	// a save then keeps a backup that holds more (keepLargerBackup).
	startedOver bool
	ready       atomic.Bool // b is loaded
}

// mcpHost implements mcp.Host on the registry.
type mcpHost struct{ r *registry }

var _ mcp.Host = mcpHost{}

// lookup returns the registered workspace holding root.
func (h mcpHost) lookup(root string) (*workspace, error) {
	if w := h.r.find(root); w != nil {
		return w, nil
	}
	return nil, fmt.Errorf("%w: %s", mcp.ErrNotInitialized, root)
}

func (h mcpHost) Init(ctx context.Context, root string) (mcp.InitInfo, error) {
	w := h.r.find(root)
	if w == nil || w.failed() {
		abs, err := checkRoot(root, false)
		if err != nil {
			return mcp.InitInfo{}, err
		}
		if !index.HasSource(abs, h.r.cfg) {
			return mcp.InitInfo{}, &errRoot{fmt.Sprintf("no source files in %s yet", abs),
				"clone or create the project there (or pass repo_path of the project), then init again"}
		}
		if w, err = h.r.add(abs, false); err != nil {
			return mcp.InitInfo{}, err
		}
	}
	w.mu.RLock()
	ready := w.ready
	w.mu.RUnlock()
	if ready != nil {
		select {
		case <-ready:
		case <-ctx.Done():
			return mcp.InitInfo{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, w.root)
		}
	}
	// A fresh index is watched within moments; answer with that state
	// rather than "update pending".
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; {
		w.mu.RLock()
		settled := w.state != StateReady || !w.dirty || w.rootStatus() != rootSame
		w.mu.RUnlock()
		if settled {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.res == nil {
		if w.err != "" {
			return mcp.InitInfo{}, errors.New(w.err)
		}
		return mcp.InitInfo{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, w.root)
	}
	s := w.res.Summary
	var errFiles []string
	for _, e := range w.res.SyntaxErrorFiles() {
		errFiles = append(errFiles, fmt.Sprintf("%s:%d", e.Path, e.Line))
	}
	return mcp.InitInfo{Root: w.root, Files: s.Files, Parsed: s.Parsed, SyntaxErrors: s.SyntaxErrors, ErrorFiles: errFiles,
		Skipped: s.Skipped(), Languages: s.Languages, Generation: w.gen, Head: w.head,
		Fresh: w.fresh(), Warm: w.warm}, nil
}

func (w *workspace) failed() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.state == StateFailed
}

func (h mcpHost) Graph(ctx context.Context, root string) (*graph.Graph, mcp.Meta, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, mcp.Meta{}, err
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.res == nil {
		if w.state == StateFailed {
			return nil, mcp.Meta{}, fmt.Errorf("%w: %s: %s", mcp.ErrNotInitialized, w.root, w.err)
		}
		return nil, mcp.Meta{}, fmt.Errorf("%w: %s", mcp.ErrIndexing, w.root)
	}
	return h.r.served(w, w.res), mcp.Meta{Root: w.root, Generation: w.gen, Head: w.head,
		Fresh: w.fresh()}, nil
}

// board returns w's board, loading it from the store (or the backup file)
// on first use.
func (w *workspace) loadBoard() (*board.Board, error) {
	w.board.once.Do(func() {
		defer w.board.ready.Store(true)
		dir := filepath.Join(w.root, store.Dir)
		var data []byte
		if w.store != nil {
			data, _ = w.store.Blob(boardKey)
		}
		backup, _ := os.ReadFile(filepath.Join(dir, boardBackup))
		if data == nil {
			data = backup
		}
		if data == nil {
			w.board.b = board.New()
			return
		}
		b, err := board.Unmarshal(data)
		if err != nil && backup != nil && !bytes.Equal(backup, data) {
			// The store's copy does not decode: the backup beside it
			// may (a damaged page, a half-written blob).
			os.WriteFile(filepath.Join(dir, "board.unreadable.json"), data, 0o600)
			b, err = board.Unmarshal(backup)
			data = backup
		}
		if err != nil {
			// Keep the unreadable bytes for a person to look at; start
			// over, and keep the backup from being replaced by less.
			os.WriteFile(filepath.Join(dir, "board.unreadable.json"), data, 0o600)
			b = board.New()
			w.board.startedOver = true
		}
		w.board.b = b
	})
	return w.board.b, w.board.err
}

// boardSize counts what a board holds, to compare a backup with what
// would replace it.
func boardSize(s board.Snapshot) int {
	return len(s.Evidence) + len(s.Claims) + len(s.Decisions) + len(s.Analyses) + len(s.Tasks)
}

// keepLargerBackup moves the backup aside (board.bak-TIME.json) when it
// holds more than the board about to replace it: a board that started over
// after a failed load must not erase what the backup still has.
func keepLargerBackup(dir string, b *board.Board) {
	path := filepath.Join(dir, boardBackup)
	old, err := os.ReadFile(path)
	if err != nil {
		return
	}
	prev, err := board.Unmarshal(old)
	if err != nil {
		return
	}
	if boardSize(prev.Snapshot()) > boardSize(b.Snapshot()) {
		os.Rename(path, filepath.Join(dir, "board.bak-"+time.Now().UTC().Format("20060102T150405.000")+".json"))
	}
}

func (h mcpHost) Board(root string) (*board.Board, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, err
	}
	return w.loadBoard()
}

func (h mcpHost) SaveBoard(root string, b *board.Board) error {
	w, err := h.lookup(root)
	if err != nil {
		return err
	}
	return w.saveBoard(b)
}

// saveBoard persists b: into the store, the backup file and state.json.
func (w *workspace) saveBoard(b *board.Board) error {
	w.board.save.Lock()
	defer w.board.save.Unlock()
	if note := w.storeNote.Load(); note != nil && w.store == nil {
		// Another daemon holds this workspace's database, and its board
		// files too: writing them would overwrite what that daemon saves.
		return fmt.Errorf("not saved: %s", *note)
	}
	data, err := b.Marshal()
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	dir, err := stateDir(w.root)
	if err != nil {
		return fmt.Errorf("board: %w", err)
	}
	var errs []error
	if w.store != nil {
		if err := w.store.PutBlob(boardKey, data); err != nil {
			errs = append(errs, err)
		}
	}
	if w.board.startedOver {
		keepLargerBackup(dir, b)
	}
	if err := writeAtomic(filepath.Join(dir, boardBackup), data); err != nil {
		errs = append(errs, err)
	}
	var st bytes.Buffer
	if err := b.WriteState(&st); err != nil {
		errs = append(errs, err)
	} else if err := writeAtomic(filepath.Join(dir, "state.json"), st.Bytes()); err != nil {
		errs = append(errs, err)
	} else {
		w.mirror("state.json", st.Bytes())
	}
	return errors.Join(errs...)
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

func (h mcpHost) Picture(ctx context.Context, root string, req mcp.PictureRequest) ([]byte, error) {
	w, err := h.lookup(root)
	if err != nil {
		return nil, err
	}
	g, _, err := h.Graph(ctx, root)
	if err != nil {
		return nil, err
	}
	var pic *render.Picture
	var file string
	switch req.Kind {
	case mcp.PictureArchitecture:
		pic, file = render.Architecture(g, filepath.Base(w.root), render.Options{}), "architecture.png"
	case mcp.PictureImpact:
		i, ok := g.Index(req.Node)
		if !ok {
			return nil, fmt.Errorf("impact picture: no node %q in generation of %s", req.Node, w.root)
		}
		pic, file = render.Impact(g, i, req.Depth, render.Options{}), ImpactFile(g.Nodes[i])
	case mcp.PictureBoard:
		b, err := w.loadBoard()
		if err != nil {
			return nil, err
		}
		pic, file = render.Board(boardView(w.root, b.Snapshot()), render.Options{}), "board.png"
	default:
		return nil, fmt.Errorf("unknown picture kind %q (want architecture, impact or board)", req.Kind)
	}
	data, err := pic.PNG()
	if err != nil {
		return nil, fmt.Errorf("%s picture: %w", req.Kind, err)
	}
	if dir, err := stateDir(w.root); err == nil {
		if err := writeAtomic(filepath.Join(dir, file), data); err == nil {
			w.mirror(file, data)
		}
		if req.Evidence != "" {
			if b, err := w.loadBoard(); err == nil {
				b.SetImage(req.Evidence, file)
			}
		}
		if req.Kind == mcp.PictureImpact {
			w.pruneImpacts()
		}
	}
	return data, nil
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
