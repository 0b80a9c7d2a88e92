package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"framescope/sessions"
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
