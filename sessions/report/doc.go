// Package report turns a pipeline run into a check report: Check and
// CheckWith collect the alarms (listing at most MaxListed of each rule in
// each turn, counting all), and a Report is written as text, as one line of
// JSON, as JUnit XML, as GitHub Actions workflow commands or in a SARIF
// 2.1.0 log (SARIF, over every input); CheckToWrite keeps a report that is
// only to be written flat in memory, however many turns and alarms.
// WriteJUnitError reports an unreadable capture in JUnit. SetBudgets says
// whether the latency budgets could be judged; CaptureLines places a
// frame on its capture line; a Tally counts the inputs of one check.
package report
