package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// newCompletionCmd is cobra's completion command, with one change for
// bash: cobra's script calls _get_comp_words_by_ref, a function of the
// bash-completion package that a stock bash (a minimal container, macOS
// without Homebrew's bash-completion) does not have — there every TAB
// printed "command not found". The script framescope prints defines a
// stand-in first when the package is absent; with the package, its own
// function is used.
//
// It declares the command; runF (completionRun unless a test gives one)
// does the work.
func newCompletionCmd(root *cobra.Command, env Env, runF func(*completionOptions) error) *cobra.Command {
	o := &completionOptions{ioStreams: env.streams(), root: root}
	if runF == nil {
		runF = completionRun
	}
	cmd := &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print the shell completion script for bash, zsh, fish or powershell",
		Long: `Print the shell completion script. Commands, flags, dialects, scenarios,
session ids (@ID) and capture files complete.

  bash:        source <(framescope completion bash)         # a stock bash is enough
               (for every shell: framescope completion bash > ~/.local/share/bash-completion/completions/framescope)
  zsh:         framescope completion zsh > "${fpath[1]}/_framescope"   (compinit must be on)
  fish:        framescope completion fish > ~/.config/fish/completions/framescope.fish
  powershell:  framescope completion powershell | Out-String | Invoke-Expression`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.shell = args[0]
			return runF(o)
		},
	}
	return cmd
}

// completionOptions are completion's streams, the tree it completes and
// the shell.
type completionOptions struct {
	ioStreams
	root  *cobra.Command
	shell string // bash, zsh, fish or powershell
}

// completionRun prints the shell's completion script.
func completionRun(o *completionOptions) error {
	switch o.shell {
	case "bash":
		if _, err := io.WriteString(o.stdout, bashCompletionShim); err != nil {
			return err
		}
		return o.root.GenBashCompletionV2(o.stdout, true)
	case "zsh":
		return o.root.GenZshCompletion(o.stdout)
	case "fish":
		return o.root.GenFishCompletion(o.stdout, true)
	case "powershell":
		return o.root.GenPowerShellCompletionWithDesc(o.stdout)
	}
	return &unknownShellError{o.shell}
}

type unknownShellError struct{ shell string }

func (e *unknownShellError) Error() string {
	return "no completion for shell " + quoteArg(e.shell) + ": want bash, zsh, fish or powershell"
}

// bashCompletionShim stands in for bash-completion's _get_comp_words_by_ref
// when that package is not loaded. It splits the line up to the cursor on
// blanks only, so --format=json and host:port stay one word (what the
// package's -n =: asks for); quotes are not interpreted.
const bashCompletionShim = `# framescope: without the bash-completion package a stock bash has no
# _get_comp_words_by_ref, which the script below calls: a stand-in.
if ! declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
_get_comp_words_by_ref() {
    while [[ $# -gt 0 && $1 == -* ]]; do
        [[ $1 == -n ]] && shift
        shift
    done
    local __line=${COMP_LINE:0:COMP_POINT} __words __v
    read -ra __words <<< "$__line"
    [[ -z $__line || $__line == *[[:space:]] ]] && __words+=("")
    local __cword=$(( ${#__words[@]} - 1 ))
    for __v in "$@"; do
        case $__v in
            cur) cur=${__words[__cword]} ;;
            prev) prev=${__words[__cword-1]} ;;
            words) words=("${__words[@]}") ;;
            cword) cword=$__cword ;;
        esac
    done
}
fi

`
