package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccd-dev/ccd/daemon/workspace"
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
	pic, err := sourceFor(c).picture(*root, view, sym, *depth, *scale, format)
	if err != nil {
		return err
	}
	data, artifact, saved := pic.data, pic.artifact, pic.saved
	dst := *out
	if dst == "" {
		if artifact == "" {
			return fmt.Errorf("the daemon did not say where the %s view goes: pass -o FILE", view)
		}
		dst = strings.TrimSuffix(artifact, ".png") + "." + format
	}
	if !(saved && dst == artifact) {
		if *out == "" {
			os.MkdirAll(filepath.Dir(dst), 0o755)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", dst, err)
		}
		if *out == "" && view == "impact" {
			workspace.PruneImpacts(filepath.Dir(dst), workspace.KeepImpacts, nil)
		}
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
