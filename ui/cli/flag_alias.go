package cli

import "github.com/spf13/pflag"

// aliasFlag lets a command take another command's name for one of its
// flags: serve says --addr and proxy --listen for the same thing, and a
// user who learned one types it to the other. The alias is read as the
// flag itself (Changed, errors and help name the real one).
func aliasFlag(f *pflag.FlagSet, alias, name string) {
	prev := f.GetNormalizeFunc()
	f.SetNormalizeFunc(func(fs *pflag.FlagSet, n string) pflag.NormalizedName {
		if n == alias {
			n = name
		}
		return prev(fs, n)
	})
}
