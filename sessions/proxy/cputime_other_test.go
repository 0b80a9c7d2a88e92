//go:build !unix

package proxy

import "time"

// cpuTime is not measured here (no getrusage): the metric reads 0.
func cpuTime() time.Duration { return 0 }
