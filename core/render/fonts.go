package render

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The embedded Go fonts, parsed once. An sfnt font is safe for concurrent
// use; faces are not, so every fontSet makes its own.
var (
	fontsOnce sync.Once
	fontsErr  error
	parsed    [numFonts]*opentype.Font
)

func loadFonts() error {
	fontsOnce.Do(func() {
		srcs := [numFonts][]byte{goregular.TTF, gobold.TTF, gomono.TTF, gomonobold.TTF, goitalic.TTF}
		for i, ttf := range srcs {
			f, err := opentype.Parse(ttf)
			if err != nil {
				fontsErr = fmt.Errorf("parse embedded Go font %d: %w", i, err)
				return
			}
			parsed[i] = f
		}
	})
	return fontsErr
}

// svgFamily is the CSS font stack a browser uses for each font: the Go
// fonts when installed, else metric-compatible fallbacks.
var svgFamily = [numFonts]string{
	regular:  "'Go', 'Go Regular', 'Lucida Grande', 'Helvetica Neue', Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif",
	bold:     "'Go', 'Go Bold', 'Lucida Grande', 'Helvetica Neue', Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif",
	mono:     "'Go Mono', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace",
	monoBold: "'Go Mono', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace",
	italic:   "'Go', 'Go Italic', 'Lucida Grande', 'Helvetica Neue', Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif",
}

type faceKey struct {
	f    fontID
	size float64
}

// fontSet hands out faces by font and pixel size and measures text. It is
// not safe for concurrent use.
type fontSet struct {
	faces map[faceKey]font.Face
	width map[widthKey]float64
}

type widthKey struct {
	faceKey
	s string
}

func newFontSet() *fontSet {
	return &fontSet{faces: map[faceKey]font.Face{}, width: map[widthKey]float64{}}
}

// face returns the face for font f at size pixels (72 dpi: size is the
// em size in pixels). It falls back to a basic face if the embedded fonts
// cannot be parsed, which never happens with an intact build.
func (fs *fontSet) face(f fontID, size float64) font.Face {
	k := faceKey{f, size}
	if fc, ok := fs.faces[k]; ok {
		return fc
	}
	var fc font.Face
	if err := loadFonts(); err == nil {
		fc, err = opentype.NewFace(parsed[f], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			fc = nil
		}
	}
	if fc == nil {
		fc = basicfont.Face7x13
	}
	fs.faces[k] = fc
	return fc
}

// measure returns the advance width of s in pixels.
func (fs *fontSet) measure(s string, size float64, f fontID) float64 {
	k := widthKey{faceKey{f, size}, s}
	if w, ok := fs.width[k]; ok {
		return w
	}
	w := float64(font.MeasureString(fs.face(f, size), s)) / 64
	fs.width[k] = w
	return w
}

// fit returns s, or its longest prefix that fits in maxW followed by "…".
func (fs *fontSet) fit(s string, maxW, size float64, f fontID) string {
	if fs.measure(s, size, f) <= maxW {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // longest prefix length that fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fs.measure(string(runes[:mid])+"…", size, f) <= maxW {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return "…"
	}
	return strings.TrimRight(string(runes[:lo]), " ") + "…"
}

// fitLeft is fit keeping the end of s ("…/ssa/rewrite.go").
func (fs *fontSet) fitLeft(s string, maxW, size float64, f fontID) string {
	if fs.measure(s, size, f) <= maxW {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // longest suffix length that fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fs.measure("…"+string(runes[len(runes)-mid:]), size, f) <= maxW {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return "…"
	}
	return "…" + string(runes[len(runes)-lo:])
}

// wrap breaks s into at most maxLines lines no wider than maxW. Words
// longer than a line break after punctuation ("/", ".", "_") or anywhere.
// When text remains after the last line, that line ends with "…".
func (fs *fontSet) wrap(s string, maxW, size float64, f fontID, maxLines int) []string {
	// Only so much can ever show: cap the work on huge texts.
	if limit := 400 * maxLines; len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + " …"
	}
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || maxLines <= 0 {
		return nil
	}
	var lines []string
	rest := s
	for rest != "" && len(lines) < maxLines {
		if fs.measure(rest, size, f) <= maxW {
			lines = append(lines, rest)
			rest = ""
			break
		}
		cut := fs.breakAt(rest, maxW, size, f)
		lines = append(lines, strings.TrimRight(rest[:cut], " "))
		rest = strings.TrimLeft(rest[cut:], " ")
	}
	if rest != "" {
		last := lines[len(lines)-1]
		lines[len(lines)-1] = fs.fit(last+" "+rest, maxW, size, f)
		if lines[len(lines)-1] == last+" "+rest { // cannot happen, but never lose the mark
			lines[len(lines)-1] = fs.fit(last+"…", maxW, size, f)
		}
	}
	return lines
}

// breakAt returns the byte offset where the first line of s ends: after
// the last space that fits, else after the last punctuation that fits,
// else after the last rune that fits (at least one rune).
func (fs *fontSet) breakAt(s string, maxW, size float64, f fontID) int {
	// Longest prefix (in bytes, at rune boundaries) that fits.
	fc := fs.face(f, size)
	fitEnd, w, prev := 0, fixed.Int26_6(0), rune(-1)
	limit := fixed.Int26_6(maxW * 64)
	for i, r := range s {
		if prev >= 0 {
			w += fc.Kern(prev, r)
		}
		adv, _ := fc.GlyphAdvance(r)
		w += adv
		if w > limit {
			break
		}
		fitEnd = i + utf8.RuneLen(r)
		prev = r
	}
	if fs.measure(s, size, f) <= maxW {
		return len(s)
	}
	if fitEnd == 0 {
		_, n := utf8.DecodeRuneInString(s)
		return n
	}
	if fitEnd < len(s) && s[fitEnd] == ' ' {
		return fitEnd + 1
	}
	if sp := strings.LastIndexByte(s[:fitEnd], ' '); sp > 0 {
		return sp + 1
	}
	if p := strings.LastIndexAny(s[:fitEnd], "/._-:,(){}[]"); p > fitEnd/2 {
		return p + 1
	}
	// camelCase: break before the last upper-case letter after a lower-case one.
	for i := fitEnd - 1; i > fitEnd/2; i-- {
		if s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			return i
		}
	}
	return fitEnd
}
