package cli

import (
	"fmt"
	"regexp"
	"strings"

	"framescope/decode"
	"framescope/sessions"
	"framescope/sessions/capture"
)

// A HAR is reported entry by entry, each as FILE#N where N is the entry's
// place in the HAR (log.entries[N], every entry counted, SSE or not), the
// number --entry takes too; --entry-url picks entries by their URL.

// entryURLPattern is --entry-url's PATTERN: it matches a URL that holds
// it, * standing for any run of characters (/ included).
func entryURLPattern(pattern string) *regexp.Regexp {
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, ".*"))
}

// harInputs expands the input in (one argument, opened) into its reports:
// each SSE entry of a HAR (FILE#N), those whose URL matches --entry-url,
// or the input as given (--entry picks one; not a HAR; one SSE entry).
func harInputs(in checkInput, entry int, entryURL string) []checkInput {
	es := in.src.Entries()
	if entryURL == "" {
		if entry != -1 || len(es) < 2 {
			return []checkInput{in}
		}
		return entryInputs(in, es)
	}
	if es == nil {
		in.err = fmt.Errorf("%w; --entry-url picks entries of a HAR", in.src.NotHAR())
		return []checkInput{in}
	}
	re := entryURLPattern(entryURL)
	var picked []capture.HAREntry
	for _, e := range es {
		if re.MatchString(e.URL) {
			picked = append(picked, e)
		}
	}
	if len(picked) == 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: no SSE entry's URL matches --entry-url %s; the HAR's SSE entries are:", sessions.Clean(in.name), decode.Sanitize(entryURL))
		for _, e := range es {
			b.WriteString("\n  " + e.String())
		}
		in.err = fmt.Errorf("%s", b.String())
		return []checkInput{in}
	}
	return entryInputs(in, picked)
}

// entryInputs is one input per entry, named FILE#N.
func entryInputs(in checkInput, es []capture.HAREntry) []checkInput {
	out := make([]checkInput, 0, len(es))
	for _, e := range es {
		out = append(out, checkInput{name: fmt.Sprintf("%s#%d", in.name, e.Position), path: in.path, entry: e.Position, src: in.src})
	}
	return out
}
