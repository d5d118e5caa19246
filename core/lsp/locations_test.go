package lsp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestParseLocations(t *testing.T) {
	cases := []struct {
		name, raw string
		want      []string // path:line:col
		err       string
	}{
		{"null", `null`, nil, ""},
		{"empty", ``, nil, ""},
		{"empty array", `[]`, nil, ""},
		{"location", `{"uri":"file:///w/a.go","range":{"start":{"line":4,"character":5},"end":{"line":4,"character":9}}}`,
			[]string{"/w/a.go:5:5"}, ""},
		{"locations", `[{"uri":"file:///w/a.go","range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}}},
			{"uri":"file:///w/b%20c.go","range":{"start":{"line":9,"character":0},"end":{"line":9,"character":3}}}]`,
			[]string{"/w/a.go:1:1", "/w/b c.go:10:0"}, ""},
		{"links use the selection range", `[{"targetUri":"file:///w/m.ts","targetRange":{"start":{"line":0,"character":0},"end":{"line":2,"character":1}},
			"targetSelectionRange":{"start":{"line":0,"character":16},"end":{"line":0,"character":19}}}]`,
			[]string{"/w/m.ts:1:16"}, ""},
		{"non-file uris are dropped", `[{"uri":"jdt://contents/x","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}]`, nil, ""},
		{"number", `42`, nil, "want null, an object or an array"},
		{"wrong object", `[{"name":"x"}]`, nil, "neither a Location nor a LocationLink"},
		{"broken", `[{"uri":`, nil, "decode locations"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			locs, err := ParseLocations(json.RawMessage(tc.raw))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range locs {
				got = append(got, l.String())
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseSymbols(t *testing.T) {
	r := func(l int) string {
		return `{"start":{"line":` + strconv.Itoa(l) + `,"character":0},"end":{"line":` + strconv.Itoa(l) + `,"character":5}}`
	}
	cases := []struct {
		name, raw string
		want      []string // Container.Name@line
		err       string
	}{
		{"null", `null`, nil, ""},
		{"document symbols", `[{"name":"A","kind":5,"range":` + r(0) + `,"selectionRange":` + r(0) + `,"children":[
			{"name":"m","kind":6,"range":` + r(1) + `,"selectionRange":` + r(1) + `,"children":[
				{"name":"inner","kind":12,"range":` + r(2) + `,"selectionRange":` + r(2) + `}]}]},
			{"name":"f","kind":12,"range":` + r(5) + `,"selectionRange":` + r(5) + `}]`,
			[]string{"A@0", "A.m@1", "A.m.inner@2", "f@5"}, ""},
		{"symbol information", `[{"name":"A","kind":5,"location":{"uri":"file:///a.py","range":` + r(0) + `}},
			{"name":"m","kind":6,"containerName":"A","location":{"uri":"file:///a.py","range":` + r(3) + `}}]`,
			[]string{"A@0", "A.m@3"}, ""},
		{"object", `{}`, nil, "want an array"},
		{"neither", `[{"name":"x","kind":1}]`, nil, "neither a DocumentSymbol nor a SymbolInformation"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			syms, err := ParseSymbols(json.RawMessage(tc.raw))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range syms {
				n := s.Name
				if s.Container != "" {
					n = s.Container + "." + n
				}
				got = append(got, n+"@"+strconv.Itoa(int(s.Range.Start.Line)))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
