package benchmd

import (
	"strings"
)

// Table is a Markdown table. Align holds one letter per column, 'l' or
// 'r' (missing letters mean left).
type Table struct {
	Header []string
	Align  string
	Rows   [][]string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Markdown renders the table; rows shorter than the header are padded with
// empty cells, and pipes and newlines inside cells are escaped so that a
// cell can never break the table.
func (t Table) Markdown() string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for i := range t.Header {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			c = strings.ReplaceAll(c, "|", `\|`)
			c = strings.ReplaceAll(c, "\n", " ")
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		if i < len(t.Align) && t.Align[i] == 'r' {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	return b.String()
}
