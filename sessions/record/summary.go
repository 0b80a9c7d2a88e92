package record

import (
	"framescope/sessions"
	"framescope/sessions/library"
	"framescope/sessions/report"
)

// Summarize fills a session's Frames, Dialect, Flavor, Turns, Counts and
// End from its check report: what the library lists of a recorded
// session, connect's and the proxy's alike.
func Summarize(meta *library.SessionMeta, rep *report.Report) {
	if meta == nil || rep == nil {
		return
	}
	meta.Frames = rep.Frames
	meta.Dialect = rep.Dialect
	meta.Flavor = rep.Flavor
	meta.Turns = make([]library.TurnSummary, 0, len(rep.Turns))
	for _, t := range rep.Turns {
		ts := library.TurnSummary{ResponseID: t.ResponseID, Done: t.Done}
		if s := t.Terminal.String(); s != "" {
			ts.Terminal = &s
		}
		meta.Turns = append(meta.Turns, ts)
	}
	meta.Counts = rep.Counts
	meta.End = sessions.EndText(rep.End)
}
