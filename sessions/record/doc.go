// Package record writes a stream as a framescope JSONL capture while it is
// read: New tees any sessions.Capture into a file line by line (a killed
// process leaves a valid capture up to its last chunk; secrets redacted,
// unsafe runes escaped, the request body kept up to 1 MiB), File and
// Target open the file it goes to (private, and -o opened before the
// one-shot request is sent), Failure says when a recording lost data, and
// Summarize is what the session library lists of a recorded session.
//
// connect (sessions/live) and the proxy (sessions/proxy) both record
// through it, so neither imports the other.
package record
