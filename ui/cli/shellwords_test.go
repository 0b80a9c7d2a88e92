package cli

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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
		// Issue 24 item 2: a ^" inside bash's quotes is text, not cmd.exe's
		// quoting. Read with cmd.exe's rules this would send -d @SECRETFILE.
		{"hostile bash", `curl http://127.0.0.1:1/echo -H 'X:^"^"' --data-raw '"x" -d @SECRETFILE -H "Y:' -H 'Z:"'`,
			[]string{"curl", "http://127.0.0.1:1/echo", "-H", `X:^"^"`, "--data-raw", `"x" -d @SECRETFILE -H "Y:`, "-H", `Z:"`}, ""},
		{"caret quote in a bash body", `curl http://x/a --data-raw '{"re":"^"}'`,
			[]string{"curl", "http://x/a", "--data-raw", `{"re":"^"}`}, ""},
		{"caret quote in a bash body, continued", "curl 'http://x/a' \\\n  -H 'content-type: application/json' \\\n  --data-raw '{\"re\":\"^\"}'",
			[]string{"curl", "http://x/a", "-H", "content-type: application/json", "--data-raw", `{"re":"^"}`}, ""},
		{"caret quote in ansi-c", `curl http://x --data-raw $'{"re":"^\\"", "s":"it\'s"}'`,
			[]string{"curl", "http://x", "--data-raw", `{"re":"^\"", "s":"it's"}`}, ""},
		{"real chrome bash", chromeBashCopy, chromeBashWords, ""},
		{"real chrome cmd", chromeCmdCopy, chromeCmdWords, ""},
		{"real chrome cmd, CR LF", strings.ReplaceAll(chromeCmdCopy, "\n", "\r\n"), chromeCmdWords, ""},
		{"chrome cmd, one line", `curl ^"http://x/a?b=1^&c=2^"`, []string{"curl", "http://x/a?b=1&c=2"}, ""},
		{"chrome cmd, no curl", `^"http://x/a^" -H ^"A: ^\^"b^\^"^"`, []string{"http://x/a", "-H", `A: "b"`}, ""},
		{"cmd continuation, bash quotes elsewhere", "curl \"http://x/\" ^\n -H \"X: it's\" ^\n -d \"o'k\"",
			[]string{"curl", "http://x/", "-H", "X: it's", "-d", "o'k"}, ""},
		// Both readings fit and differ: refused, both shown.
		{"caret continuation inside bash quotes", hostileBoth,
			nil, `as bash:    "curl" "http://x" "-H" "X:^\"^\"" "--data-raw" "\"x\" -d @SECRETFILE -H \"Y:" "-H" "Z:\"" "-d" "a^\nb"`},
		{"caret continuation inside bash quotes, cmd side", hostileBoth, nil, `"'x" "-d" "@SECRETFILE" "-H"`},
		{"bare caret quote mid-line", `curl "http://x/" -H ^"A: b^"`, nil, "they differ from word 4 on"},
		{"caret continuation in a bash comment", "curl http://x # note ^\n -d @f", nil, "as cmd.exe:"},
		{"both readings, bash refuses", "curl http://x -H \"A: $T\" -d 'x^\n'", nil, `(does not read: line 1, column 22: "$T" is expanded`},
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

// hostileBoth is the hostile command with a ^ line end inside bash's
// quotes: both readings apply, cmd.exe's would read SECRETFILE.
const hostileBoth = "curl http://x -H 'X:^\"^\"' --data-raw '\"x\" -d @SECRETFILE -H \"Y:' -H 'Z:\"' -d 'a^\nb'"

