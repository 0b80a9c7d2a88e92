package invariants

// Severity of an alarm: error = the contract is broken; warn = legal but
// almost certainly a bug or a legacy pattern; info = notable, not wrong.
type Severity string

const (
	SevError Severity = "error"
	SevWarn  Severity = "warn"
	SevInfo  Severity = "info"
)

// Rank orders severities: info < warn < error.
func (s Severity) Rank() int {
	switch s {
	case SevError:
		return 3
	case SevWarn:
		return 2
	case SevInfo:
		return 1
	}
	return 0
}

// ParseSeverity accepts error, warn (or warning) and info.
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "error":
		return SevError, true
	case "warn", "warning":
		return SevWarn, true
	case "info":
		return SevInfo, true
	}
	return "", false
}

// NoFrame is the Frame of an alarm that belongs to no single frame.
const NoFrame = -1

// Alarm is one violation (or notable fact) the checker found.
type Alarm struct {
	Rule     string
	Severity Severity
	// Frame is the index of the frame being read when the violation became
	// certain, or NoFrame (e.g. the stream ended).
	Frame int
	// Turn is the 0-based index of the turn the alarm belongs to (-1 when
	// the stream had no turn at all).
	Turn       int
	ResponseID string
	Message    string
	// Unlisted: the alarm is counted but past Options.ListLimit of its
	// rule in its turn, so its Message was not made ("").
	Unlisted bool
}

// NewAlarm appends to *out an alarm without a message or response id and
// returns it, for the checker to finish in place. Its fields are stored one
// by one: appending a composite literal builds it on the stack and copies
// it 16 bytes at a time, a load the CPU cannot forward from the narrower
// stores that built it — a stall per alarm, and a flood raises millions.
func NewAlarm(out *[]Alarm, rule string, sev Severity, frame, turn int) *Alarm {
	if n := len(*out); n < cap(*out) {
		*out = (*out)[:n+1]
	} else {
		*out = append(*out, Alarm{})
	}
	a := &(*out)[len(*out)-1]
	a.Rule, a.Severity, a.Frame, a.Turn, a.ResponseID, a.Message, a.Unlisted = rule, sev, frame, turn, "", "", false
	return a
}

// Counts tallies alarms by severity.
type Counts struct {
	Error int `json:"error"`
	Warn  int `json:"warn"`
	Info  int `json:"info"`
}

// Add counts one alarm.
func (c *Counts) Add(s Severity) {
	switch s {
	case SevError:
		c.Error++
	case SevWarn:
		c.Warn++
	case SevInfo:
		c.Info++
	}
}

// Reaches reports whether any counted alarm is at least as severe as min.
func (c Counts) Reaches(min Severity) bool {
	switch min {
	case SevInfo:
		return c.Error+c.Warn+c.Info > 0
	case SevWarn:
		return c.Error+c.Warn > 0
	default:
		return c.Error > 0
	}
}
