package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccd-dev/ccd/daemon/cli"
)

// TestDoctorServerTable: a language server added through the user's table
// (no code change) shows up in doctor, found on PATH; a broken table is a
// clear error in the JSON-less path too.
func TestDoctorServerTable(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "servers.json")
	os.WriteFile(table, []byte(`{"servers": [{"language": "lua", "name": "fake-lua-ls", "command": ["sh", "-c", "exit 0"], "extensions": [".lua"]}]}`), 0o644)
	t.Setenv("CCD_LSP_SERVERS", table)
	t.Setenv("CCD_NO_DAEMON", "1")
	var out, errb bytes.Buffer
	if code := cli.Main([]string{"doctor", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("doctor: %d %s", code, errb.String())
	}
	var ans struct {
		Languages []struct {
			Language string `json:"language"`
			Server   string `json:"server"`
			Found    bool   `json:"server_found"`
			Grammar  bool   `json:"grammar"`
		} `json:"languages"`
	}
	if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
		t.Fatal(err)
	}
	ok := false
	for _, l := range ans.Languages {
		if l.Language == "lua" {
			ok = l.Server == "fake-lua-ls" && l.Found && l.Grammar
		}
	}
	if !ok {
		t.Errorf("lua row does not show the table's server:\n%s", out.String())
	}
	os.WriteFile(table, []byte(`{"servers": [{"language": "lua"}]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "m.lua"), []byte("local function f() return 1 end\n"), 0o644)
	out.Reset()
	errb.Reset()
	cli.Main([]string{"export", dir, "--lsp=auto", "-q"}, &out, &errb)
	if !bytes.Contains(errb.Bytes(), []byte("servers.json")) {
		t.Errorf("a broken table is not reported: %s", errb.String())
	}
}
