// Package mutation measures how right ccd's affected tests are against a
// mutation oracle: make one function fail on entry, run the package's real
// test suite, and take the tests that fail as the truth.
//
// The truth is slow to compute (one suite run per mutant) and is cached
// in testdata/mutation/<corpus>.json; Refresh recomputes it. ccd's side is
// fast: Score indexes a fresh copy of the corpus in-process and asks, for
// each mutant's function, for its affected tests (the impact report's
// tests, as `ccd impact` builds them) at depth 3 and unlimited, and
// compares. Markdown
// renders MUTATION.md. See README.md in this directory.
package mutation
