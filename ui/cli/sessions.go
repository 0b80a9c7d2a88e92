package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions/library"
	"framescope/sessions/live"
)

// emptyLibraryText is what `framescope sessions` says for an empty library.
const emptyLibraryText = "no saved sessions yet — framescope demo or framescope connect URL saves one\n"

// sessionsOptions are the streams and flags of sessions (the listing).
type sessionsOptions struct {
	ioStreams
	format string
}

// newSessionsCmd declares sessions' flags and its subcommands; runF
// (sessionsRun unless a test gives one) does the work.
func newSessionsCmd(env Env, runF func(*sessionsOptions) error) *cobra.Command {
	o := &sessionsOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = sessionsRun
	}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List saved live sessions, newest first (open one with @ID or @last)",
		Long: `List the session library: every connect, record and demo run is saved there
unless --no-save. A demo is listed by its scenario ("demo happy"). The library lives
in $` + library.DataDirEnv + `/sessions when that is set, else the user's data directory.

Size cap: when a session is saved, the oldest sessions are removed until the library
is at most $` + library.LibraryMaxEnv + ` (default 500 MB; a size such as 2GB or 800MiB;
0 = no cap); the session just saved is never removed, and a note on stderr names what
went. framescope sessions prune removes sessions by count or age.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "table", "output format: table or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"table", "json"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.AddCommand(newSessionsRmCmd(env, nil), newSessionsPruneCmd(env, nil))
	return cmd
}

// sessionsRun lists the session library.
func sessionsRun(o *sessionsOptions) error {
	if o.format != "table" && o.format != "json" {
		return fmt.Errorf("--format %q: want table or json", o.format)
	}
	lib, err := library.DefaultLibrary()
	if err != nil {
		return err
	}
	list, err := lib.List()
	if err != nil {
		return err
	}
	if o.format == "json" {
		return library.WriteSessionJSON(o.stdout, list)
	}
	if len(list) == 0 {
		_, err := io.WriteString(o.stdout, emptyLibraryText)
		return err
	}
	return library.WriteSessionTable(o.stdout, list)
}

// rmOptions are the streams and arguments of sessions rm.
type rmOptions struct {
	ioStreams
	refs []string // REF...
}

// newSessionsRmCmd is sessions rm; runF (sessionsRmRun unless a test
// gives one) does the work.
func newSessionsRmCmd(env Env, runF func(*rmOptions) error) *cobra.Command {
	o := &rmOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = sessionsRmRun
	}
	return &cobra.Command{
		Use:   "rm REF...",
		Short: "Remove saved sessions (capture and metadata): @last, @ID or a unique ID prefix",
		Long: `Remove saved sessions. Each REF is what check @REF takes: @last (the newest), a
session ID or a unique prefix of one, with or without the @. Every REF is resolved
before anything is removed: an unknown or ambiguous one (its candidates are listed)
removes nothing.`,
		Example: `  framescope sessions rm @last
  framescope sessions rm 20261122-0215 @20261121-183000-3f9a`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.refs = args
			return runF(o)
		},
		ValidArgsFunction: completeSessionIDs(false),
	}
}

// sessionsRmRun removes the sessions, once every REF is resolved.
func sessionsRmRun(o *rmOptions) error {
	lib, err := library.DefaultLibrary()
	if err != nil {
		return err
	}
	found, err := lib.FindAll(o.refs)
	if err != nil {
		return fmt.Errorf("%w\nnothing removed", err)
	}
	for _, m := range found {
		if err := lib.Remove(m.ID); err != nil {
			return err
		}
		fmt.Fprintf(o.stdout, "removed %s  %s\n", decode.Sanitize(m.ID), decode.Sanitize(m.Label()))
	}
	return nil
}

// pruneOptions are the streams and flags of sessions prune.
type pruneOptions struct {
	ioStreams
	changed   func(flag string) bool // the flag was given
	keep      int
	olderThan string
	dryRun    bool
}

// newSessionsPruneCmd declares sessions prune's flags; runF
// (sessionsPruneRun unless a test gives one) does the work.
func newSessionsPruneCmd(env Env, runF func(*pruneOptions) error) *cobra.Command {
	o := &pruneOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = sessionsPruneRun
	}
	cmd := &cobra.Command{
		Use:   "prune [--keep N] [--older-than AGE] [--dry-run]",
		Short: "Remove old sessions: all but the N newest, or those older than AGE",
		Long: `Remove sessions from the library, oldest first, and say which and the space freed.
