package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"framescope/sessions/replay"
)

// suggest returns the names close to a mistyped one: within two edits, or
// starting with it ("anthropic" → "anthropic-messages"), best first and
// at most three, as cobra suggests commands.
func suggest(typed string, names []string) []string {
	typed = strings.ToLower(typed)
	if typed == "" {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, n := range names {
		ln := strings.ToLower(n)
		d := editDistance(ln, typed)
		switch {
		case d <= 2 && d < len(typed):
		case len(typed) >= 3 && strings.HasPrefix(ln, typed):
			d = 3
		case len(typed) >= 4 && editDistance(ln[:min(len(ln), len(typed))], typed) <= 1:
			d = 4
		default:
			continue
		}
		cs = append(cs, cand{n, d})
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	out := make([]string, 0, 3)
	for _, c := range cs {
		if len(out) == 3 {
			break
		}
		if !slices.Contains(out, c.name) {
			out = append(out, c.name)
		}
	}
	return out
}

// didYouMean is "; did you mean X?" (or "X or Y"), "" when nothing is close.
func didYouMean(typed string, names []string, prefix string) string {
	s := suggest(typed, names)
	if len(s) == 0 {
		return ""
	}
	for i := range s {
		s[i] = prefix + s[i]
	}
	return "; did you mean " + strings.Join(s, " or ") + "?"
}

// editDistance is the Levenshtein distance of two short names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// unknownFlag matches pflag's "unknown flag: --name" message.
var unknownFlag = regexp.MustCompile(`^unknown flag: --([^\s=]+)`)

// flagSuggestion is the "did you mean" for pflag's unknown-flag error, ""
// for any other error.
func flagSuggestion(cmd *cobra.Command, err error) string {
	m := unknownFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	return didYouMean(m[1], names, "--")
}

// checkScenario refuses an unknown scenario name before anything starts,
// with the closest names.
func checkScenario(name string) error {
	names := replay.ScenarioNames()
	if slices.Contains(names, name) {
		return nil
	}
	if s := didYouMean(name, names, ""); s != "" {
		return fmt.Errorf("unknown scenario %q%s (framescope serve --scenarios lists them)", name, s)
	}
	return errors.New("unknown scenario " + fmt.Sprintf("%q", name) + " (known: " + strings.Join(names, ", ") + ")")
}
