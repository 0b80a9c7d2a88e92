package pc3

import "framescope/invariants"

// EndEvent is the machines' transport input of how a stream ended: a
// broken stream's error, the user's cancel, or else its end of file. The
// reference replay and the inspector's client pane both end their runs
// with it.
func EndEvent(e invariants.End) TransportEvent {
	switch e.Kind {
	case invariants.EndError:
		return TransportEvent{Input: InTransportError, Detail: e.Detail}
	case invariants.EndCancelled:
		return TransportEvent{Input: InUserCancel}
	}
	return TransportEvent{Input: InEOF}
}
