package benchmd

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInsertLine(t *testing.T) {
	cases := []struct {
		text string
		n    int
		want string
	}{
		{"a\nb\nc\n", 1, "a\n// x\nb\nc\n"},
		{"a\nb\n", 0, "// x\na\nb\n"},
		{"a\nb", 9, "a\nb// x\n"},
	}
	for _, c := range cases {
		if got := insertLine(c.text, c.n, "// x"); got != c.want {
			t.Errorf("insertLine(%q, %d) = %q, want %q", c.text, c.n, got, c.want)
		}
	}
}

func TestCommentFor(t *testing.T) {
	for path, want := range map[string]string{"a/b.py": "# e", "x.go": "// e", "s.SH": "# e", "m.rs": "// e"} {
		if got := commentFor(path, "e"); got != want {
			t.Errorf("commentFor(%s) = %q, want %q", path, got, want)
		}
	}
}

func TestDecisionsBySession(t *testing.T) {
	home := t.TempDir()
	if _, err := decisionsBySession(home); err == nil {
		t.Error("no log: no error")
	}
	os.WriteFile(filepath.Join(home, "hooks.jsonl.1"), []byte(`{"session":"a","ms":1.5}`+"\n"), 0o600)
	os.WriteFile(filepath.Join(home, "hooks.jsonl"), []byte(`{"session":"a","ms":2}
not json
{"session":"b","ms":7,"event":"PreToolUse"}
{"ms":9}
`), 0o600)
	got, err := decisionsBySession(home)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got["a"]) != 2 || got["a"][0] != 1.5 || got["a"][1] != 2 || len(got["b"]) != 1 || got["b"][0] != 7 {
		t.Errorf("got %v", got)
	}
}
