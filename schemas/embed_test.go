package schemas

import (
	"strings"
	"testing"
)

func TestInherits(t *testing.T) {
	common, ok := Get("ts-common")
	if !ok {
		t.Fatal("ts-common missing")
	}
	for _, name := range []string{"typescript", "tsx"} {
		text, ok := Get(name)
		if !ok || !strings.HasPrefix(text, common) {
			t.Errorf("%s does not start with ts-common", name)
		}
	}
	tsx, _ := Get("tsx")
	ts, _ := Get("typescript")
	if !strings.Contains(tsx, "jsx_opening_element") || strings.Contains(ts, "jsx_opening_element") {
		t.Errorf("JSX patterns belong to tsx only")
	}
	if !strings.Contains(ts, "type_assertion") || strings.Contains(tsx, "type_assertion") {
		t.Errorf("the <T>x assertion belongs to typescript only (the TSX grammar lacks it)")
	}
	js, _ := Get("javascript")
	es, _ := Get("js-common")
	jsx, _ := Get("jsx")
	if !strings.HasPrefix(js, es+"\n"+jsx) || !strings.HasPrefix(tsx, es) {
		t.Errorf("javascript must inherit js-common and jsx, the TypeScript schemas js-common")
	}
	if _, ok := Get("no-such-schema"); ok {
		t.Errorf("a missing schema must not be found")
	}
}
