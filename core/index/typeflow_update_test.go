package index

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ccd-dev/ccd/config"
)

// TestUpdateFollowsDeclaredTypes edits what other files' edges depend on
// through declared types rather than names at call sites: the function
// type a callee declares for a callback (its parameters and `this`), a
// typed module variable another file imports, and the methods of an
// object literal a field holds. After each edit the incrementally
// updated graph must be a clean build's, and the edge the edit moves
// must have moved.
func TestUpdateFollowsDeclaredTypes(t *testing.T) {
	ar := txtar.Parse([]byte(`-- package.json --
{"name": "flow"}
-- src/lift.ts --
export class Subscriber { next(v: number): void {} }
export class Observer { notify(v: number): void {} }
export function operate(init: (source: number, subscriber: Subscriber) => void): void {}
-- src/take.ts --
import { operate } from './lift'
export function take() {
    operate((source, subscriber) => { subscriber.next(source); subscriber.notify(source) })
}
-- app/config.py --
class Settings:
    def reload_all(self):
        pass

class Other:
    def reload_all(self):
        pass

settings = Settings()
-- app/use.py --
from app.config import settings

def refresh():
    settings.reload_all()
-- app/factory.py --
def render_plain(text):
    return text

def render_bold(text):
    return text

def select_renderer(style):
    if style:
        return render_bold
    return render_plain
-- app/show.py --
from app.factory import select_renderer

def show(text):
    return select_renderer(True)(text)
-- app/tasks.py --
def run_task(fn, *args):
    return fn(*args)
-- app/jobs.py --
from app.tasks import run_task

def cleanup():
    return 1

def archive():
    return 2

def main():
    return run_task(cleanup)
-- gob/conn.go --
package gob

func Dial() int { return open() }
-- gob/conn_a.go --
//go:build purego

package gob

func open() int { return 1 }
-- gob/conn_b.go --
//go:build !purego

package gob

func open() int { return 2 }
-- lib/cmd.js --
class Command {
  constructor() {
    this.out = {
      writeErr: (s) => s,
    };
  }
  error(m) { this.out.writeErr(m); }
}
module.exports = { Command };
-- lib/emitter.js --
function Emitter() {}
Emitter.prototype.on = function on(event, fn) { return this; };
Emitter.prototype.off = function off(event, fn) { return this; };
Emitter.prototype.addListener = Emitter.prototype.on;
module.exports = { Emitter };
-- lib/use.js --
const { Emitter } = require('./emitter');
function listen() {
  const e = new Emitter();
  e.addListener('data', listen);
}
module.exports = { listen };
`))
	dir := extract(t, ar)
	cfg := config.Default()
	res, err := Build(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		file, old, new string
		gone, added    string // edges (graph text lines, without confidence) the edit removes and makes
	}{
		{"src/lift.ts", "subscriber: Subscriber) => void", "subscriber: Observer) => void",
			"call src/take.ts::take.fn@1 -> src/lift.ts::Subscriber.next", "call src/take.ts::take.fn@1 -> src/lift.ts::Observer.notify"},
		{"app/config.py", "settings = Settings()", "settings = Other()",
			"call app/use.py::refresh -> app/config.py::Settings.reload_all", "call app/use.py::refresh -> app/config.py::Other.reload_all"},
		{"app/factory.py", "        return render_bold", "        return text.upper",
			"call app/show.py::show -> app/factory.py::render_bold", "call app/show.py::show -> app/factory.py::render_plain"},
		{"app/jobs.py", "run_task(cleanup)", "run_task(archive)",
			"call app/tasks.py::run_task -> app/jobs.py::cleanup", "call app/tasks.py::run_task -> app/jobs.py::archive"},
		{"app/tasks.py", "return fn(*args)", "return args",
			"call app/tasks.py::run_task -> app/jobs.py::archive", ""},
		{"gob/conn_b.go", "//go:build !purego", "//go:build purego",
			"call gob/conn.go::Dial -> gob/conn_b.go::open", "call gob/conn.go::Dial -> gob/conn_a.go::open"},
		{"lib/cmd.js", "writeErr: (s) => s,", "writeOut: (s) => s,",
			"call lib/cmd.js::Command.error -> lib/cmd.js::Command.constructor.writeErr", ""},
		{"lib/emitter.js", "Emitter.prototype.addListener = Emitter.prototype.on;", "Emitter.prototype.addListener = Emitter.prototype.off;",
			"call lib/use.js::listen -> lib/emitter.js::Emitter.on", "call lib/use.js::listen -> lib/emitter.js::Emitter.off"},
	}
	for _, st := range steps {
		p := filepath.Join(dir, filepath.FromSlash(st.file))
		data := mustRead(t, p)
		if !strings.Contains(data, st.old) {
			t.Fatalf("%s has no %q", st.file, st.old)
		}
		if !hasEdgeLine(res.Graph.Text(), st.gone) {
			t.Fatalf("before editing %s: no %q in\n%s", st.file, st.gone, res.Graph.Text())
		}
		writeFile(t, p, strings.Replace(data, st.old, st.new, 1))
		next, _, ok, err := res.UpdateFiles([]string{st.file})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if next, _, err = res.Update([]string{st.file}); err != nil {
				t.Fatal(err)
			}
		}
		clean, err := Build(dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := next.Graph.Text(), clean.Graph.Text(); got != want {
			t.Fatalf("after editing %s the graph differs from a clean build:\n%s", st.file, lineDiff(want, got))
		}
		if hasEdgeLine(next.Graph.Text(), st.gone) {
			t.Errorf("after editing %s: %q is still there", st.file, st.gone)
		}
		if st.added != "" && !hasEdgeLine(next.Graph.Text(), st.added) {
			t.Errorf("after editing %s: no %q", st.file, st.added)
		}
		res = next
	}
}

// hasEdgeLine reports whether the graph text has an edge line starting
// with line (its confidence and lines follow).
func hasEdgeLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, line+" ") || l == line {
			return true
		}
	}
	return false
}
