package facts

import "testing"

func TestElemKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"0", "0", true},
		{" 12 ", "12", true},
		{"-1", "", false}, // from the end: which element depends on the length
		{`"a"`, `"a"`, true},
		{`'a'`, `"a"`, true},
		{`'content-length'`, `"content-length"`, true},
		{`"a\n"`, "", false},
		{`f"{k}"`, "", false},
		{"k", "", false},
		{"k + 1", "", false},
		{`"a'`, "", false},
		{"", "", false},
	} {
		got, ok := ElemKey(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ElemKey(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
