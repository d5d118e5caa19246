package parse

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ccd-dev/ccd/config"
)

// TestSchemasCompile validates every shipped query against its grammar: a
// node type the grammar lacks must fail here, not silently lose call sites.
func TestSchemasCompile(t *testing.T) {
	r, err := NewRegistry(config.Languages)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range config.Languages {
		want := 2
		if l.Schema != "" {
			want = 1
		}
		if got := r.Tier(l.Name); got != want {
			t.Errorf("%s: tier %d, want %d", l.Name, got, want)
		}
	}
}

func TestDumpFacts(t *testing.T) {
	file, lang := os.Getenv("CCD_DUMP_FILE"), os.Getenv("CCD_DUMP_LANG")
	if file == "" {
		t.Skip("developer aid: set CCD_DUMP_FILE and CCD_DUMP_LANG to print a file's facts")
	}
	r, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := r.NewParser()
	defer p.Close()
	f, err := p.Parse(file, lang, src)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(f, "", " ")
	t.Log(string(b))
}
