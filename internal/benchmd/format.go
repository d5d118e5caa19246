package benchmd

import (
	"fmt"
	"math"
	"strconv"
)

// dash stands for a figure that does not exist or was not measured.
const dash = "–"

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// FormatMS writes a time given in milliseconds with a unit that keeps
// three significant digits or so: "850 µs", "7.70 ms", "86.0 ms",
// "1.90 s", "123 s".
func FormatMS(ms float64) string {
	switch {
	case bad(ms) || ms < 0:
		return dash
	case ms < 1:
		return fmt.Sprintf("%.0f µs", ms*1000)
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	case ms < 100_000:
		return fmt.Sprintf("%.2f s", ms/1000)
	default:
		return fmt.Sprintf("%.0f s", ms/1000)
	}
}

// FormatMB writes a size given in megabytes (2^20 bytes).
func FormatMB(mb float64) string {
	switch {
	case bad(mb) || mb < 0:
		return dash
	case mb < 10:
		return fmt.Sprintf("%.1f MB", mb)
	default:
		return fmt.Sprintf("%.0f MB", mb)
	}
}

// FormatBytes writes a file size: "850 B", "38 KB", "1.2 MB".
func FormatBytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.0f KB", float64(n)/1024)
	default:
		return FormatMB(float64(n) / (1 << 20))
	}
}

// FormatRatio writes x/floor as "1.90×" (more digits for small ratios,
// fewer for large ones); a missing or zero floor gives a dash.
func FormatRatio(x, floor float64) string {
	if bad(x) || bad(floor) || floor <= 0 || x < 0 {
		return dash
	}
	r := x / floor
	switch {
	case r < 0.1:
		return fmt.Sprintf("%.3f×", r)
	case r < 10:
		return fmt.Sprintf("%.2f×", r)
	case r < 100:
		return fmt.Sprintf("%.1f×", r)
	default:
		return fmt.Sprintf("%.0f×", r)
	}
}

// FormatCount writes an integer with thousands separators: 98,508.
func FormatCount(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// FormatSpread writes a sample's range with f: "7.10–9.30 ms" style, as
// "f(min)–f(max)"; a single value or an empty sample gives a dash.
func FormatSpread(s Sample, f func(float64) string) string {
	if len(s) < 2 {
		return dash
	}
	return f(s.Min()) + "–" + f(s.Max())
}
