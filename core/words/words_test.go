package words

import (
	"testing"
	"time"
)

func TestShorten(t *testing.T) {
	cases := []struct {
		name string
		f    func(string, int) string
		s    string
		n    int
		want string
	}{
		{"Cut: short enough", Cut, "abc", 3, "abc"},
		{"Cut: runes, not bytes", Cut, "éééé", 3, "éé…"},
		{"Cut: keeps lines", Cut, "a\nb\nc\nd", 4, "a\nb…"},
		{"Clip: one line", Clip, "a\n  b\tc", 10, "a b c"},
		{"Clip: then cut", Clip, "one  two three", 8, "one two…"},
		{"CutBytes: fits", CutBytes, "abcdef", 6, "abcdef"},
		{"CutBytes: ellipsis counted", CutBytes, "abcdefgh", 6, "abc…"},
		{"CutBytes: rune boundary", CutBytes, "aééé", 6, "aé…"},
		{"CutBytes: never inside a rune", CutBytes, "aééé", 5, "a…"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.f(c.s, c.n); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 callers"}, {1, "1 caller"}, {2, "2 callers"}, {1234, "1234 callers"}} {
		if got := Count(c.n, "caller", "callers"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if Plural(1, "is", "are") != "is" || Plural(3, "is", "are") != "are" {
		t.Error("Plural")
	}
}

func TestAge(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {59 * time.Second, "59s"}, {61 * time.Second, "1m"}, {59 * time.Minute, "59m"},
		{3 * time.Hour, "3h"}, {47 * time.Hour, "47h"}, {49 * time.Hour, "2d"},
	} {
		if got := Age(c.d); got != c.want {
			t.Errorf("Age(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestFirstLastLine(t *testing.T) {
	for _, c := range []struct{ in, first, last string }{
		{"", "", ""},
		{"one", "one", "one"},
		{"\n  go: cannot find module\n\tmore\n", "go: cannot find module", "more"},
		{"Traceback (most recent call last):\n  File \"x.py\"\nImportError: no module x\n\n", "Traceback (most recent call last):", "ImportError: no module x"},
	} {
		if got := FirstLine(c.in); got != c.first {
			t.Errorf("FirstLine(%q) = %q, want %q", c.in, got, c.first)
		}
		if got := LastLine(c.in); got != c.last {
			t.Errorf("LastLine(%q) = %q, want %q", c.in, got, c.last)
		}
	}
}
