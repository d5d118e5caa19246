package tokcount

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func reference(t testing.TB, s string) int {
	t.Helper()
	n, err := Reference(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sameTokens checks that Count and the token split agree with tiktoken-go.
func sameTokens(t *testing.T, s string) bool {
	t.Helper()
	want, err := referenceTokens(s)
	if err != nil {
		t.Fatal(err)
	}
	got := tokens([]byte(s))
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") || CountString(s) != len(want) {
		t.Errorf("tokens(%q) = %q (count %d), tiktoken-go says %q", s, got, CountString(s), want)
		return false
	}
	return true
}

func TestCountMatchesReferenceOnCases(t *testing.T) {
	cases := []string{
		"",
		"hello world",
		"func (s *Server) ServeHTTP(w ResponseWriter, r *Request) {\n\treturn\n}\n",
		"I'm sure they'll say it's fine, WE'RE DONE, you've 'sup 'Ll",
		"1234567 12 3.14159 x1y2z3",
		"a  b   c    \n\n\n   d\r\n\r\n\te\t\t\n",
		"   trailing spaces   ",
		"\n",
		" \n ",
		"!!! ??? ... ---\n+++\r\n",
		" +=  -> => :: ;;",
		"naïve café 日本語のテキスト 中文 한국어",
		"emoji 🎉🎉 and symbols ©®™ ½ ⅓ Ⅻ ٣٤٥",
		"non-breaking\u00a0space and\u3000ideographic\u2028line",
		"__init__ _private snake_case_name camelCaseName HTTPServer",
		"tabs\tand\vvertical\fform\x85next",
		"'", "'s", "x'", "''s",
		strings.Repeat("a", 300),
		strings.Repeat("ab ", 200),
	}
	for _, c := range cases {
		sameTokens(t, c)
	}
}

// TestCountMatchesReferenceRandom compares the two on random strings drawn
// from an alphabet heavy in the characters the pattern treats specially.
func TestCountMatchesReferenceRandom(t *testing.T) {
	alphabet := []rune("aZ09_ '\"\t\n\r\v\f.,;:!?(){}[]<>=+-*/\\|&^%$#@~`sStTrRlLdDmMvVeE" +
		"é日本\u00a0\u3000\u2028\u0085½٣🎉\u0301")
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		n := rng.Intn(40)
		var b strings.Builder
		for j := 0; j < n; j++ {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		if !sameTokens(t, b.String()) {
			return
		}
	}
}

// TestCountMatchesReferenceOnSource compares whole files of the Go tree.
func TestCountMatchesReferenceOnSource(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus under GOROOT: %v", err)
	}
	more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "unicode", "*.go"))
	files = append(files, more...)
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, want := tokens(b), reference(t, string(b))
		if len(got) != want || Count(b) != want || strings.Join(got, "") != string(b) {
			t.Errorf("%s: %d tokens (Count %d), tiktoken-go says %d", f, len(got), Count(b), want)
		}
		total += want
	}
	if total == 0 {
		t.Fatal("counted nothing")
	}
}

func TestInvalidUTF8CountsAsReplacement(t *testing.T) {
	b := []byte("caf\xe9 \xff\xfe end")
	if utf8.Valid(b) {
		t.Fatal("test input should be invalid UTF-8")
	}
	// tiktoken-go decodes each invalid byte to U+FFFD.
	want := reference(t, string([]rune(string(b))))
	if got := Count(b); got != want {
		t.Errorf("Count = %d, want %d", got, want)
	}
}

func TestEstimate(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 0}, {1, 1}, {4, 1}, {5, 2}, {400, 100}} {
		if got := Estimate(c.n); got != c.want {
			t.Errorf("Estimate(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	if !Exact() {
		t.Fatal("the embedded cl100k ranks failed to load")
	}
}

func BenchmarkCount(b *testing.B) {
	data := corpus(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Count(data)
	}
}

func BenchmarkReference(b *testing.B) {
	data := string(corpus(b))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Reference(data); err != nil {
			b.Fatal(err)
		}
	}
}

func corpus(b *testing.B) []byte {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	var data []byte
	for _, f := range files {
		x, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, x...)
	}
	if len(data) == 0 {
		b.Fatal("empty corpus")
	}
	Warm()
	return data
}
