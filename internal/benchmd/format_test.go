package benchmd

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	cases := []struct{ got, want string }{
		{FormatMS(0.85), "850 µs"},
		{FormatMS(7.7), "7.70 ms"},
		{FormatMS(86), "86.0 ms"},
		{FormatMS(542), "542 ms"},
		{FormatMS(1903), "1.90 s"},
		{FormatMS(123_400), "123 s"},
		{FormatMS(math.NaN()), "–"},
		{FormatMS(-1), "–"},
		{FormatMB(5.25), "5.2 MB"},
		{FormatMB(542.4), "542 MB"},
		{FormatMB(math.NaN()), "–"},
		{FormatBytes(850), "850 B"},
		{FormatBytes(38 * 1024), "38 KB"},
		{FormatBytes(3 << 20), "3.0 MB"},
		{FormatRatio(10.63, 5.6), "1.90×"},
		{FormatRatio(1, 20), "0.050×"},
		{FormatRatio(337, 10), "33.7×"},
		{FormatRatio(3370, 10), "337×"},
		{FormatRatio(1, 0), "–"},
		{FormatRatio(1, math.NaN()), "–"},
		{FormatRatio(math.NaN(), 1), "–"},
		{FormatCount(0), "0"},
		{FormatCount(999), "999"},
		{FormatCount(1000), "1,000"},
		{FormatCount(98508), "98,508"},
		{FormatCount(1234567), "1,234,567"},
		{FormatCount(-4321), "-4,321"},
		{FormatSpread(Sample{3, 1, 2}, FormatMS), "1.00 ms–3.00 ms"},
		{FormatSpread(Sample{3}, FormatMS), "–"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}
