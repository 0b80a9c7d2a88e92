// Package capture opens captures for reading: Open sniffs the content
// (never the file name) and returns a sessions.Capture for raw SSE bytes, a
// framescope JSONL capture, a HAR export (its body streamed, JSON escapes
// and base64 decoded on the fly) or NDJSON frames. A name of the form @ref
// is a session of the library, resolved there. Every reader is bounded in
// memory and reports damage to the file as Problems naming its line,
// reading on past it.
package capture
