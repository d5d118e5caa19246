package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ccd-dev/ccd/config"
	"github.com/ccd-dev/ccd/core/board"
	"github.com/ccd-dev/ccd/core/graph"
	"github.com/ccd-dev/ccd/core/index"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// testHost implements Host on real index.Build results of fixture
// repositories, with a tiny PNG for every picture.
type testHost struct {
	mu       sync.Mutex
	ws       map[string]*index.Result // by root
	graphs   map[string]*graph.Graph  // synthetic graphs by root
	boards   map[string]*board.Board
	saved    map[string][]byte // last Marshal per root
	state    map[string][]byte // last WriteState per root
	saves    int
	pictures []PictureRequest
	pngErr   error // Picture fails with it when set
	stale    bool  // Meta.Fresh = false
	saveErr  error
}

func newTestHost() *testHost {
	return &testHost{ws: map[string]*index.Result{}, graphs: map[string]*graph.Graph{}, boards: map[string]*board.Board{},
		saved: map[string][]byte{}, state: map[string][]byte{}}
}

type hintErr struct{ msg, hint string }

func (e *hintErr) Error() string { return e.msg }
func (e *hintErr) Hint() string  { return e.hint }

func (h *testHost) Init(ctx context.Context, root string) (InitInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if g, ok := h.graphs[root]; ok {
		return InitInfo{Root: root, Files: g.Count(graph.Module), Parsed: g.Count(graph.Module), Generation: 1, Fresh: !h.stale}, nil
	}
	res := h.ws[root]
	if res == nil {
		st, err := os.Stat(root)
		if err != nil || !st.IsDir() {
			return InitInfo{}, &hintErr{fmt.Sprintf("workspace %s: not a directory", root), "give the project's directory"}
		}
		res, err = index.Build(root, config.Default())
		if err != nil {
			return InitInfo{}, fmt.Errorf("index %s: %w", root, err)
		}
		if res.Summary.Files == 0 {
			return InitInfo{}, &hintErr{fmt.Sprintf("%s has no source files", root), "init again once the code is there"}
		}
		h.ws[root] = res
	}
	s := res.Summary
	var errFiles []string
	for _, e := range res.SyntaxErrorFiles() {
		errFiles = append(errFiles, fmt.Sprintf("%s:%d", e.Path, e.Line))
	}
	return InitInfo{Root: root, Files: s.Files, Parsed: s.Parsed, SyntaxErrors: s.SyntaxErrors, ErrorFiles: errFiles, Skipped: s.Skipped(),
		Languages: s.Languages, Generation: 1, Fresh: !h.stale}, nil
}

func (h *testHost) Graph(ctx context.Context, root string) (*graph.Graph, Meta, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for r, g := range h.graphs {
		if root == r || strings.HasPrefix(root, r+"/") {
			return g, Meta{Root: r, Generation: 1, Fresh: !h.stale}, nil
		}
	}
	for r, res := range h.ws {
		if root == r || strings.HasPrefix(root, r+"/") {
			return res.Graph, Meta{Root: r, Generation: 1, Head: "", Fresh: !h.stale}, nil
		}
	}
	return nil, Meta{}, fmt.Errorf("%w: %s", ErrNotInitialized, root)
}

func (h *testHost) Board(root string) (*board.Board, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.boards[root]
	if b == nil {
		b = board.New()
		t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
		b.SetClock(func() time.Time { return t })
		h.boards[root] = b
	}
	return b, nil
}

func (h *testHost) SaveBoard(root string, b *board.Board) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.saveErr != nil {
		return h.saveErr
	}
	data, err := b.Marshal()
	if err != nil {
		return err
	}
	var st bytes.Buffer
	if err := b.WriteState(&st); err != nil {
		return err
	}
	h.saved[root], h.state[root] = data, st.Bytes()
	h.saves++
	return nil
}

func (h *testHost) Picture(ctx context.Context, root string, req PictureRequest) ([]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pictures = append(h.pictures, req)
	if h.pngErr != nil {
		return nil, h.pngErr
	}
	return tinyPNG(req.Kind), nil
}

// tinyPNG is a 2x2 PNG whose colour depends on the kind, so tests can
// tell pictures apart.
func tinyPNG(kind string) []byte {
	pngMu.Lock()
	defer pngMu.Unlock()
	if b, ok := pngCache[kind]; ok {
		return b
	}
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	c := color.RGBA{uint8(len(kind) * 20), 100, 200, 255}
	for x := range 2 {
		for y := range 2 {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	pngCache[kind] = buf.Bytes()
	return buf.Bytes()
}

var (
	pngMu    sync.Mutex
	pngCache = map[string][]byte{}
)

// unpack writes a txtar fixture (without its expect/golden sections) into
// a new temporary directory.
func unpack(t testing.TB, fixture string) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = testrepo.Write(t, testrepo.Read(t, filepath.Join("../../testdata/graph", fixture+".txtar")), filepath.Join(dir, fixture+"-repo"))
	return dir
}

// session connects a real go-sdk client to Serve over a pipe.
type session struct {
	t    testing.TB
	cs   *sdk.ClientSession
	done chan error
}

func connect(t testing.TB, h Host, root string, opts ...Option) *session {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srvConn, cliConn := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, h, srvConn, root, opts...) }()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cliConn, Writer: cliConn}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &session{t: t, cs: cs, done: done}
	t.Cleanup(func() {
		cs.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after the client closed")
		}
		cancel()
	})
	return s
}

// call runs the canvas tool with args.
func (s *session) call(args map[string]any) *sdk.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: ToolName, Arguments: args})
	if err != nil {
		s.t.Fatalf("call %v: %v", args, err)
	}
	return res
}

// textOf returns the text content of a result (the first item).
func textOf(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("empty result")
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("first content is %T, want text", res.Content[0])
	}
	return tc.Text
}

// imagesOf decodes the PNG images of a result.
func imagesOf(t *testing.T, res *sdk.CallToolResult) []image.Config {
	t.Helper()
	var out []image.Config
	for _, c := range res.Content[1:] {
		im, ok := c.(*sdk.ImageContent)
		if !ok {
			t.Fatalf("content %T after the text, want images only", c)
		}
		if im.MIMEType != "image/png" {
			t.Fatalf("image MIME type %q", im.MIMEType)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(im.Data))
		if err != nil {
			t.Fatalf("image is not a PNG: %v", err)
		}
		out = append(out, cfg)
	}
	return out
}

var errBoom = errors.New("renderer exploded")

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func newTextLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
