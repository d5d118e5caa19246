package wire

import (
	"syscall"
	"unsafe"
)

// Clocks of clock_gettime(2).
const (
	clockRealtime  = 0
	clockMonotonic = 1
)

// Millisecond is a duration in nanoseconds, the unit of this package.
const Millisecond = int64(1e6)

// Deadline is a point on the monotonic clock, in nanoseconds, by which an
// operation gives up; the zero Deadline never passes.
type Deadline int64

// After is the deadline ns nanoseconds from now.
func After(ns int64) Deadline {
	d := Deadline(monotonic() + ns)
	if d == 0 {
		d = -1 // keep "zero means none" unambiguous
	}
	return d
}

// Left is the time remaining in nanoseconds (at most 0 once passed); a
// zero Deadline has all the time in the world.
func (d Deadline) Left() int64 {
	if d == 0 {
		return 1 << 62
	}
	return int64(d) - monotonic()
}

// Passed reports whether the deadline has passed.
func (d Deadline) Passed() bool { return d.Left() <= 0 }

func clock(id uintptr) int64 {
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

func monotonic() int64 { return clock(clockMonotonic) }

// sleep pauses the calling thread for ns nanoseconds. A signal (the Go
// runtime preempts with SIGURG) interrupts nanosleep(2) with EINTR; the
// sleep then resumes for the time that was left.
func sleep(ns int64) {
	if ns <= 0 {
		return
	}
	ts := syscall.NsecToTimespec(ns)
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem
	}
}

// timestamp formats the wall clock as RFC 3339 in UTC with nanoseconds and
// no trailing zeros, as time.RFC3339Nano does.
func timestamp() string { return formatRFC3339Nano(clock(clockRealtime)) }

// formatRFC3339Nano formats nanoseconds since the Unix epoch.
func formatRFC3339Nano(ns int64) string {
	secs, frac := ns/1e9, ns%1e9
	if frac < 0 {
		secs, frac = secs-1, frac+1e9
	}
	days, sod := secs/86400, secs%86400
	if sod < 0 {
		days, sod = days-1, sod+86400
	}
	y, m, d := civil(days)
	b := make([]byte, 0, 32)
	b = appendInt(b, y, 4)
	b = append(b, '-')
	b = appendInt(b, m, 2)
	b = append(b, '-')
	b = appendInt(b, d, 2)
	b = append(b, 'T')
	b = appendInt(b, sod/3600, 2)
	b = append(b, ':')
	b = appendInt(b, sod/60%60, 2)
	b = append(b, ':')
	b = appendInt(b, sod%60, 2)
	if frac != 0 {
		digits := 9
		for frac%10 == 0 {
			frac /= 10
			digits--
		}
		b = append(b, '.')
		b = appendInt(b, frac, digits)
	}
	return string(append(b, 'Z'))
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date,
// counting in 400-year eras that start on March 1st (so leap days end a
// year).
func civil(days int64) (year, month, day int64) {
	days += 719468 // shift the epoch to 0000-03-01
	era := days / 146097
	if days < 0 && days%146097 != 0 {
		era--
	}
	doe := days - era*146097                               // day of era [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // year of era [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // day of (March-based) year [0, 365]
	mp := (5*doy + 2) / 153                                // March-based month [0, 11]
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// appendInt appends n zero-padded to width digits (n >= 0).
func appendInt(b []byte, n int64, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for n > 0 || i == len(tmp) {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	for pad := width - (len(tmp) - i); pad > 0; pad-- {
		b = append(b, '0')
	}
	return append(b, tmp[i:]...)
}
