package terms

import (
	"reflect"
	"strings"
	"testing"
)

func all(s string) []string {
	var out []string
	Each([]byte(s), func(t []byte, whole bool) {
		if whole {
			out = append(out, "="+string(t))
		} else {
			out = append(out, string(t))
		}
	})
	return out
}

func TestEach(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"x = y", nil},
		{"parseHTTPRequest", []string{"=parsehttprequest", "parse", "http", "request"}},
		{"ServeHTTP", []string{"=servehttp", "serve", "http"}},
		{"HTTPServer", []string{"=httpserver", "http", "server"}},
		{"snake_case_name", []string{"=snake_case_name", "snake", "case", "name"}},
		{"__init__", []string{"=__init__", "init"}},
		{"int64 utf8Decode", []string{"=int64", "int", "64", "=utf8decode", "utf", "decode"}},
		{"getX", []string{"=getx", "get"}},
		{"plain words here", []string{"=plain", "=words", "=here"}},
		{"Über_größe", []string{"=über_größe", "über", "größe"}},
		{"a.b(c)->dd", []string{"=dd"}},
		{"XMLHttpRequest2", []string{"=xmlhttprequest2", "xml", "http", "request"}},
		{"IOError", []string{"=ioerror", "io", "error"}},
		{strings.Repeat("a", MaxLen+1) + " ok", []string{"=ok"}},
	}
	for _, c := range cases {
		if got := all(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Each(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWordsAndParts(t *testing.T) {
	if got, want := Words("Serve the HTTP_request"), []string{"serve", "the", "http_request"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := Parts("readFileSync"), []string{"read", "file", "sync"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Parts = %q, want %q", got, want)
	}
	if got := Parts("simple"); got != nil {
		t.Errorf("Parts(simple) = %q, want nil", got)
	}
}

func BenchmarkEach(b *testing.B) {
	text := []byte(strings.Repeat("func (s *Server) ServeHTTP(w ResponseWriter, r *Request) { s.handler_map[r.URL.Path] = nil }\n", 1000))
	b.SetBytes(int64(len(text)))
	n := 0
	for b.Loop() {
		Each(text, func([]byte, bool) { n++ })
	}
}
