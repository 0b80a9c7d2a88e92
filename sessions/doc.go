// Package sessions is the capture vocabulary that every room under it
// shares: a Capture streams a source's Chunks in order, with its Meta
// (where the bytes came from, the HTTP response when known), how it ended
// (an invariants.End: one end-of-stream type from the checker up to the
// screen) and the Problems found in the file on the way. It also holds what the
// rooms all need to say things safely: Clean and Excerpt for text from
// captures, the bounded ProblemList, byte sizes, the redaction of secrets
// in headers, URLs and request bodies, and framescope's Version. Reading
// captures (capture), the session library (library), the check pipeline
// (pipeline), reports (report), the reference replay (reference), the
// Content-Encoding decoders and their bomb bound (codings), recording a
// stream as a capture (record), live connections, SSE and NDJSON (live),
// the injected faults (faults), the replay server (replay) and the proxy
// that checks an app's own streams (proxy) live in the packages below it.
package sessions
