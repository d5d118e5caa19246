package benchmd

import (
	"math"
	"slices"
	"time"
)

// Sample is a set of measurements of one quantity, in one unit
// (milliseconds for times, megabytes for memory).
type Sample []float64

// Millis converts durations to a Sample in milliseconds.
func Millis(ds []time.Duration) Sample {
	s := make(Sample, len(ds))
	for i, d := range ds {
		s[i] = float64(d.Nanoseconds()) / 1e6
	}
	return s
}

func (s Sample) sorted() []float64 {
	c := slices.Clone([]float64(s))
	slices.Sort(c)
	return c
}

// Median is the middle value (the mean of the two middle values for an
// even count); NaN for an empty sample.
func (s Sample) Median() float64 {
	c := s.sorted()
	n := len(c)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return c[n/2]
	default:
		return (c[n/2-1] + c[n/2]) / 2
	}
}

// Percentile is the nearest-rank percentile p (0 < p ≤ 100): the smallest
// value with at least p% of the sample at or below it. NaN for an empty
// sample.
func (s Sample) Percentile(p float64) float64 {
	c := s.sorted()
	if len(c) == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(len(c))))
	rank = min(max(rank, 1), len(c))
	return c[rank-1]
}

// Min is the smallest value; NaN for an empty sample.
func (s Sample) Min() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return slices.Min(s)
}

// Max is the largest value; NaN for an empty sample.
func (s Sample) Max() float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return slices.Max(s)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// wallMS, cpuMS and rssMB turn a phase's runs into samples.
func wallMS(us []Usage) Sample { return collect(us, func(u Usage) float64 { return ms(u.Wall) }) }
func cpuMS(us []Usage) Sample  { return collect(us, func(u Usage) float64 { return ms(u.CPU) }) }
func rssMB(us []Usage) Sample  { return collect(us, func(u Usage) float64 { return u.MaxRSSMB }) }

func collect(us []Usage, f func(Usage) float64) Sample {
	s := make(Sample, len(us))
	for i, u := range us {
		s[i] = f(u)
	}
	return s
}
