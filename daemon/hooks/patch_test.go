package hooks

import (
	"reflect"
	"testing"
)

func TestParsePatch(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []patchFile
	}{
		{"envelope", `*** Begin Patch
*** Update File: shop/pricing.py
@@ TAX = 0.2
 
-def price_of(item):
+def price_of(item, currency):
     """Price of one item, tax included."""
@@
-def discount(amount, rate):
-    return amount * (1 - rate)
*** Add File: shop/new.py
+def fresh():
+    return 1
*** Delete File: shop/old.py
*** Update File: a.go
*** Move to: b.go
@@
-x
+y
*** End Patch
`, []patchFile{
			{path: "shop/pricing.py", op: "update", pairs: [][2]string{
				{"\ndef price_of(item):\n    \"\"\"Price of one item, tax included.\"\"\"\n", "\ndef price_of(item, currency):\n    \"\"\"Price of one item, tax included.\"\"\"\n"},
				{"def discount(amount, rate):\n    return amount * (1 - rate)\n", ""},
			}},
			{path: "shop/new.py", op: "add", pairs: [][2]string{{"", "def fresh():\n    return 1\n"}}},
			{path: "shop/old.py", op: "delete"},
			{path: "a.go", op: "update", moveTo: "b.go", pairs: [][2]string{{"x\n", "y\n"}}},
		}},
		{"unified", `diff --git a/x.go b/x.go
--- a/x.go
+++ b/x.go
@@ -1,3 +1,3 @@
 package x
-func F() {}
+func F(a int) {}
--- /dev/null
+++ b/new.go
@@ -0,0 +1 @@
+package x
`, []patchFile{
			{path: "x.go", op: "update", pairs: [][2]string{{"package x\nfunc F() {}\n", "package x\nfunc F(a int) {}\n"}}},
			{path: "new.go", op: "add", pairs: [][2]string{{"", "package x\n"}}},
		}},
		{"not a patch", "hello", nil},
	} {
		if got := parsePatch(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, c.want)
		}
	}
}
