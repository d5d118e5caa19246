package parse

import "testing"

func TestPythonFacts(t *testing.T) {
	src := `import os.path as osp, sys
from . import sibling
from ..pkg.mod import thing as other, more
from x import *

@decorator
@app.route("/x")
class Outer(Base, mixins.Mixin, metaclass=Meta):
    field: int = 3

    class Inner:
        def method(self, p: Parser, q: "Optional[Node]" = None) -> int:
            x = Cls(1)
            self.y = Other()
            super().method()
            def local():
                return helper(x).go()
            return local()

def f(): pass

def broken(:
    g()

if __name__ == "__main__":
    main()
`
	f := parseSrc(t, "python", "pkg/a.py", src)
	checkFacts(t, f, []string{
		"def class Outer L8-18 bases=Base,mixins.Mixin decorators=decorator,app.route",
		"def class Outer.Inner L11-18",
		"def func Outer.Inner.method L12-18 result=int",
		"def func Outer.Inner.method.local L16-17 result==helper(x).go()", // what its body returns
		"def func f L20-20",
		"import spec=os.path alias=osp L1",
		"import spec=sys L1",
		"import spec=. name=sibling L2",
		"import spec=..pkg.mod name=thing alias=other L3",
		"import spec=..pkg.mod name=more L3",
		"import spec=x star L4",
		"call decorator L6 in <module>",
		"call app.route L7 in <module>",
		"call Cls L13 in Outer.Inner.method",
		"call super().method L15 in Outer.Inner.method",
		"call helper L17 in Outer.Inner.method.local",
		"call helper(x).go L17 in Outer.Inner.method.local",
		"call local L18 in Outer.Inner.method",
		"def func broken L22-23",
		"call g L23 in broken",
		"call main L26 in <module>",
		"bind p type=Parser in Outer.Inner.method",
		"bind q type=Node in Outer.Inner.method",
		"bind x call=Cls in Outer.Inner.method",
		"bind self.y call=Other in Outer.Inner.method",
		"bind field type=int in Outer",
	}, []string{
		"call Cls L13 in <module>",
	})
	if f.SyntaxErrors == 0 {
		t.Errorf("syntax error in broken() not counted")
	}
}
