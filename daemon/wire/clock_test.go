package wire

import (
	"math/rand"
	"runtime"
	"testing"
	"time"
)

func TestFormatRFC3339Nano(t *testing.T) {
	cases := []time.Time{
		time.Unix(0, 0),
		time.Unix(0, 1),
		time.Unix(-1, 999999999),
		time.Date(2000, 2, 29, 23, 59, 59, 100000000, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2100, 2, 28, 12, 0, 0, 120, time.UTC),
		time.Date(2024, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2026, 11, 22, 15, 52, 52, 407000000, time.UTC),
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		cases = append(cases, time.Unix(0, r.Int63n(1<<62)-1<<61))
	}
	for _, tm := range cases {
		want := tm.UTC().Format(time.RFC3339Nano)
		if got := formatRFC3339Nano(tm.UnixNano()); got != want {
			t.Errorf("%d: got %s, want %s", tm.UnixNano(), got, want)
		}
	}
	if got, err := time.Parse(time.RFC3339Nano, timestamp()); err != nil || time.Since(got).Abs() > time.Minute {
		t.Errorf("timestamp %v %v is not now", got, err)
	}
}

func TestDeadline(t *testing.T) {
	var none Deadline
	if none.Passed() || none.Left() < 1<<60 {
		t.Errorf("the zero deadline passed")
	}
	const hour = 3600 * 1000 * Millisecond
	d := After(hour)
	if d.Passed() || d.Left() > hour || d.Left() < hour-60*1000*Millisecond {
		t.Errorf("left %d", d.Left())
	}
	t0 := time.Now()
	sleep(20 * Millisecond)
	if el := time.Since(t0); el < 20*time.Millisecond {
		t.Errorf("slept %s", el)
	}
	if After(-1).Left() > 0 || !After(0).Passed() {
		t.Errorf("a past deadline has time left")
	}
}

// TestSleepSurvivesSignals sleeps while the runtime sends the process
// signals (each GC preempts goroutines with SIGURG); an interrupted
// nanosleep must resume, not return early.
func TestSleepSurvivesSignals(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for i := 0; i < 20; i++ {
		t0 := time.Now()
		sleep(5 * Millisecond)
		if el := time.Since(t0); el < 5*time.Millisecond {
			t.Fatalf("sleep %d returned after %s", i, el)
		}
	}
}
