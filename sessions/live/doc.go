// Package live reads streams from the network and records them: Connect
// opens an SSE endpoint as a sessions.Capture (content decoding bounded
// against decompression bombs, redirects followed only when asked and as
// curl follows them, secrets redacted), Record tees any capture into a
// framescope JSONL file as it arrives, StopLimits end a session at a size
// or frame count, and RunLive ties one live session together: connect,
// record, check, and save it to the library.
package live
