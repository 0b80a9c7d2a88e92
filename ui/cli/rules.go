package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"framescope/invariants"
	"framescope/invariants/dialects"
	"framescope/sessions/pipeline"
)

// rulesOptions are rules' streams, argument and flags.
type rulesOptions struct {
	ioStreams
	rule            string // RULE ("": list them)
	hasRule         bool
	dialect, format string
}

// newRulesCmd declares rules' flags; runF (rulesRun unless a test gives
// one) does the work.
func newRulesCmd(env Env, runF func(*rulesOptions) error) *cobra.Command {
	o := &rulesOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = rulesRun
	}
	cmd := &cobra.Command{
		Use:   "rules [RULE]",
		Short: "List the rule catalog, or explain one rule",
		Long: `List the rules framescope checks: PC3's catalog by default, or one dialect's
rules with --dialect NAME (--dialect list names the dialects). With a RULE, explain
it: its severity, its clause, when it fires, which dialects raise it, and a capture
of the repository that fires it.`,
		Example: `  framescope rules
  framescope rules --dialect anthropic-messages
  framescope rules terminal-missing
  framescope rules --format json | jq '.[].name'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.rule, o.hasRule = args[0], true
			}
			return runF(o)
		},
	}
	addDialectFlag(cmd, &o.dialect)
	// Not check's "force the stream's dialect": rules reads no stream.
	cmd.Flags().Lookup("dialect").Usage = "list the rules of the `NAME`d dialect instead of PC3's, or with RULE explain it as that dialect defines it (list: show the dialects)"
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, names (one rule name a line) or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "names", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// rulesRun is rules: the catalog listed, or one rule explained.
func rulesRun(o *rulesOptions) error {
	if o.dialect == "list" {
		return listDialects(o.stdout)
	}
	rules := dialects.Default().Rules()
	var flavors []invariants.Flavor
	if o.dialect != "" {
		if err := resolveDialect(o.dialect); err != nil {
			return err
		}
		d, _ := pipeline.ResolveDialect(o.dialect)
		rules = d.Rules()
		if f, ok := d.(invariants.Flavorer); ok {
			flavors = f.Flavors()
		}
	}
	if o.hasRule {
		return explainRule(o.stdout, o.rule, o.dialect)
	}
	return writeRules(o.stdout, o.format, rules, flavors)
}

// writeRules lists the rules (and the dialect's flavors) in --format.
func writeRules(w io.Writer, format string, rules []invariants.Rule, flavors []invariants.Flavor) error {
	switch format {
	case "text":
		writeRulesTable(w, rules)
		if len(flavors) > 0 {
			fmt.Fprintf(w, "\nProvider flavors (recognised from the stream, or forced with --flavor NAME):\n")
			writeFlavors(w, flavors)
		}
		fmt.Fprintln(w, "\nCLAUSE is where the rule comes from; docs/sources.md links each document and quotes the clauses.")
	case "names":
		for _, r := range rules {
			fmt.Fprintln(w, r.Name)
		}
	case "json":
		type rule struct {
			Name     string `json:"name"`
			Severity string `json:"severity"`
			Clause   string `json:"clause"`
			Summary  string `json:"summary"`
		}
		out := make([]rule, 0, len(rules))
		for _, r := range rules {
			out = append(out, rule{r.Name, string(r.Severity), r.Clause, r.Summary})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	default:
		return fmt.Errorf("--format %q: want text, names or json", format)
	}
	return nil
}

// explainRule says everything framescope knows of one rule: as the given
// dialect defines it (PC3's catalog by default), and which other dialects
// raise it.
func explainRule(w io.Writer, name, dialectName string) error {
	type use struct {
		dialect string
		native  bool
		rule    invariants.Rule
	}
	var uses []use
	for _, d := range dialects.All {
		for _, r := range d.Rules() {
			if r.Name == name {
				uses = append(uses, use{d.Name(), invariants.IsNative(d), r})
			}
		}
	}
	if len(uses) == 0 {
		var names []string
		seen := map[string]bool{}
		for _, d := range dialects.All {
			for _, r := range d.Rules() {
				if !seen[r.Name] && (editDistance(r.Name, name) <= 2 || editDistance(r.Name[:min(len(r.Name), len(name))], name) <= 1) {
					seen[r.Name] = true
					names = append(names, r.Name)
				}
			}
		}
		msg := fmt.Sprintf("no rule %q (framescope rules lists them)", name)
		if len(names) > 0 {
			msg += "; did you mean " + strings.Join(names, ", ") + "?"
		}
		return fmt.Errorf("%s", msg)
	}
	main := uses[0]
	for _, u := range uses {
		if u.dialect == dialectName || (dialectName == "" && u.dialect == dialects.Default().Name()) {
			main = u
		}
	}
	r := main.rule
	// A rule's severity may differ by dialect (seq-gap: warn in go-bus,
	// error in anthropic-messages): each dialect's is listed.
	var in []string
	var sevs []invariants.Severity
	for _, u := range uses {
		in = append(in, fmt.Sprintf("%s (%s)", u.dialect, u.rule.Severity))
		if !slices.Contains(sevs, u.rule.Severity) {
			sevs = append(sevs, u.rule.Severity)
		}
	}
	sev := string(r.Severity)
	if len(sevs) > 1 {
		slices.SortFunc(sevs, func(a, b invariants.Severity) int { return b.Rank() - a.Rank() })
		names := make([]string, len(sevs))
		for i, s := range sevs {
			names[i] = string(s)
		}
		sev = strings.Join(names, " or ") + ", by dialect"
		if dialectName != "" && main.dialect == dialectName {
			sev = fmt.Sprintf("%s in %s (%s)", r.Severity, dialectName, sev)
		}
	}
	fmt.Fprintf(w, "%s — %s\n", r.Name, sev)
	fmt.Fprintf(w, "  fires when: %s\n", r.Summary)
	fmt.Fprintf(w, "  clause:     %s (%s; docs/sources.md#%s says where it comes from)\n", r.Clause, main.dialect, main.dialect)
	fmt.Fprintf(w, "  dialects:   %s\n", strings.Join(in, ", "))
	if main.native {
		fires, ok := ".fires.sse", ".ok.sse"
		if e, has := ruleExampleExt[r.Name]; has {
			fires, ok = e[0], e[1]
		}
		fmt.Fprintf(w, "  example:    testdata/rules/%s%s in the framescope repository (near miss: %s%s); docs/rules.md\n", r.Name, fires, r.Name, ok)
	} else {
		fmt.Fprintf(w, "  example:    testdata/dialects/%s/%s.fires.sse in the framescope repository; docs/dialects/%s.md\n", main.dialect, r.Name, main.dialect)
	}
	return nil
}

// ruleExampleExt names the example captures of testdata/rules that are
// not raw SSE (the fires and near-miss suffixes).
var ruleExampleExt = map[string][2]string{"not-a-stream": {".fires.json", ".ok.ndjson"}}
