package cli_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of reporting them,
// to test the export checker itself.
type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.msgs = append(r.msgs, fmt.Sprint(args...))
	runtime.Goexit()
}

func check(t *testing.T, data, root string) []string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkExport(rec, []byte(data), root)
	}()
	<-done
	return rec.msgs
}

// TestExportCheckerRejects makes sure the schema checks used on real exports
// are not vacuous: each mutation of a valid export must be caught.
func TestExportCheckerRejects(t *testing.T) {
	dir := pyFixture(t)
	valid := string(exportFile(t, dir))
	if msgs := check(t, valid, dir); len(msgs) > 0 {
		t.Fatalf("valid export rejected: %v", msgs)
	}
	const mod = `{"id":"shop/util/fmt.py","kind":"module","label":"fmt.py","path":"shop/util/fmt.py","lang":"python"}`
	const money = `"id":"shop/util/fmt.py::money","kind":"func","label":"money","qual":"money","path":"shop/util/fmt.py","lang":"python","start_line":1,"end_line":2`
	const call = `{"from":"shop/pricing.py::render","to":"shop/util/fmt.py::money","type":"call","confidence":"resolved","lines":[16]}`
	const contains = `{"from":"shop/util/fmt.py","to":"shop/util/fmt.py::money","type":"contains"}`
	for _, s := range []string{mod, money, call, contains} {
		if !strings.Contains(valid, s) {
			t.Fatalf("fixture export lacks %s", s)
		}
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"unknown endpoint", call, strings.Replace(call, "fmt.py::money", "fmt.py::nothing", 1), "endpoint is not a node id"},
		{"absolute path", mod, strings.Replace(mod, `"path":"shop`, `"path":"/shop`, 1), "not a clean relative slash path"},
		{"module id", mod, strings.Replace(mod, `"id":"shop/util/fmt.py"`, `"id":"shop/util/fmt2.py"`, 1), "id is not its path"},
		{"zero-based line", money, strings.Replace(money, `"start_line":1`, `"start_line":0`, 1), "bad lines"},
		{"end before start", money, strings.Replace(money, `"end_line":2`, `"end_line":0`, 1), "bad lines"},
		{"beyond the file", money, strings.Replace(money, `"end_line":2`, `"end_line":99`, 1), "beyond the"},
		{"module lines", mod, strings.Replace(mod, `"lang":"python"}`, `"lang":"python","start_line":1}`, 1), "must be absent"},
		{"kind", money, strings.Replace(money, `"kind":"func"`, `"kind":"method"`, 1), "not in module|class|func"},
		{"type", call, strings.Replace(call, `"type":"call"`, `"type":"calls"`, 1), "not in call|ref|import|contains"},
		{"contains confidence", contains, strings.Replace(contains, `"type":"contains"`, `"type":"contains","confidence":"resolved"`, 1), "has a confidence"},
		{"call without confidence", call, strings.Replace(call, `"confidence":"resolved",`, ``, 1), "confidence <nil>"},
		{"bad confidence", call, strings.Replace(call, `"resolved"`, `"sure"`, 1), "not in name-match"},
		{"call line 0", call, strings.Replace(call, `[16]`, `[0]`, 1), "not 1-based"},
		{"unknown field", call, strings.Replace(call, `"type"`, `"weight":1,"type"`, 1), "unknown field"},
		{"two per line", call + ",\n", call + ",", "lines, want"},
		{"trailing data", "\n]}\n", "\n]}\n{}\n", "data after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(valid, tc.old, tc.new, 1)
			if bad == valid {
				t.Fatal("mutation did not apply")
			}
			msgs := check(t, bad, dir)
			if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("checker did not report %q; got %q", tc.want, msgs)
			}
		})
	}
}
