// Package reference runs a dialect's reference client machine (the one
// it ships, reached through machine.Of: PC3's) over a capture: RunReference
// feeds every frame of the shared
// pipeline, and the transport events the capture shows, to one client run
// per profile, next to the checker; WriteReferenceReplay prints the replay,
// and ExportKit writes the conformance kit of cases a client can be tested
// against.
package reference
