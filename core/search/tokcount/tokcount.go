// Package tokcount counts cl100k_base tokens, the encoding of the models
// that read ccd's answers, fully offline.
//
// The merge ranks come from github.com/pkoukk/tiktoken-go-loader (embedded,
// no network). Splitting text into pieces follows cl100k's pre-tokenisation
// pattern, written out by hand instead of run through a backtracking regular
// expression engine: that regex is where tiktoken-go spends about 80% of its
// time (2 MB/s on Go source). Each piece is then merged by byte-pair ranks
// exactly as tiktoken does. The result is the same count tiktoken-go's
// EncodeOrdinary gives (the tests compare the two on real corpora and random
// text; the reference, tiktoken-go itself, is linked into the tests only).
//
// The encoder is loaded once, on first use, and shared; every function is
// safe for concurrent use. Should the ranks fail to load, counts fall back
// to an estimate (one token per four bytes) and Exact reports false.
package tokcount

import (
	"sync"
	"unicode/utf8"

	loader "github.com/pkoukk/tiktoken-go-loader"
)

// cl100kURL names the ranks file; the offline loader maps it to its
// embedded copy by base name.
const cl100kURL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

type encoder struct {
	ranks map[string]int
	err   error

	mu    sync.Mutex
	cache map[string]int32 // piece → token count, for pieces that need merging
}

// maxCache bounds the piece cache; it is cleared when full.
const maxCache = 1 << 17

var (
	once sync.Once
	enc  *encoder
)

func get() *encoder {
	once.Do(func() {
		e := &encoder{cache: map[string]int32{}}
		e.ranks, e.err = loader.NewOfflineLoader().LoadTiktokenBpe(cl100kURL)
		if e.err == nil && len(e.ranks) == 0 {
			e.err = errEmpty
		}
		enc = e
	})
	return enc
}

type loadError string

// Error returns the message.
func (e loadError) Error() string { return string(e) }

const errEmpty = loadError("cl100k ranks are empty")

// Warm loads the encoder now (about 0.1 s) instead of on the first count,
// and returns the load error, if any.
func Warm() error { return get().err }

// Exact reports whether counts come from the real encoder (true) or from the
// four-bytes-per-token estimate because the ranks could not be loaded.
func Exact() bool { return get().err == nil }

// Estimate is the cheap guess used when exact counts are unavailable or not
// yet computed: one token per four bytes, at least one for non-empty text.
func Estimate(n int) int {
	if n <= 0 {
		return 0
	}
	return (n + 3) / 4
}

// Count returns the number of cl100k_base tokens in text (special tokens are
// treated as ordinary text, as EncodeOrdinary does). Invalid UTF-8 bytes
// count as U+FFFD each, as they do when tiktoken-go decodes the string.
func Count(text []byte) int {
	e := get()
	if e.err != nil {
		return Estimate(len(text))
	}
	if !utf8.Valid(text) {
		text = replaceInvalid(text)
	}
	n := 0
	for i := 0; i < len(text); {
		j := nextPiece(text, i)
		n += e.piece(text[i:j])
		i = j
	}
	return n
}

// CountString is Count for a string.
func CountString(s string) int { return Count([]byte(s)) }

// replaceInvalid turns every byte that is not part of a valid UTF-8
// sequence into U+FFFD.
func replaceInvalid(b []byte) []byte {
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
			i++
			continue
		}
		out = append(out, b[i:i+size]...)
		i += size
	}
	return out
}

// piece counts the tokens of one pre-tokenised piece.
func (e *encoder) piece(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if _, ok := e.ranks[string(p)]; ok {
		return 1
	}
	e.mu.Lock()
	c, ok := e.cache[string(p)]
	e.mu.Unlock()
	if ok {
		return int(c)
	}
	n := e.merge(p)
	e.mu.Lock()
	if len(e.cache) >= maxCache {
		clear(e.cache)
	}
	e.cache[string(p)] = int32(n)
	e.mu.Unlock()
	return n
}

// tokens returns the token strings of text (for tests: they make a much
// sharper comparison with the reference than counts do).
func tokens(text []byte) []string {
	e := get()
	if !utf8.Valid(text) {
		text = replaceInvalid(text)
	}
	var out []string
	for i := 0; i < len(text); {
		j := nextPiece(text, i)
		p := text[i:j]
		if _, ok := e.ranks[string(p)]; ok || len(p) == 1 {
			out = append(out, string(p))
		} else {
			b := e.split(p)
			for k := 0; k+1 < len(b); k++ {
				out = append(out, string(p[b[k]:b[k+1]]))
			}
		}
		i = j
	}
	return out
}