// chromeBashCopy and chromeCmdCopy are one request as Chrome's DevTools
// "Copy as cURL (bash)" and "(cmd)" write it (generateCurlCommand in
// devtools-frontend's NetworkLogView.ts): bash quotes '…', or $'…' with
// \uXXXX when the text has a control character, ! or '; cmd quotes every
// argument ^"…^" with \ doubled, " as \", every other character but
// [A-Za-z0-9\s_\-:=+~'/.,?;()*`] ^-escaped, % before a name character as
// %^, a line break as ^ and two line breaks; both join with " \" or " ^"
// line ends once there are 3 parts.
const (
	chromeBashCopy = `curl 'http://127.0.0.1:8080/api/chat?x=1&y=2' \
  -H 'accept: text/event-stream' \
  -H 'content-type: application/json' \
  -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' \
  --data-raw $'{"messages":[{"role":"user","content":"50% off? it\'s \\"hi\\"\\n^\u0021"}],"re":"^\\"^"}' \
  --compressed`
	chromeCmdCopy = `curl ^"http://127.0.0.1:8080/api/chat?x=1^&y=2^" ^
  -H ^"accept: text/event-stream^" ^
  -H ^"content-type: application/json^" ^
  -H ^"user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36^" ^
  --data-raw ^"^{^\^"messages^\^":^[^{^\^"role^\^":^\^"user^\^",^\^"content^\^":^\^"50^% off? it's ^\^\^\^"hi^\^\^\^"^\^\n^^^!^\^"^}^],^\^"re^\^":^\^"^^^\^\^\^"^^^\^"^}^" ^
  --compressed`
	chromeBody = `{"messages":[{"role":"user","content":"50% off? it's \"hi\"\n^!"}],"re":"^\"^"}`
)

var (
	chromeBashWords = []string{"curl", "http://127.0.0.1:8080/api/chat?x=1&y=2", "-H", "accept: text/event-stream",
		"-H", "content-type: application/json",
		"-H", "user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
		"--data-raw", chromeBody, "--compressed"}
	// Chrome's cmd quoting doubles every backslash, but the C runtime halves
	// only a run before a quote: on Windows, curl.exe gets the JSON escape
	// \n as \\n, and framescope reads the copy as Windows would.
	chromeCmdWords = []string{"curl", "http://127.0.0.1:8080/api/chat?x=1&y=2", "-H", "accept: text/event-stream",
		"-H", "content-type: application/json",
		"-H", "user-agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
		"--data-raw", strings.Replace(chromeBody, `\n`, `\\n`, 1), "--compressed"}
)

// chromeCmdQuote quotes w as Chrome's "Copy as cURL (cmd)" does.
func chromeCmdQuote(w string) string {
	var b strings.Builder
	b.WriteString(`^"`)
	w = strings.ReplaceAll(w, `\`, `\\`)
	w = strings.ReplaceAll(w, `"`, `\"`)
	for i, r := range w {
		safe := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune(" \t\n\v\f\r_-:=+~'/.,?;()*`", r)) || unicode.IsSpace(r)
		if !safe {
			b.WriteByte('^')
		}
		b.WriteRune(r)
		if r == '%' && i+1 < len(w) && (w[i+1] == '_' || w[i+1] < utf8.RuneSelf && (unicode.IsLetter(rune(w[i+1])) || unicode.IsDigit(rune(w[i+1])))) {
			b.WriteByte('^')
		}
	}
	b.WriteString(`^"`)
	return strings.ReplaceAll(b.String(), "\n", "^\n\n")
}

