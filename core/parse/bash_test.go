package parse

import "testing"

func TestBashFacts(t *testing.T) {
	src := `#!/usr/bin/env bash
source "$(dirname "$0")/lib/util.sh"
. ./lib/log.sh
source lib/x.sh arg1
. "${DIR}/lib.sh"
source $DIR/raw.sh
f() { g 1; }
function h {
  local x=$(util_fn a b)
  if grep -q foo bar; then log_info "x"; fi
  echo "$(date)" | tr a b
  FOO=1 run_it --flag
  $cmd arg
  [[ -f x ]] && k
}
function m() ( sub )
main "$@"
`
	f := parseSrc(t, "bash", "main.sh", src)
	checkFacts(t, f, []string{
		"def func f L7-7",
		"def func h L8-15",
		"def func m L16-16",
		"import spec=$(dirname \"$0\")/lib/util.sh kind=source L2",
		"import spec=./lib/log.sh kind=source L3",
		"import spec=lib/x.sh kind=source L4",
		"import spec=${DIR}/lib.sh kind=source L5",
		"import spec=$DIR/raw.sh kind=source L6",
		"call g L7 in f",
		"call util_fn L9 in h",
		"call grep L10 in h",
		"call log_info L10 in h",
		"call echo L11 in h",
		"call date L11 in h",
		"call tr L11 in h",
		"call run_it L12 in h",
		"call k L14 in h",
		"call sub L16 in m",
		"call main L17 in <module>",
		"call dirname L2 in <module>",
	}, []string{
		// only the first argument of source is the file
		"import spec=arg1 kind=source L4",
		// a command named by a variable is unknown
		"call $cmd L13 in h",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors", f.SyntaxErrors)
	}
}
