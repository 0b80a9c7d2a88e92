// Package codings is the one place framescope undoes a Content-Encoding
// (RFC 9110 §8.4): it parses the codings a header stacks, makes their
// decoders (gzip, deflate — zlib-wrapped or raw — and br), stacks them in
// the order they were applied, and bounds what they decode against a
// decompression bomb (Bound: a decoded size or a ratio to the compressed
// bytes, whichever comes first).
//
// Three readers decode with it: connect's live body (sessions/live), the
// proxy's check of an encoded stream (sessions/proxy) and a gzip capture
// file (sessions/capture). Each says in its own words what a bound reached
// means for its reader (the stream ends, the check stops, the file is
// damaged); the bound and the decoders are the same.
package codings
