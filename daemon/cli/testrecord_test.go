package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestsRecordThenImpact: `ccd tests record` runs the suite under the
// tracer; `ccd impact` then names the tests seen running a function (via
// "ran") and counts those the graph reaches that did not; a damaged
// recording is reported and impact falls back to the graph.
func TestTestsRecordThenImpact(t *testing.T) {
	t.Setenv("CCD_NO_DAEMON", "1")
	dir := writeTree(t, map[string]string{
		"calc/ops.py": `def parse(text):
    if not text.strip():
        return empty()
    return [int(x) for x in text.split()]


def empty():
    return []


def total(text):
    return sum(parse(text))
`,
		"tests/test_ops.py": `from calc.ops import parse, total


def test_total():
    assert total("1 2") == 3


def test_blank():
    assert parse("  ") == []
`,
	})
	r := runOK(t, "tests", "record", dir)
	if !strings.Contains(r.stdout, "2 tests ran") {
		t.Errorf("record:\n%s", r)
	}
	if r := runOK(t, "tests", "show", dir); !strings.Contains(r.stdout, "2 tests ran 3 of 3 functions") {
		t.Errorf("show:\n%s", r)
	}
	impact := func() (map[string]string, int, bool, string) {
		r := runOK(t, "impact", "--root", dir, "--json", "empty")
		var rep struct {
			Tests []struct {
				ID  string `json:"id"`
				Via string `json:"via"`
			} `json:"tests"`
			NotRun   int  `json:"tests_not_run"`
			Recorded bool `json:"tests_recorded"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%v\n%s", err, r)
		}
		got := map[string]string{}
		for _, x := range rep.Tests {
			got[x.ID] = x.Via
		}
		return got, rep.NotRun, rep.Recorded, r.stderr
	}
	// The graph: both tests reach empty through parse; only test_blank
	// takes the branch that calls it.
	got, notRun, recorded, _ := impact()
	if len(got) != 1 || got["tests/test_ops.py::test_blank"] != "ran" || notRun != 1 || !recorded {
		t.Errorf("with the recording: tests %v, not run %d, recorded %v", got, notRun, recorded)
	}
	os.WriteFile(filepath.Join(dir, ".codecanvas", "tests.json"), []byte("{broken"), 0o644)
	got, _, recorded, stderr := impact()
	if len(got) != 2 || recorded || !strings.Contains(stderr, "run `ccd tests record` again") {
		t.Errorf("damaged recording: tests %v, recorded %v, stderr %q", got, recorded, stderr)
	}
}

// TestTestsShowWithoutRecording: show reads the file alone and, without
// one, says how to make it.
func TestTestsShowWithoutRecording(t *testing.T) {
	t.Setenv("CCD_NO_DAEMON", "1")
	dir := t.TempDir()
	r := run(t, "tests", "show", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "no recording in") || !strings.Contains(r.stderr, "run `ccd tests record") {
		t.Errorf("show without a recording:\n%s", r)
	}
	if r := run(t, "tests"); r.code != 2 || !strings.Contains(r.stderr, "want record or show") {
		t.Errorf("no verb:\n%s", r)
	}
}
