package machine

// The allocation-free action walk, for machine_test.
var (
	ActionCount = actionCount
	ActionAt    = actionAt
)
