package parse

import "testing"

func TestJSDefaultExportsAndFields(t *testing.T) {
	cases := []struct {
		lang, src, want string
	}{
		{"typescript", "export default function build() {}\n", "build"},
		{"typescript", "export default class Foo {}\n", "Foo"},
		{"typescript", "const x = 1;\nexport default x;\n", "x"},
		{"javascript", "function Animal() {}\nmodule.exports = Animal;\n", "Animal"},
		{"javascript", "exports.f = function () {};\n", ""},
		{"tsx", "export default function App() { return <div/>; }\n", "App"},
	}
	for _, c := range cases {
		f := parseSrc(t, c.lang, "m.ts", c.src)
		if f.DefaultExport != c.want {
			t.Errorf("%s %q: default export %q, want %q", c.lang, c.src, f.DefaultExport, c.want)
		}
	}

	src := `class S {
  constructor(private readonly svc: Service, public repo: Repo, plain: Plain) {}
  run() {
    this.svc?.start();
    this.repo!.save();
  }
}
`
	for _, lang := range []string{"typescript", "tsx"} {
		f := parseSrc(t, lang, "s.ts", src)
		checkFacts(t, f, []string{
			"bind svc type=Service in S",
			"bind repo type=Repo in S",
			"bind plain type=Plain in S.constructor",
			"call this.svc.start L4 in S.run",
			"call this.repo.save L5 in S.run",
		}, []string{
			"bind plain type=Plain in S",
		})
	}
}
