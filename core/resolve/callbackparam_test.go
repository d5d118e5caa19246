package resolve

import (
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

func TestCallbackParamType(t *testing.T) {
	tests := []struct {
		sig      string
		arg, pos int
		want     string
	}{
		// rxjs util/lift.ts
		{"function operate<T, R>(init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void): OperatorFunction<T, R>", 0, 1, "Subscriber"},
		{"function operate<T, R>(init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void): OperatorFunction<T, R>", 0, 0, "Observable"},
		// a `this:` parameter does not count; optional parameter
		{"constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => TeardownLogic)", 0, 0, "Subscriber"},
		// a generic function type, a union with undefined, a second argument
		{"function on(name: string, cb: <E>(event: Evt<E> | undefined) => void)", 1, 0, "Evt"},
		{"function on(name: string, cb: (event: Evt) => void = noop)", 1, 0, "Evt"},
		// nothing declared, not a function type, a parameter beyond the list
		{"function later(fn)", 0, 0, ""},
		{"function later(fn: any)", 0, 0, ""},
		{"function later(fn: Handler)", 0, 0, ""},
		{"function later(fn: (a: A) => void)", 0, 1, ""},
		{"function later(fn: (a: string | number) => void)", 0, 0, ""},
		{"function later(fn: (a: { x: number }) => void)", 0, 0, ""},
		// `this` as the callee's function type declares it
		{"schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay?: number): Subscription", 0, thisParam, "SchedulerAction"},
		{"schedule<T>(work: (state: T) => void): Subscription", 0, thisParam, ""},
	}
	for _, tt := range tests {
		if got := callbackParamType(tt.sig, tt.arg, tt.pos); got != tt.want {
			t.Errorf("callbackParamType(%q, %d, %d) = %q, want %q", tt.sig, tt.arg, tt.pos, got, tt.want)
		}
	}
}

func TestCallbackCallee(t *testing.T) {
	tests := []struct {
		recv   string
		callee string
		arg    int
	}{
		{"=>operate#0", "operate", 0},
		{"=>scheduler.schedule#2", "scheduler.schedule", 2},
		{"=>arr.forEach", "arr.forEach", -1},
		{"=>this.#run", "this.#run", -1},
		{"=>this.#run#1", "this.#run", 1},
	}
	for _, tt := range tests {
		callee, arg := facts.CallbackCallee(tt.recv)
		if callee != tt.callee || arg != tt.arg {
			t.Errorf("CallbackCallee(%q) = %q, %d, want %q, %d", tt.recv, callee, arg, tt.callee, tt.arg)
		}
	}
}

func TestDeclaredThis(t *testing.T) {
	tests := map[string]string{
		"function (this: SchedulerAction<any>)":          "SchedulerAction",
		"make_(this: Annotation, adm: Adm, key: string)": "Annotation",
		"function (thisArg, x)":                          "",
		"function (x: number, this: T)":                  "",
		"() =>":                                          "",
	}
	for sig, want := range tests {
		if got := declaredThis(sig); got != want {
			t.Errorf("declaredThis(%q) = %q, want %q", sig, got, want)
		}
	}
}