// chromeBashQuote quotes w as Chrome's "Copy as cURL (bash)" does.
func chromeBashQuote(w string) string {
	special := func(r rune) bool { return r <= 0x1f || r >= 0x7f && r <= 0x9f || r == '!' }
	if !strings.ContainsFunc(w, special) && !strings.Contains(w, "'") {
		return "'" + w + "'"
	}
	w = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`).Replace(w)
	var b strings.Builder
	for _, r := range w {
		if special(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return "$'" + b.String() + "'"
}

// chromeCommand joins quoted words as Chrome does: curl, then the parts,
// on lines ending " ^" (cmd) or " \" (bash) once there are 3 parts.
func chromeCommand(words []string, quote func(string) string, cont string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = quote(w)
	}
	sep := " "
	if len(parts) >= 3 {
		sep = cont + "\n  "
	}
	return "curl " + strings.Join(parts, sep)
}

// TestChromeQuoters: the test's quoters write the real copies above.
func TestChromeQuoters(t *testing.T) {
	// The request Chrome copied: chromeCmdWords' user agent, chromeBody.
	cmdReq := slices.Clone(chromeCmdWords)
	cmdReq[len(cmdReq)-2] = chromeBody
	b := []string{chromeBashQuote(chromeBashWords[1])}
	c := []string{chromeCmdQuote(cmdReq[1])}
	for i := 2; i < len(cmdReq); i++ {
		if w := cmdReq[i]; w == "--compressed" {
			b, c = append(b, w), append(c, w)
		} else {
			b = append(b, w+" "+chromeBashQuote(chromeBashWords[i+1]))
			c = append(c, w+" "+chromeCmdQuote(cmdReq[i+1]))
			i++
		}
	}
	if got := "curl " + strings.Join(b, " \\\n  "); got != chromeBashCopy {
		t.Errorf("bash quoter:\n%s\nwant\n%s", got, chromeBashCopy)
	}
	if got := "curl " + strings.Join(c, " ^\n  "); got != chromeCmdCopy {
		t.Errorf("cmd quoter:\n%s\nwant\n%s", got, chromeCmdCopy)
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
// hang); any words quoted as a shell would read back as themselves or are
// refused (when a ^ line end inside them makes cmd.exe's reading apply
// too), never read as something else; Chrome's bash and cmd copies of any
// words read back as those words.
func FuzzShellWords(f *testing.F) {
	for _, s := range []string{"curl 'http://x' -H 'A: b'", `$'\x41\u00e9'`, "a\\\nb", "curl ^\"x^\" ^\n -d \"a\"\"b\"", `"$X"`, "# c\nx",
		"x\x00-d\x00a^\nb", `{"re":"^"}`, "a\x00b\"c\x00%PATH%\x00\\\"x\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shellWords(s) // must return
		// s split on NUL is a list of words; quoted, they read back.
		words := strings.Split(s, "\x00")
		line := shellQuote(words)
		got, err := shellWords(line)
		var two *twoReadingsError
		if err != nil && !(errors.As(err, &two) && strings.Contains(s, "^")) || err == nil && !reflect.DeepEqual(got, words) {
			t.Fatalf("%q: got %q, %v; want %q", line, got, err, words)
		}
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\r") {
			return // Chrome's copies are of text, with \n line breaks
		}
		want := append([]string{"curl"}, words...)
		for _, c := range []struct {
			quote func(string) string
			cont  string
		}{{chromeBashQuote, " \\"}, {chromeCmdQuote, " ^"}} {
			if c.cont == " ^" && slices.ContainsFunc(words, backslashNotBeforeQuote) {
				continue // Chrome doubles such a run; Windows does not halve it
			}
			line := chromeCommand(words, c.quote, c.cont)
			if got, err := shellWords(line); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: got %q, %v; want %q", line, got, err, want)
			}
		}
	})
}

// backslashNotBeforeQuote: a run of \ in w is followed by neither " nor
// the end of w (the C runtime keeps such a run as it is).
func backslashNotBeforeQuote(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] == '\\' {
			j := i
			for j < len(w) && w[j] == '\\' {
				j++
			}
			if j < len(w) && w[j] != '"' {
				return true
			}
			i = j
		}
	}
	return false
}

// FuzzPastedReadings: no input makes the bash and cmd.exe readings
// disagree silently. Whatever shellWords accepts is the bash reading when
// bash's applies by structure and the cmd.exe reading when cmd.exe's
// does; where both apply, they agree, or the command is refused.
func FuzzPastedReadings(f *testing.F) {
	for _, s := range []string{hostileBoth, chromeBashCopy, chromeCmdCopy,
		`curl http://127.0.0.1:1/echo -H 'X:^"^"' --data-raw '"x" -d @SECRETFILE -H "Y:' -H 'Z:"'`,
		`curl http://x -d '{"re":"^"}'`, "curl \"x\" ^\n -d 'a'", "curl x # ^\n -d @f", `curl "x" -H ^"a b^"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := shellWords(s)
		bash, cmd := shellsFor(s)
		if !bash && !cmd {
			t.Fatalf("%q: no reading applies", s)
		}
		if err != nil {
			return
		}
		bw, berr := posixWords(s)
		cw, cerr := cmdWords(s)
		if bash && (berr != nil || !reflect.DeepEqual(got, bw)) {
			t.Fatalf("%q: got %q; the bash reading, which applies, is %q, %v", s, got, bw, berr)
		}
		if cmd && (cerr != nil || !reflect.DeepEqual(got, cw)) {
			t.Fatalf("%q: got %q; the cmd.exe reading, which applies, is %q, %v", s, got, cw, cerr)
		}
		// Only structure rules a reading out: a cmd.exe structure mark
		// (a ^ line end, a ^", an opening curl ^") or, for bash, such a
		// mark outside its quotes.
		conts, carets := cmdMarks(s)
		if !cmd && (len(conts) > 0 || leadingCaretQuote(s) >= 0) {
			t.Fatalf("%q: cmd.exe's reading ruled out despite its structure", s)
		}
		_ = carets
	})
}
