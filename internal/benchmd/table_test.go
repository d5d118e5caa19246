package benchmd

import "testing"

func TestTableMarkdown(t *testing.T) {
	cases := []struct {
		name string
		t    Table
		want string
	}{
		{"aligned", Table{Header: []string{"a", "b"}, Align: "lr", Rows: [][]string{{"x", "1"}}},
			"| a | b |\n|---|---:|\n| x | 1 |\n"},
		{"short rows padded, long rows cut", Table{Header: []string{"a", "b", "c"}, Rows: [][]string{{"x"}, {"1", "2", "3", "4"}}},
			"| a | b | c |\n|---|---|---|\n| x |  |  |\n| 1 | 2 | 3 |\n"},
		{"pipes and newlines cannot break the table", Table{Header: []string{"a"}, Rows: [][]string{{"x|y\nz"}}},
			"| a |\n|---|\n| x\\|y z |\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.t.Markdown(); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	var tb Table
	tb.Header = []string{"h"}
	tb.Add("v")
	if len(tb.Rows) != 1 || tb.Rows[0][0] != "v" {
		t.Errorf("Add: %v", tb.Rows)
	}
}
