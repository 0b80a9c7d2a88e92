// Package report turns a pipeline run into a check report: Check and
// CheckWith collect the alarms (listing at most MaxListed of each rule in
// each turn, counting all), and a Report is written as text, as one line of
// JSON or as JUnit XML; CheckToWrite keeps a report that is only to be
// written flat in memory, however many turns and alarms. WriteJUnitError
// reports an unreadable capture in JUnit.
package report
