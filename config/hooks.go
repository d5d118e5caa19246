package config

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Hooks is the AutoContext policy: how much context the hook engine may add
// and how often.
type Hooks struct {
	// CardMax is the longest card, in characters.
	CardMax int
	// Cooldown is the quiet time per (root, file, symbol) after a card.
	Cooldown time.Duration
	// Novelty is the window in which the same card text is never repeated.
	Novelty time.Duration
	// Budget is the most cards one session gets per BudgetWindow.
	Budget       int
	BudgetWindow time.Duration
	// Deadline bounds the daemon's work on one event; the shim has its own
	// budget on top (CCD_HOOK_BUDGET_MS).
	Deadline time.Duration
}

// DefaultHooks returns the built-in AutoContext policy.
func DefaultHooks() Hooks {
	return Hooks{
		CardMax:      900,
		Cooldown:     60 * time.Second,
		Novelty:      10 * time.Minute,
		Budget:       20,
		BudgetWindow: 10 * time.Minute,
		Deadline:     2 * time.Second,
	}
}

// LoadHooks returns the defaults overridden by CCD_HOOK_CARD_MAX (chars),
// CCD_HOOK_COOLDOWN_S, CCD_HOOK_NOVELTY_S, CCD_HOOK_BUDGET (cards),
// CCD_HOOK_BUDGET_WINDOW_S and CCD_HOOK_DEADLINE_MS.
func LoadHooks() (Hooks, error) {
	h := DefaultHooks()
	ints := []struct {
		env  string
		dst  *int
		min  int
		want string
	}{
		{"CCD_HOOK_CARD_MAX", &h.CardMax, 200, "a number of characters, at least 200"},
		{"CCD_HOOK_BUDGET", &h.Budget, 0, "a number of cards (0 disables cards)"},
	}
	for _, it := range ints {
		if v := os.Getenv(it.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < it.min {
				return DefaultHooks(), fmt.Errorf("%s=%q: want %s", it.env, v, it.want)
			}
			*it.dst = n
		}
	}
	durs := []struct {
		env  string
		dst  *time.Duration
		unit time.Duration
	}{
		{"CCD_HOOK_COOLDOWN_S", &h.Cooldown, time.Second},
		{"CCD_HOOK_NOVELTY_S", &h.Novelty, time.Second},
		{"CCD_HOOK_BUDGET_WINDOW_S", &h.BudgetWindow, time.Second},
		{"CCD_HOOK_DEADLINE_MS", &h.Deadline, time.Millisecond},
	}
	for _, d := range durs {
		if v := os.Getenv(d.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return DefaultHooks(), fmt.Errorf("%s=%q: want a non-negative integer", d.env, v)
			}
			*d.dst = time.Duration(n) * d.unit
		}
	}
	return h, nil
}
