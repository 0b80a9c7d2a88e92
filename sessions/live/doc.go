// Package live reads streams from the network: Connect opens an SSE
// endpoint as a sessions.Capture (content decoding by sessions/codings,
// bounded against decompression bombs; redirects followed only when asked
// and as curl follows them; secrets redacted), StopLimits end a session at
// a size or frame count, and RunLive ties one live session together:
// connect, record (sessions/record), check, and save it to the library.
package live
