// Package source makes the inspector's sources (store.Source): a capture
// read through the pipeline, a live connection (sessions/live), a demo
// served on a loopback relay (sessions/replay). It does their I/O —
// opening the capture file again to read its blocks back, connecting,
// serving — and hands the feeder what it read, so package ui/store keeps
// only the data. Packages ui and ui/cli start them.
package source
