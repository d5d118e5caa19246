package lsp

import "testing"

func TestCallColumn(t *testing.T) {
	cases := []struct {
		line, name, recv string
		want             int // byte offset, -1 for not found
	}{
		{"\treturn a.n.Notify(msg)", "Notify", "a.n", 12},
		{"x = helper(1)", "helper", "", 4},
		{"helper_two(helper(1))", "helper", "", 11},
		// the name also appears in the receiver: take the one after it
		{"\tnotify.Notify(notify.X)", "Notify", "notify", 8},
		{"self.run(); other.run()", "run", "other", 18},
		// prefer the occurrence that is called
		{"const run = run_(); run()", "run", "", 20},
		{"new Foo<Bar>()", "Foo", "", 4},
		{"obj?.method()", "method", "obj", 5},
		{"a::b::c()", "c", "a::b", 6},
		{"no call here", "helper", "", -1},
		{"helpers()", "helper", "", -1},
		// receiver not on the line (multi-line chain): the name alone
		{"  .filter(x)", "filter", "items", 3},
	}
	for _, tc := range cases {
		got, ok := callColumn([]byte(tc.line), tc.name, tc.recv)
		if !ok {
			got = -1
		}
		if got != tc.want {
			t.Errorf("callColumn(%q, %q, %q) = %d, want %d", tc.line, tc.name, tc.recv, got, tc.want)
		}
	}
}

func TestUTF16Columns(t *testing.T) {
	cases := []struct {
		line string
		off  int
		want uint32
	}{
		{"abc", 2, 2},
		{"é = f()", len("é = "), 4},   // é: 2 bytes, 1 unit
		{"😀 f()", len("😀 "), 3},       // 😀: 4 bytes, 2 units
		{"日本 f()", len("日本 "), 3},     // 3 bytes each, 1 unit each
		{"ab", 10, 2},                 // past the end: clamped
		{"\xff f()", len("\xff "), 2}, // invalid byte counts as one unit
	}
	for _, tc := range cases {
		got := utf16Col([]byte(tc.line), tc.off)
		if got != tc.want {
			t.Errorf("utf16Col(%q, %d) = %d, want %d", tc.line, tc.off, got, tc.want)
		}
		if back := byteCol([]byte(tc.line), got); tc.off <= len(tc.line) && back != tc.off {
			t.Errorf("byteCol(%q, %d) = %d, want %d", tc.line, got, back, tc.off)
		}
	}
}

func TestCallPositionNextLines(t *testing.T) {
	ls := lines([]byte("x = (items\r\n  .where(a)\n  .pick())\n"))
	p, ok := callPosition(ls, 1, "pick", "items.where(a)")
	if !ok || p.Line != 2 || p.Character != 3 {
		t.Errorf("callPosition = %v %v, want line 2 (0-based) char 3", p, ok)
	}
	if _, ok := callPosition(ls, 1, "missing", ""); ok {
		t.Error("found a name that is not there")
	}
	if got := identAt(ls, pos(1, 3)); got != "where" {
		t.Errorf("identAt = %q, want where", got)
	}
}

func TestStubOf(t *testing.T) {
	locs := []Location{{Path: "/x/typeshed/stdlib/email/message.pyi"}, {Path: "/n/node_modules/@types/node/fs.d.ts"}}
	for path, want := range map[string]bool{"message.py": true, "lib/fs.js": true, "page.py": false, "messages.py": false} {
		if got := stubOf(locs, path); got != want {
			t.Errorf("stubOf(%s) = %v, want %v", path, got, want)
		}
	}
}
