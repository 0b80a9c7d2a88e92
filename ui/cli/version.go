package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"framescope/sessions"
)

// versionOptions are version's streams.
type versionOptions struct {
	ioStreams
}

// newVersionCmd is `framescope version` (= framescope --version); runF
// (versionRun unless a test gives one) does the work.
func newVersionCmd(env Env, runF func(*versionOptions) error) *cobra.Command {
	o := &versionOptions{ioStreams: env.streams()}
	if runF == nil {
		runF = versionRun
	}
	return &cobra.Command{
		Use:   "version",
		Short: "Print framescope's version (module version or VCS revision of the build)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(o)
		},
	}
}

// versionRun prints the version.
func versionRun(o *versionOptions) error {
	fmt.Fprintf(o.stdout, "framescope version %s\n", sessions.Version)
	return nil
}
