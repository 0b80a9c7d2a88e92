//go:build !unix

package dialecttest

import "time"

// cpuTime is not measured here: ObserveBench reports wall time only.
func cpuTime() time.Duration { return 0 }
