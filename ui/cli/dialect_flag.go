package cli

import (
	"fmt"

	"framescope/decode"
	"framescope/invariants/dialects"
	"framescope/sessions/pipeline"
)

// resolveDialect checks a --dialect value ("" detects) for every command
// that takes one: an unknown name gets the closest names, as demo's
// scenarios do (suggest.go): --dialect anthropic → anthropic-messages.
func resolveDialect(name string) error {
	_, err := pipeline.ResolveDialect(name)
	if err == nil {
		return nil
	}
	if s := didYouMean(name, dialects.Names(), ""); s != "" {
		return fmt.Errorf("unknown dialect %q%s (framescope check --dialect list shows them)", decode.Sanitize(name), s)
	}
	return err
}
