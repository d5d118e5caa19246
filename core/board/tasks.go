package board

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// quoted matches what the YAML parser quotes of the document.
var quoted = regexp.MustCompile("`[^`]*`")

// TasksFiles are the places, relative to the workspace root, where a
// tasks file is looked for, in order.
var TasksFiles = []string{".codecanvas/tasks.yaml", "tasks.yaml", ".codecanvas/tasks.yml", "tasks.yml"}

// ParseTasks reads a tasks.yaml document (see the package documentation):
// a mapping with a "tasks" list, or the list alone. Every task needs an id
// and a title; ids are unique; unknown fields are errors, so a typo never
// silently drops data.
func ParseTasks(data []byte) ([]Task, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, tasksErr("the file is empty", "list tasks under `tasks:`, each with id and title")
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, tasksErr(unquote(strings.TrimPrefix(err.Error(), "yaml: ")), "fix the YAML syntax")
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	list := doc
	if doc.Kind == yaml.MappingNode {
		list = nil
		for i := 0; i+1 < len(doc.Content); i += 2 {
			k := doc.Content[i]
			if k.Value != "tasks" {
				return nil, tasksErr(fmt.Sprintf("line %d: unknown key %q", k.Line, k.Value), "the top level holds only `tasks:`")
			}
			list = doc.Content[i+1]
		}
		if list == nil {
			return nil, tasksErr("no `tasks:` key", "list tasks under `tasks:`, each with id and title")
		}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, tasksErr(fmt.Sprintf("line %d: tasks must be a list", list.Line), "write each task as a `- id: ...` item")
	}
	if len(list.Content) == 0 {
		return nil, tasksErr("the task list is empty", "add at least one task with id and title")
	}
	seen := map[string]int{}
	out := make([]Task, 0, len(list.Content))
	for _, item := range list.Content {
		t, err := decodeTask(item)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[strings.ToLower(t.ID)]; dup {
			return nil, tasksErr(fmt.Sprintf("line %d: task id %q repeats the task of line %d", item.Line, t.ID, prev), "give every task its own id")
		}
		seen[strings.ToLower(t.ID)] = item.Line
		out = append(out, t)
	}
	return out, nil
}

func decodeTask(item *yaml.Node) (Task, error) {
	if item.Kind != yaml.MappingNode {
		return Task{}, tasksErr(fmt.Sprintf("line %d: a task must be a mapping with id and title", item.Line), "write `- id: T1` then `title: ...`")
	}
	for i := 0; i+1 < len(item.Content); i += 2 {
		k := item.Content[i]
		if !taskKeys[k.Value] {
			return Task{}, tasksErr(fmt.Sprintf("line %d: unknown task field %q", k.Line, k.Value),
				"a task has id, title, description, symbols (a list) and files (a list)")
		}
	}
	var t Task
	if err := item.Decode(&t); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
		if !strings.HasPrefix(msg, "line ") {
			msg = fmt.Sprintf("task at line %d: %s", item.Line, msg)
		}
		return Task{}, tasksErr(unquote(msg),
			"id, title and description are strings; symbols and files are lists of strings")
	}
	t.ID = strings.TrimSpace(t.ID)
	t.Title = strings.TrimSpace(t.Title)
	t.Description = strings.TrimSpace(t.Description)
	switch {
	case t.ID == "":
		return Task{}, tasksErr(fmt.Sprintf("line %d: task without id", item.Line), "give the task an id such as T1")
	case strings.ContainsAny(t.ID, " \t\n"):
		return Task{}, tasksErr(fmt.Sprintf("line %d: task id %q contains spaces", item.Line, t.ID), "use a short id without spaces, such as T1 or fix-login")
	case t.Title == "":
		return Task{}, tasksErr(fmt.Sprintf("line %d: task %s has no title", item.Line, t.ID), "add `title: ...` in one line")
	}
	t.Symbols = cleanList(t.Symbols)
	t.Files = cleanList(t.Files)
	return t, nil
}

var taskKeys = map[string]bool{"id": true, "title": true, "description": true, "symbols": true, "files": true}

func cleanList(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func tasksErr(msg, hint string) error {
	return &Error{Code: CodeBadTasks, Message: "tasks.yaml: " + msg, Hint: hint}
}

// unquote drops the text a YAML parser error quotes from the document,
// keeping its line numbers: a tasks file may not be what it seems.
func unquote(msg string) string { return quoted.ReplaceAllString(msg, "`…`") }
