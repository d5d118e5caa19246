// Package testmap records which tests run which functions and answers
// graph.TestRuns from that record.
//
// A recording runs a workspace's own test suites once, each test on its
// own, with a tracer: Go tests as coverage profiles, one per test (`go
// test -c -cover`, then the test binary with `-test.run '^Name$'`);
// Python unittest and pytest suites under a small tracer that notes each
// function a test enters (recording.py, run by the python3 on PATH). The
// functions and tests are then named by the ids of the graph the
// recording was made against, so a later graph (after edits) still finds
// them. The recording lives in the workspace's .codecanvas/tests.json.
//
// The static closure of a function (graph.TestsOf) names every test that
// could reach it; a recording names the tests that did. Affected tests
// read from a recording do not name a test that never runs the function
// (a branch the test does not take, a table entry it never uses) and do
// name tests the graph cannot see (calls through the standard library).
package testmap
