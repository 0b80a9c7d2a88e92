// Package sessiontest holds the test helpers that the tests of several
// session packages share: draining and faking captures, a generator of
// large valid PC3 captures (the benchmarks' input) and of base64 HARs, heap
// sampling, and writing a report in each format. Of the session packages it
// imports only the sessions vocabulary, so every room's tests can use it.
package sessiontest
