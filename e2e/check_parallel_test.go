package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestCheckManyInputsInOrder: several inputs are checked on a pool of
// workers, yet the output is byte for byte the one-after-another output,
// in argument order, in every format; an unreadable input in the middle
// changes nothing around it.
func TestCheckManyInputsInOrder(t *testing.T) {
	t.Parallel() // reads testdata only: beside the scripts
	inputs := repoGlob(t, "testdata/rules/*.sse")
	if len(inputs) > 40 {
		inputs = inputs[:40]
	}
	inputs = append(inputs[:10], append([]string{"testdata/rules/does-not-exist.sse"}, inputs[10:]...)...)
	for _, format := range []string{"json", "text", "junit", "github"} {
		all := runCLI(t, "", append([]string{"check", "--format", format}, inputs...)...)
		var want strings.Builder
		var outcomes [3]int // clean, failing, unreadable: the text report's total line
		for _, in := range inputs {
			r := runCLI(t, "", "check", "--format", format, in)
			outcomes[min(r.code, 2)]++
			out := r.stdout
			if format == "junit" {
				out = strings.TrimPrefix(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
				out = strings.TrimSuffix(out, "</testsuites>\n")
			}
			want.WriteString(out)
		}
		if format == "text" {
			fmt.Fprintf(&want, "total: %d inputs: %d clean, %d failing, %d unreadable\n", len(inputs), outcomes[0], outcomes[1], outcomes[2])
		}
		got := all.stdout
		if format == "junit" {
			got = strings.TrimPrefix(got, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
			got = strings.TrimSuffix(got, "</testsuites>\n")
		}
		if got != want.String() {
			t.Errorf("%s: the outputs differ (%d vs %d bytes)", format, len(got), len(want.String()))
		}
		if all.code != 2 || !strings.Contains(all.stderr, "does-not-exist.sse") {
			t.Errorf("%s: exit %d, stderr %q", format, all.code, all.stderr)
		}
	}
}