--keep N keeps the N newest; --older-than AGE removes those that started longer ago
than AGE (7d, 24h, 90m, 1d12h; a bare number is days). With both, a session goes when
it is older than AGE and not among the N newest. A session still recording is never
removed. --dry-run says what would go and removes nothing.`,
		Example: `  framescope sessions prune --keep 20
  framescope sessions prune --older-than 7d --dry-run`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.keep, "keep", 0, "keep the `N` newest sessions, remove the rest")
	f.StringVar(&o.olderThan, "older-than", "", "remove sessions older than `AGE`: 7d, 24h, 90m (a bare number is days)")
	f.BoolVar(&o.dryRun, "dry-run", false, "say what would be removed, remove nothing")
	return cmd
}

// sessionsPruneRun removes the sessions --keep and --older-than select
// (with --dry-run, says which it would).
func sessionsPruneRun(o *pruneOptions) error {
	opts := library.PruneOptions{Keep: -1, DryRun: o.dryRun}
	if o.changed("keep") {
		if o.keep < 0 {
			return fmt.Errorf("--keep %d: want how many of the newest sessions to keep (0 or more)", o.keep)
		}
		opts.Keep = o.keep
	}
	if o.changed("older-than") {
		d, err := library.ParseAge(o.olderThan)
		if err != nil {
			return fmt.Errorf("--older-than %w", err)
		}
		opts.OlderThan = d
	}
	if opts.Keep < 0 && opts.OlderThan == 0 {
		return errors.New("give --keep N, --older-than AGE or both (see --help)")
	}
	lib, err := library.DefaultLibrary()
	if err != nil {
		return err
	}
	res, err := lib.Prune(opts)
	writePruned(o.stdout, res, o.dryRun)
	return err
}

// writePruned says which sessions prune removed (or would remove) and the
// space freed.
func writePruned(w io.Writer, res library.PruneResult, dryRun bool) {
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	for _, p := range res.Removed {
		fmt.Fprintf(w, "%s %s  %s  %s\n", verb, decode.Sanitize(p.Meta.ID),
			library.SizeText(p.Size), decode.Sanitize(p.Meta.Label()))
	}
	freed := "freed"
	if dryRun {
		freed = "would free"
	}
	if len(res.Removed) == 0 {
		fmt.Fprintf(w, "nothing to remove; %s left (%s)\n", plural(res.Left, "session"), library.SizeText(res.LeftBytes))
	} else {
		fmt.Fprintf(w, "%s %s in %s; %s left (%s)\n", freed, library.SizeText(res.Freed),
			plural(len(res.Removed), "session"), plural(res.Left, "session"), library.SizeText(res.LeftBytes))
	}
}

func plural(n int, what string) string { return invariants.Plural(n, what) }

// printPruneNote says on stderr which sessions the library's size cap
// removed after a session was saved (or why it could not).
func printPruneNote(stderr io.Writer, res *live.LiveResult) {
	if res == nil {
		return
	}
	if res.PruneErr != nil {
		fmt.Fprintln(stderr, "framescope:", decode.Sanitize(res.PruneErr.Error()))
	}
	p := res.Pruned
	if len(p.Removed) == 0 {
		return
	}
	names := make([]string, 0, 3)
	for i, r := range p.Removed {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(p.Removed)-3))
			break
		}
		names = append(names, decode.Sanitize(r.Meta.ID)+" ("+decode.Sanitize(r.Meta.Label())+")")
	}
	fmt.Fprintf(stderr, "session library over its size cap (%s=%s): removed the oldest %s, %s freed: %s\n",
		library.LibraryMaxEnv, libraryMaxText(), plural(len(p.Removed), "session"), library.SizeText(p.Freed), strings.Join(names, ", "))
}

func libraryMaxText() string {
	n, err := library.LibraryMax(os.Getenv)
	if err != nil {
		return "?"
	}
	return library.SizeText(n)
}

// completeSessionIDs completes saved session references: @ID and @last
// for a word that starts with "@" (else files, when files are allowed);
// bare IDs too for sessions rm.
func completeSessionIDs(files bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		at := strings.HasPrefix(toComplete, "@")
		if files && !at {
			return nil, cobra.ShellCompDirectiveDefault
		}
		lib, err := library.DefaultLibrary()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ids, descs := lib.SessionIDs()
		prefix := ""
		if at || files {
			prefix = "@"
		}
		out := make([]cobra.Completion, 0, len(ids)+1)
		if len(ids) > 0 && strings.HasPrefix(prefix+"last", toComplete) {
			out = append(out, cobra.CompletionWithDesc(prefix+"last", "the newest session"))
		}
		for i, id := range ids {
			if strings.HasPrefix(prefix+id, toComplete) {
				out = append(out, cobra.CompletionWithDesc(prefix+id, decode.Sanitize(descs[i])))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
