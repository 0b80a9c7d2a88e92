package ui

import (
	"fmt"
	"strings"

	"framescope/sessions/proxy"
)

// flowQuery is the flow list's filter: words that must all appear
// (case-insensitive) in the flow's method, host, URL, status, kind or
// dialect; host:NAME and dialect:NAME narrow to those fields alone.
type flowQuery struct {
	text     string // as typed
	words    []string
	host     []string
	dialects []string
}

func parseFlowQuery(s string) flowQuery {
	q := flowQuery{text: strings.TrimSpace(s)}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		switch {
		case strings.HasPrefix(w, "host:") && len(w) > 5:
			q.host = append(q.host, w[5:])
		case strings.HasPrefix(w, "dialect:") && len(w) > 8:
			q.dialects = append(q.dialects, w[8:])
		default:
			q.words = append(q.words, w)
		}
	}
	return q
}

func (q *flowQuery) on() bool { return len(q.words)+len(q.host)+len(q.dialects) > 0 }

func (q *flowQuery) match(f *proxy.Flow) bool {
	if !q.on() {
		return true
	}
	host := strings.ToLower(f.Host)
	for _, h := range q.host {
		if !strings.Contains(host, h) {
			return false
		}
	}
	dialect := strings.ToLower(f.Dialect)
	for _, d := range q.dialects {
		if !strings.Contains(dialect, d) {
			return false
		}
	}
	if len(q.words) == 0 {
		return true
	}
	all := strings.ToLower(fmt.Sprintf("%s %s %s %d %s %s", f.Method, f.Host, f.URL, f.Status, f.Kind, f.Dialect))
	for _, w := range q.words {
		if !strings.Contains(all, w) {
			return false
		}
	}
	return true
}
