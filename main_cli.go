package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"framescope/decode"
	"framescope/invariants"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
	"framescope/ui"
)

// newVersionCmd is `framescope version` (= framescope --version).
func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print framescope's version (module version or VCS revision of the build)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(stdout, "framescope version %s\n", sessions.Version)
			return nil
		},
	}
}

// shorthandArgs turns the shorthands `framescope URL [flags]` and
// `framescope FILE|-|@ID [flags]` into `connect URL [flags]` and
// `open FILE [flags]`, so they take exactly the flags of those commands.
// A first word that names a command, or a flag, is left alone.
func shorthandArgs(root *cobra.Command, args []string) []string {
	if len(args) == 0 {
		return args
	}
	arg := args[0]
	if arg != "-" && strings.HasPrefix(arg, "-") {
		return args
	}
	for _, c := range root.Commands() {
		if c.Name() == arg || c.HasAlias(arg) {
			return args
		}
	}
	switch {
	case isURLArg(arg):
		return append([]string{"connect"}, args...)
	case arg == "-" || strings.HasPrefix(arg, "@"):
		return append([]string{"open"}, args...)
	}
	if _, err := os.Stat(arg); err == nil {
		return append([]string{"open"}, args...)
	}
	return args
}

// isURLArg: an http(s) URL, or one without a scheme that starts with a
// host and port (localhost:8080/api/chat, 127.0.0.1:8080/x) or localhost.
func isURLArg(arg string) bool {
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		return true
	}
	return schemelessHost(arg)
}

// schemelessHost reports whether arg is HOST:PORT[/…] or localhost[/…]
// with no scheme, and is not an existing file.
func schemelessHost(arg string) bool {
	if strings.Contains(arg, "://") {
		return false
	}
	hostport, _, _ := strings.Cut(arg, "/")
	if hostport == "localhost" {
		_, err := os.Stat(arg)
		return err != nil
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || host == "" || port == "" {
		return false
	}
	for _, r := range port {
		if r < '0' || r > '9' {
			return false
		}
	}
	_, err = os.Stat(arg)
	return err != nil
}

// normalizeURL gives a URL without a scheme http://, as curl does.
func normalizeURL(u string) string {
	if schemelessHost(u) {
		return "http://" + u
	}
	return u
}

// unknownArg explains a first argument that is no command, file or URL:
// a mistyped command gets "did you mean", a path says it does not exist.
func unknownArg(cmd *cobra.Command, arg string) error {
	clean := decode.Sanitize(arg)
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // as cobra does for its own "unknown command"
	}
	if sugg := cmd.SuggestionsFor(arg); len(sugg) > 0 {
		return fmt.Errorf("unknown command %q\n\nDid you mean this?\n    %s\n\n(see framescope --help)", clean, strings.Join(sugg, "\n    "))
	}
	if strings.ContainsAny(arg, `/\`) || filepath.Ext(arg) != "" {
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file", clean)
		}
	}
	return fmt.Errorf("unknown command or file %q: no command of that name and no such file (see framescope --help)", clean)
}

// openOrDump runs the inspector on a capture; when stdout is not a
// terminal it prints the frames as `framescope dump` does instead (a TUI
// written into a file or a pipe would show nothing).
func openOrDump(name string, stdin io.Reader, stdout, stderr io.Writer, entry int, opts invariants.Options) error {
	if ui.IsTerminal(stdout) {
		return openTUI(name, stdin, entry, opts)
	}
	c, err := capture.Open(name, capture.OpenOptions{Entry: entry, EntryGiven: entry != -1, Stdin: stdin})
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintln(stderr, "framescope: stdout is not a terminal: printing the frames as `framescope dump` does (framescope check for the report)")
	res, err := pipeline.Dump(c, stdout, false, opts.Dialect)
	if err != nil {
		fmt.Fprintf(stderr, "framescope: %s: read error: %s\n", decode.Sanitize(name), decode.Sanitize(err.Error()))
		return exitError{2}
	}
	if res != nil && res.Counts.Reaches(invariants.SevError) {
		return exitError{1} // the inspector's rule: an error alarm is exit 1
	}
	return nil
}

// checkInput is one report of check: a capture, or one SSE entry of a HAR.
type checkInput struct {
	name  string // as reported: FILE, or FILE#N for entry N of a HAR
	path  string // as opened
	entry int    // -1: not chosen
}

// checkInputs expands each HAR of several SSE entries into one input per
// entry (FILE#0, FILE#1, …), unless --entry picks one. Stdin and library
// sessions are read once, as given.
func checkInputs(args []string, stdin io.Reader, entry int) []checkInput {
	var out []checkInput
	for _, a := range args {
		in := checkInput{name: a, path: a, entry: entry}
		if entry != -1 || a == "-" || strings.HasPrefix(a, "@") {
			out = append(out, in)
			continue
		}
		es, err := capture.HAREntries(a, capture.OpenOptions{Stdin: stdin})
		if err != nil || len(es) < 2 {
			out = append(out, in) // not a HAR, or one entry: as before
			continue
		}
		for _, e := range es {
			out = append(out, checkInput{name: fmt.Sprintf("%s#%d", a, e.Index), path: a, entry: e.Index})
		}
	}
	return out
}

// strconvDetail matches the Go parse error pflag wraps for a number flag
// (`strconv.ParseInt: parsing "x": invalid syntax`).
var strconvDetail = regexp.MustCompile(`strconv\.Parse(Int|Uint|Float|Bool): parsing "[^"]*": (invalid syntax|value out of range)`)

// plainFlagError says what a flag wants instead of Go's parse error, and
// points at the command's help.
func plainFlagError(cmd *cobra.Command, err error) error {
	msg := strconvDetail.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := strconvDetail.FindStringSubmatch(m)
		switch {
		case sub[2] == "value out of range":
			return "the number is out of range"
		case sub[1] == "Float":
			return "want a number"
		case sub[1] == "Bool":
			return "want true or false"
		}
		return "want a whole number"
	})
	return fmt.Errorf("%s (see %s --help)", msg, cmd.CommandPath())
}
