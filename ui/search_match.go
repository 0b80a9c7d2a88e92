package ui

import (
	"regexp"
	"strings"
)

// regexPrefix marks a search query as a regular expression: "re:PATTERN".
// Anything else is a plain substring, so that the common search (a tool id,
// an error code, a bit of JSON with brackets in it) needs no escaping.
const regexPrefix = "re:"

// matcher is a confirmed search: a smart-case substring (all lower case
// finds any case) or a regular expression (smart case too: a pattern with
// no upper-case letter matches case-insensitively).
type matcher struct {
	sub string
	re  *regexp.Regexp
}

// newMatcher compiles a query ("" matches nothing and highlights nothing).
func newMatcher(q string) (matcher, error) {
	pat, ok := strings.CutPrefix(q, regexPrefix)
	if !ok {
		return matcher{sub: q}, nil
	}
	if pat == "" {
		return matcher{}, errEmptyPattern
	}
	if !hasUpper(pat) {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return matcher{}, err
	}
	return matcher{re: re}, nil
}

type patternError string

func (e patternError) Error() string { return string(e) }

const errEmptyPattern = patternError("empty regular expression after re:")

func (m matcher) empty() bool { return m.re == nil && m.sub == "" }

// find returns the first match in s as [i, j) (-1, -1 when none). Empty
// regex matches are skipped: they would highlight nothing.
func (m matcher) find(s string) (int, int) {
	if m.re != nil {
		for _, loc := range m.re.FindAllStringIndex(s, -1) {
			if loc[1] > loc[0] {
				return loc[0], loc[1]
			}
		}
		return -1, -1
	}
	if m.sub == "" {
		return -1, -1
	}
	i := indexFold(s, m.sub)
	if i < 0 {
		return -1, -1
	}
	return i, i + len(m.sub)
}

// matchBytes reports whether b holds a match.
func (m matcher) matchBytes(b []byte) bool {
	if m.re != nil {
		return m.re.Match(b)
	}
	return m.sub != "" && containsFold(b, m.sub)
}

// matchString reports whether s holds a match.
func (m matcher) matchString(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	return m.sub != "" && indexFold(s, m.sub) >= 0
}
