package replay

// GarbleBlock returns a copy of an SSE block whose data no longer parses
// (as --garble corrupts a frame): the proxy's --fault garble corrupts the
// frames of a live stream the same way.
func GarbleBlock(raw []byte) []byte { return garbleBlock(raw) }
