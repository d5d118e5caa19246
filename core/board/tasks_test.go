package board

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestParseTasksExample(t *testing.T) {
	data, err := os.ReadFile("../../testdata/board/tasks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := ParseTasks(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []Task{
		{ID: "T1", Title: "Apply the discount in total",
			Description: "total() subtracts discount(cart), but discount always returns 0.\nOrders over 100 should get 10% off; keep render() and the tests green.",
			Symbols:     []string{"discount", "total"}, Files: []string{"shop/pricing.py"}},
		{ID: "T2", Title: "Cart.add rejects a negative quantity", Symbols: []string{"Cart.add"}},
		{ID: "docs", Title: "Document the money formatter"},
	}
	if !reflect.DeepEqual(ts, want) {
		t.Fatalf("tasks\n got %#v\nwant %#v", ts, want)
	}
}

func TestParseTasks(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ids  []string // want, when err is ""
		err  string   // substring of the error
	}{
		{"bare list", "- id: a\n  title: A\n- id: 2\n  title: B\n", []string{"a", "2"}, ""},
		{"trims and drops empty list entries", "tasks:\n  - id: ' T1 '\n    title: ' x '\n    symbols: [f, '', ' g ']\n", []string{"T1"}, ""},
		{"empty file", "  \n", nil, "the file is empty"},
		{"syntax error", "tasks: [\n", nil, "tasks.yaml:"},
		{"unknown top key", "task:\n  - id: a\n    title: A\n", nil, `line 1: unknown key "task"`},
		{"not a list", "tasks: hello\n", nil, "tasks must be a list"},
		{"empty list", "tasks: []\n", nil, "the task list is empty"},
		{"scalar task", "tasks:\n  - T1\n", nil, "line 2: a task must be a mapping"},
		{"missing id", "tasks:\n  - title: A\n", nil, "line 2: task without id"},
		{"missing title", "tasks:\n  - id: T1\n", nil, "line 2: task T1 has no title"},
		{"id with space", "tasks:\n  - id: T 1\n    title: A\n", nil, "contains spaces"},
		{"duplicate id", "tasks:\n  - id: T1\n    title: A\n  - id: t1\n    title: B\n", nil, `line 4: task id "t1" repeats the task of line 2`},
		{"misspelt field", "tasks:\n  - id: T1\n    title: A\n    symbol: [f]\n", nil, `line 4: unknown task field "symbol"`},
		{"wrong type", "tasks:\n  - id: T1\n    title: A\n    files: {a: b}\n", nil, "line 4: cannot unmarshal"},
		{"no tasks key", "{}\n", nil, "no `tasks:` key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := ParseTasks([]byte(tc.in))
			if tc.err != "" {
				mustCode(t, err, CodeBadTasks)
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %q, want it to contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, x := range ts {
				ids = append(ids, x.ID)
			}
			if !reflect.DeepEqual(ids, tc.ids) {
				t.Fatalf("ids %v, want %v", ids, tc.ids)
			}
		})
	}
	ts, _ := ParseTasks([]byte("tasks:\n  - id: ' T1 '\n    title: ' x '\n    symbols: [f, '', ' g ']\n"))
	if ts[0].Title != "x" || !reflect.DeepEqual(ts[0].Symbols, []string{"f", "g"}) {
		t.Fatalf("cleaned task %+v", ts[0])
	}
}
