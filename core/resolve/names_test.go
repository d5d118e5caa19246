package resolve

import "testing"

func TestIsFieldName(t *testing.T) {
	cases := []struct {
		name, field string
		want        bool
	}{
		{"self.parser", "parser", true},
		{"this.parser", "parser", true},
		{"@parser", "parser", true},
		{"self.parsers", "parser", false},
		{"cls.parser", "parser", false},
		{"parser", "parser", false},
		{"self.p", "parser", false},
		{"@", "", true},
		{"self.a.b", "a.b", true},
	}
	for _, c := range cases {
		if got := isFieldName(c.name, c.field); got != c.want {
			t.Errorf("isFieldName(%q, %q) = %v, want %v", c.name, c.field, got, c.want)
		}
	}
}
