package pc3

import (
	"framescope/invariants"
	"framescope/invariants/machine"
)

// EndEvent is the machines' transport input of how a stream ended
// (machine.EndEvent): the reference replay and the inspector's client pane
// both end their runs with it.
func EndEvent(e invariants.End) TransportEvent { return machine.EndEvent(e) }
