package cli

import (
	"bytes"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/core/render"
	"github.com/ccd-dev/ccd/core/report"
)

func runRender(c *ctx, args []string) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	root := fs.String("root", ".", "workspace root")
	out := fs.String("o", "", "output file, .png or .svg (default: the view's artifact under .codecanvas/)")
	depth := fs.Int("depth", 3, "impact: hops of transitive callers (0: unlimited)")
	scale := fs.Float64("scale", 1, "PNG scale: 1, or 2 for high resolution")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"want a view: architecture, impact SYMBOL or board"}
	}
	view, sym := pos[0], ""
	switch {
	case view == "impact" && len(pos) == 2:
		sym = pos[1]
	case (view == "architecture" || view == "board") && len(pos) == 1:
	default:
		return usageError{"want architecture, impact SYMBOL or board"}
	}
	if *scale < 1 || *scale > 4 {
		return usageError{"--scale must be between 1 and 4"}
	}
	format := "png"
	if strings.HasSuffix(strings.ToLower(*out), ".svg") {
		format = "svg"
	} else if *out != "" && !strings.HasSuffix(strings.ToLower(*out), ".png") {
		return usageError{"-o must end in .png or .svg"}
	}
	var data []byte
	if cl := running(); cl != nil {
		p := url.Values{"view": {view}, "format": {format}, "scale": {fmt.Sprint(*scale)}, "depth": {fmt.Sprint(*depth)}}
		if sym != "" {
			p.Set("symbol", sym)
		}
		var buf bytes.Buffer
		if err := daemonQuery(cl, "/v1/render", *root, p, &buf); err != nil {
			return err
		}
		data = buf.Bytes()
	} else {
		if view == "board" {
			return fmt.Errorf("the board lives in the daemon: start it with `ccd daemon --detach` (or `ccd init`), then render the board")
		}
		res, err := load(*root)
		if err != nil {
			return err
		}
		g := res.Graph
		var pic *render.Picture
		if view == "architecture" {
			pic = render.Architecture(g, filepath.Base(absPath(*root)), render.Options{Scale: *scale})
		} else {
			cands := g.Find(sym)
			if len(cands) == 0 {
				return report.NotFound(g, sym)
			}
			pic = render.Impact(g, cands[0], *depth, render.Options{Scale: *scale})
		}
		if format == "svg" {
			data = pic.SVG()
		} else if data, err = pic.PNG(); err != nil {
			return err
		}
	}
	dst := *out
	if dst == "" {
		name := view + ".png"
		if view == "impact" {
			name = "impact_" + strings.Trim(unsafeFile(sym), "_") + ".png"
		}
		dst = filepath.Join(absPath(*root), ".codecanvas", name)
		os.MkdirAll(filepath.Dir(dst), 0o755)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	fmt.Fprintf(c.stdout, "%s view written to %s (%d bytes)\n", view, dst, len(data))
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// unsafeFile replaces characters that do not belong in a file name.
func unsafeFile(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
