package parse

import (
	"slices"
	"testing"
)

func TestSeparateSignatures(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // definitions, all of which must be found
	}{
		{
			// mobx api/action.ts: without the repair the parse loses
			// everything from the second signature on.
			name: "generic call signatures",
			src: `import { a } from "./a"
export interface IActionFactory extends Annotation, PropertyDecorator {
    // nameless actions
    <T extends Function | undefined | null>(fn: T): T
    // named actions
    <T extends Function | undefined | null>(name: string, fn: T): T

    // named decorator
    (customName: string): PropertyDecorator & Annotation

    bound: Annotation & PropertyDecorator
}

function createActionFactory(autoAction: boolean): IActionFactory {
    const res: IActionFactory = function action(arg1, arg2?): any {
        if (isFunction(arg1)) {
            return createAction(arg1.name, arg1, autoAction)
        }
    } as IActionFactory
    return res
}

export function runInAction<T>(fn: () => T): T {
    return executeAction(fn.name, false, fn, this, undefined)
}
`,
			want: []string{"IActionFactory", "createActionFactory", "action", "runInAction"},
		},
		{
			name: "type literal member after a generic type",
			src: `export type Factory = {
    make: Map<string, number>
    <T>(value: T): T
}
export function after(): void {}
`,
			want: []string{"Factory", "after"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseSrc(t, "typescript", "a.ts", tt.src)
			if f.SyntaxErrors != 0 {
				t.Errorf("%d syntax errors left (first at line %d)", f.SyntaxErrors, f.ErrorLine)
			}
			var names []string
			for _, d := range f.Defs {
				names = append(names, d.Name)
			}
			for _, w := range tt.want {
				if !slices.Contains(names, w) {
					t.Errorf("definition %s is missing: %v", w, names)
				}
			}
		})
	}
}

func TestSeparateSignaturesLeavesOtherLines(t *testing.T) {
	for _, src := range []string{
		"const x = a\n    < b\n",                           // a comparison continued
		"type A = Map<\n    <T>() => T, number>\n",         // after an opening '<'
		"f(a,\n    <T>(x: T) => x)\n",                      // after a comma
		"const g =\n    <T>(x: T) => x\n",                  // after '='
		"<T>(x: T) => x\n",                                 // no indentation to use
		"interface I {\n    m(): void\n    n(): void\n}\n", // no generic signature
	} {
		if got := separateSignatures([]byte(src)); got != nil {
			t.Errorf("separateSignatures(%q) = %q, want nil", src, got)
		}
	}
	src := "interface I {\n    a: T\n    <T>(x: T): T\n}\n"
	got := separateSignatures([]byte(src))
	if want := "interface I {\n    a: T\n;   <T>(x: T): T\n}\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
