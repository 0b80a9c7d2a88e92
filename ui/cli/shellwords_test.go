package cli

import (
	"reflect"
	"strings"
	"testing"
)

func TestShellWords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  string // a part of the error, "" = none
	}{
		{"plain", "curl http://x/a -s", []string{"curl", "http://x/a", "-s"}, ""},
		{"runs of blanks", " \t a \t\t b \n", []string{"a", "b"}, ""},
		{"single quotes keep everything", `'a "b" \n $X'`, []string{`a "b" \n $X`}, ""},
		{"empty quotes are a word", `a '' ""`, []string{"a", "", ""}, ""},
		{"quotes join", `a'b'"c"d`, []string{"abcd"}, ""},
		{"double quote escapes", `"a\"b\\c\$d\e"`, []string{`a"b\c$d\e`}, ""},
		{"backslash outside quotes", `a\ b \'c`, []string{"a b", "'c"}, ""},
		{"continuation", "curl 'http://x' \\\n  -H 'A: b' \\\r\n  -d x", []string{"curl", "http://x", "-H", "A: b", "-d", "x"}, ""},
		{"continuation in double quotes", "\"ab\\\ncd\"", []string{"abcd"}, ""},
		{"ansi-c", `$'a\'b\n\t\x41\u00e9\101\\'`, []string{"a'b\n\tAé" + "A\\"}, ""},
		{"ansi-c unicode", `$'\U0001F600 \e[0m'`, []string{"😀 \x1b[0m"}, ""},
		{"ansi-c unknown escape kept", `$'\q\x'`, []string{`\q\x`}, ""},
		{"ansi-c control", `$'\cA'`, []string{"\x01"}, ""},
		{"literal dollar", `'$5' "a $" $`, []string{"$5", "a $", "$"}, ""},
		{"comment", "curl x # the rest\n-s", []string{"curl", "x", "-s"}, ""},
		{"hash inside a word", "a#b", []string{"a#b"}, ""},
		{"unclosed single", "curl 'http://x", nil, "line 1, column 6: the ' quote is never closed"},
		{"unclosed double", "curl\n  \"x", nil, "line 2, column 3: the \" quote is never closed"},
		{"unclosed ansi-c", "$'x", nil, "$' quote is never closed"},
		{"variable", `-H "Authorization: Bearer $TOKEN"`, nil, `"$TOKEN" is expanded by a shell`},
		{"braced variable", `${HOME}/x`, nil, `"${HOME}" is expanded`},
		{"command substitution", `$(cat x)`, nil, `is expanded by a shell`},
		{"backticks", "`date`", nil, "command` substitution"},
		{"pipe", "curl x | jq .", nil, `"|" is shell syntax`},
		{"redirect", "curl x > out", nil, `">" is shell syntax`},
		{"bad code point", `$'\UFFFFFFFF'`, nil, "no Unicode character"},
		// Windows cmd.exe ("Copy as cURL (cmd)").
		{"cmd", "curl ^\"http://x/a?b=1^&c=2^\" ^\r\n  -H ^\"A: b^\" ^\n  --data-raw ^\"^{^\\^\"q^\\^\":1^}^\"",
			[]string{"curl", "http://x/a?b=1&c=2", "-H", "A: b", "--data-raw", `{"q":1}`}, ""},
		{"cmd plain quotes", "curl \"http://x/\" ^\n -d \"a\"\"b\"", []string{"curl", "http://x/", "-d", `a"b`}, ""},
		{"cmd backslashes", "curl ^\n x\\\\y \"a\\\\\\\"b\"", []string{"curl", `x\\y`, `a\"b`}, ""},
		{"cmd pipe", "curl ^\n x | more", nil, `"|" is shell syntax`},
		{"cmd unclosed", "curl ^\n \"x", nil, "never closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := shellWords(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q (words %q)", err, tc.err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// shellQuote writes words as a POSIX shell command line that means them.
func shellQuote(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(" \\\n  ")
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// FuzzShellWords: any input ends in words or an error (never a panic or a
// hang), and any words quoted as a shell would read back as themselves.
func FuzzShellWords(f *testing.F) {
	for _, s := range []string{"curl 'http://x' -H 'A: b'", `$'\x41\u00e9'`, "a\\\nb", "curl ^\"x^\" ^\n -d \"a\"\"b\"", `"$X"`, "# c\nx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shellWords(s) // must return
		// s split on NUL is a list of words; quoted, they read back.
		words := strings.Split(s, "\x00")
		line := shellQuote(words)
		if looksLikeCmd(line) {
			return // a ^" in a word reads as cmd.exe's, as it should
		}
		got, err := shellWords(line)
		if err != nil || !reflect.DeepEqual(got, words) {
			t.Fatalf("%q: got %q, %v; want %q", line, got, err, words)
		}
	})
}
