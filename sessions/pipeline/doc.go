// Package pipeline is the one path from a capture to checked frames: Run
// reads a capture to its end through framer, decoder and dialect checker,
// streaming, with reading and decoding a stage ahead on a second core (in
// tiny batches for floods of small blocks). It detects the dialect from the
// first frames unless one is forced, does not read a non-2xx response as a
// stream, and hands every block, alarm and note to a Handler in stream
// order. Dump writes the decoded frames (NDJSON or text) through the same
// pipeline, so check, dump and the TUI agree.
package pipeline
