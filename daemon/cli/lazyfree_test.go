package cli

import (
	"slices"
	"testing"
)

func TestLazyFreeEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		want []string
		ok   bool
	}{
		{"no GODEBUG", []string{"A=1"}, []string{"A=1", "GODEBUG=madvdontneed=0"}, true},
		{"empty GODEBUG", []string{"GODEBUG=", "A=1"}, []string{"GODEBUG=madvdontneed=0", "A=1"}, true},
		{"other settings kept", []string{"GODEBUG=gctrace=1"}, []string{"GODEBUG=gctrace=1,madvdontneed=0"}, true},
		{"the user's choice wins", []string{"GODEBUG=madvdontneed=1"}, []string{"GODEBUG=madvdontneed=1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := lazyFreeEnv(tc.env)
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Errorf("lazyFreeEnv(%q) = %q, %v; want %q, %v", tc.env, got, ok, tc.want, tc.ok)
			}
		})
	}
}
