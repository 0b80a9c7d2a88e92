package codings

import (
	"fmt"
	"strings"
)

// Max is how many content codings a body may stack (curl's limit,
// CVE-2022-32206): each layer is a decoder of its own (~35 KB for
// deflate), and 50,000 of them ran out of memory, 4,000 br layers over
// garbage never ended. A body with more is refused from its header.
const Max = 5

// Accept is the Accept-Encoding --compressed sends: the codings
// framescope decodes.
const Accept = "gzip, deflate, br"

// Decodable reports whether framescope decodes a content coding (lower
// case, as Parse returns it).
func Decodable(coding string) bool {
	switch coding {
	case "gzip", "x-gzip", "deflate", "br":
		return true
	}
	return false
}

// Name is a coding as its decoder and messages call it: x-gzip is gzip.
func Name(coding string) string { return strings.TrimPrefix(coding, "x-") }

// Parse lists the content codings applied to a body, in the order they
// were applied (identity dropped, lower case): at most limit of them, and
// how many there are in all (counted without allocating one string per
// coding: a header can stack 50,000).
func Parse(values []string, limit int) ([]string, int) {
	var out []string
	n := 0
	for _, v := range values {
		for rest := v; rest != ""; {
			var c string
			c, rest, _ = strings.Cut(rest, ",")
			c = strings.TrimSpace(c)
			if c == "" || strings.EqualFold(c, "identity") {
				continue
			}
			if n++; n <= limit {
				out = append(out, strings.ToLower(c))
			}
		}
	}
	return out, n
}

// TooMany is the refusal of a body whose Content-Encoding stacks n codings,
// more than Max.
func TooMany(n int) error {
	return fmt.Errorf("the response's Content-Encoding stacks %d codings: framescope decodes at most %d (as curl does); the body is not decoded", n, Max)
}
