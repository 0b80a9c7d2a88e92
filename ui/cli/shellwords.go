package cli

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"framescope/decode"
)

// shellWords splits a pasted command line into its words the way a POSIX
// shell would, without running or expanding anything: '…', "…" with its
// \-escapes, $'…' (ANSI-C quoting, as "Copy as cURL (bash)" emits), \
// escapes and backslash-newline continuations, # comments. Text whose
// structure is a Windows cmd.exe command line (see shellsFor) is read with
// cmd.exe's and the C runtime's rules instead. When both readings fit and
// they differ, the command is refused with both word lists: framescope does
// not guess, since one reading can send (or read a file for) what the
// other does not.
//
// It refuses what only a shell could give meaning to — $VAR, `…`, $(…),
// pipes and redirections — with an error naming the place, rather than
// send a request that differs from the one the shell would have sent.
func shellWords(s string) ([]string, error) {
	bash, cmd := shellsFor(s)
	switch {
	case !cmd:
		return posixWords(s)
	case !bash:
		return cmdWords(s)
	}
	bw, berr := posixWords(s)
	cw, cerr := cmdWords(s)
	if berr == nil && cerr == nil && slices.Equal(bw, cw) {
		return bw, nil
	}
	return nil, &twoReadingsError{bash: bw, bashErr: berr, cmd: cw, cmdErr: cerr}
}

// posixWords splits s with a POSIX shell's rules only.
func posixWords(s string) ([]string, error) {
	p := wordSplitter{s: s}
	return p.split()
}

// shellsFor says which readings of s its structure allows. cmd.exe's
// applies only when s has a cmd.exe structure: a ^ line continuation (a ^
// ending a line, outside cmd.exe's "…"), or an opening curl ^"… (Chrome's
// and Edge's "Copy as cURL (cmd)" quote every argument ^"…^" and join
// them with " ^" line ends), or a ^" that a POSIX shell would leave bare.
// The POSIX reading is ruled out only by what no bash command has: a bare
// ^ ending a line (there bash would end the command and pass a stray ^),
// or an opening curl ^" (a URL ^…^). A ^" or ^-newline inside bash's own
// quotes ('{"re":"^"}') is only text: then both readings apply.
func shellsFor(s string) (bash, cmd bool) {
	conts, carets := cmdMarks(s)
	lead := leadingCaretQuote(s)
	if len(conts) == 0 && len(carets) == 0 && lead < 0 {
		return true, false
	}
	bare := bashBare(s)
	if lead >= 0 && bare[lead] {
		return false, true
	}
	for _, i := range conts {
		if bare[i] {
			return false, true
		}
	}
	cmd = len(conts) > 0 || lead >= 0
	for _, i := range carets {
		cmd = cmd || bare[i]
	}
	return true, cmd
}

// cmdMarks finds, outside cmd.exe's own "…" (as cmdWords' first pass
// reads it), the ^ of each ^-newline continuation and of each ^".
func cmdMarks(s string) (conts, carets []int) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '^' && !quoted && i+1 < len(s):
			switch {
			case s[i+1] == '\n':
				conts = append(conts, i)
			case s[i+1] == '\r' && i+2 < len(s) && s[i+2] == '\n':
				conts = append(conts, i)
				i++
			case s[i+1] == '"':
				carets = append(carets, i)
			}
			i++
		}
	}
	return conts, carets
}

// leadingCaretQuote is the offset of the ^ when s opens with curl ^"…
// (or curl.exe, or ^"… alone), else -1.
func leadingCaretQuote(s string) int {
	const blanks = " \t\r\n"
	t := strings.TrimLeft(s, blanks)
	if end := strings.IndexAny(t, blanks); end > 0 {
		base := strings.ToLower(path.Base(strings.ReplaceAll(t[:end], `\`, "/")))
		if base == "curl" || base == "curl.exe" {
			t = strings.TrimLeft(t[end:], blanks)
		}
	}
	if strings.HasPrefix(t, `^"`) {
		return len(s) - len(t)
	}
	return -1
}

// bashBare marks the bytes of s that a POSIX shell reads bare: outside
// quotes, not \-escaped, not in a comment. It never fails: an unclosed
// quote runs to the end.
func bashBare(s string) []bool {
	bare := make([]bool, len(s))
	inWord := false
	// skipQuoted moves past a quoted part whose \ escapes the next byte.
	skipQuoted := func(i int, closer byte) int {
		for i < len(s) && s[i] != closer {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		return i + 1
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if rest := s[i+1:]; !strings.HasPrefix(rest, "\n") && !strings.HasPrefix(rest, "\r\n") {
				inWord = true // a \-newline continuation starts no word
			}
			i += 2
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return bare
			}
			i += j + 2
			inWord = true
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			i = skipQuoted(i+2, '\'')
			inWord = true
		case c == '"':
			i = skipQuoted(i+1, '"')
			inWord = true
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		default:
			bare[i] = true
			inWord = c != ' ' && c != '\t' && c != '\n' && c != '\r'
			i++
		}
	}
	return bare
}

// twoReadingsError: s reads as two different commands, bash's and cmd.exe's.
type twoReadingsError struct {
	bash, cmd       []string
	bashErr, cmdErr error
}

func (e *twoReadingsError) Error() string {
	var b strings.Builder
	b.WriteString("it reads as two different commands, as bash (a POSIX shell) would and as Windows cmd.exe would, and framescope will not guess which you meant (one reading may send, or read from a file, what the other does not):")
	d := 0
	for d < len(e.bash) && d < len(e.cmd) && e.bash[d] == e.cmd[d] {
		d++
	}
	for _, r := range []struct {
		name  string
		words []string
		err   error
	}{{"as bash:   ", e.bash, e.bashErr}, {"as cmd.exe:", e.cmd, e.cmdErr}} {
		b.WriteString("\n  " + r.name + " ")
		if r.err != nil {
			b.WriteString("(does not read: " + decode.Sanitize(r.err.Error()) + ")")
			continue
		}
		b.WriteString(showWords(r.words, d))
	}
	if e.bashErr == nil && e.cmdErr == nil {
		fmt.Fprintf(&b, "\n  (they differ from word %d on)", d+1)
	}
	b.WriteString("\ncopy the command again for one shell (\"Copy as cURL (bash)\" or \"(cmd)\"), or give its words as separate arguments")
	return b.String()
}

// showWords shows words quoted and sanitized, at most 12 of them from a
// little before word d (0-based) on, each cut to 60 bytes.
func showWords(words []string, d int) string {
	from := max(0, min(d, len(words))-3)
	to := min(len(words), from+12)
	var parts []string
	if from > 0 {
		parts = append(parts, "…")
	}
	for _, w := range words[from:to] {
		if len(w) > 60 {
			w = strings.ToValidUTF8(w[:57], "") + "…"
		}
		parts = append(parts, decode.Sanitize(strconv.Quote(w)))
	}
	if to < len(words) {
		parts = append(parts, fmt.Sprintf("… (%d words in all)", len(words)))
	}
	return strings.Join(parts, " ")
}

type wordSplitter struct {
	s     string
	i     int
	words []string
	cur   []byte
	in    bool // a word has started (it may be empty: '')
}

func (p *wordSplitter) end() {
	if p.in {
		p.words = append(p.words, string(p.cur))
	}
	p.cur, p.in = nil, false
}

// where names byte offset i as line:column (1-based, columns in runes).
func where(s string, i int) string {
	line := 1 + strings.Count(s[:i], "\n")
	col := 1 + utf8.RuneCountInString(s[strings.LastIndexByte(s[:i], '\n')+1:i])
	return fmt.Sprintf("line %d, column %d", line, col)
}

func (p *wordSplitter) errorf(at int, format string, args ...any) error {
	return fmt.Errorf("%s: %s", where(p.s, at), fmt.Sprintf(format, args...))
}

func (p *wordSplitter) split() ([]string, error) {
	s := p.s
	for p.i < len(s) {
		c := s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.end()
			p.i++
		case c == '\\':
			p.i++
			switch {
			case p.i >= len(s): // a trailing backslash: nothing follows
			case s[p.i] == '\n':
				p.i++
			case s[p.i] == '\r' && p.i+1 < len(s) && s[p.i+1] == '\n':
				p.i += 2
			default:
				p.cur, p.in = append(p.cur, s[p.i]), true
				p.i++
			}
		case c == '\'':
			j := strings.IndexByte(s[p.i+1:], '\'')
			if j < 0 {
				return nil, p.errorf(p.i, "the ' quote is never closed")
			}
			p.cur, p.in = append(p.cur, s[p.i+1:p.i+1+j]...), true
			p.i += j + 2
		case c == '"':
			if err := p.double(); err != nil {
				return nil, err
			}
		case c == '$' && p.i+1 < len(s) && s[p.i+1] == '\'':
			if err := p.ansiC(); err != nil {
				return nil, err
			}
		case c == '$' && p.i+1 < len(s) && s[p.i+1] == '"': // $"…": a locale string, read as "…"
			p.i++
		case c == '$':
			if err := p.dollar(); err != nil {
				return nil, err
			}
		case c == '`':
			return nil, p.errorf(p.i, "a `command` substitution: framescope runs no shell; paste its output instead")
		case c == '#' && !p.in:
			for p.i < len(s) && s[p.i] != '\n' {
				p.i++
			}
		case strings.IndexByte("|;&<>()", c) >= 0:
			return nil, p.errorf(p.i, "%q is shell syntax (a pipe, list or redirection): paste the curl command alone", string(c))
		default:
			p.cur, p.in = append(p.cur, c), true
			p.i++
		}
	}
	p.end()
	return p.words, nil
}

// dollar handles a $ outside single quotes: a variable or substitution is
// refused, a $ before anything else is literal.
func (p *wordSplitter) dollar() error {
	s, i := p.s, p.i
	if i+1 < len(s) {
		n := s[i+1]
		if n == '{' || n == '(' || n == '_' || (n|0x20 >= 'a' && n|0x20 <= 'z') || (n >= '0' && n <= '9') ||
			strings.IndexByte("?!#*@-", n) >= 0 {
			j := i + 2
			if closer := map[byte]byte{'{': '}', '(': ')'}[n]; closer != 0 {
				if k := strings.IndexByte(s[j:min(len(s), i+40)], closer); k >= 0 {
					j += k + 1
				}
			} else {
				for j < len(s) && j < i+40 && (s[j] == '_' || (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z') || (s[j] >= '0' && s[j] <= '9')) {
					j++
				}
			}
			return p.errorf(i, "%s is expanded by a shell, and framescope runs none: paste its value instead", strconv.Quote(s[i:j]))
		}
	}
	p.cur, p.in = append(p.cur, '$'), true
	p.i++
	return nil
}

// double reads "…": \ escapes only $ ` " \ and newline; $ and ` are refused.
func (p *wordSplitter) double() error {
	s, start := p.s, p.i
	p.in = true
	p.i++
	for p.i < len(s) {
		c := s[p.i]
		switch {
		case c == '"':
			p.i++
			return nil
		case c == '\\' && p.i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[p.i+1]) >= 0:
			if s[p.i+1] != '\n' {
				p.cur = append(p.cur, s[p.i+1])
			}
			p.i += 2
		case c == '\\' && p.i+2 < len(s) && s[p.i+1] == '\r' && s[p.i+2] == '\n':
			p.i += 3
		case c == '$':
			if err := p.dollar(); err != nil {
				return err
			}
		case c == '`':
			return p.errorf(p.i, "a `command` substitution: framescope runs no shell; paste its output instead")
		default:
			p.cur = append(p.cur, c)
			p.i++
		}
	}
	return p.errorf(start, "the \" quote is never closed")
}

// ansiC reads $'…' with bash's escapes.
func (p *wordSplitter) ansiC() error {
	s, start := p.s, p.i
	p.in = true
	p.i += 2
	for p.i < len(s) {
		c := s[p.i]
		if c == '\'' {
			p.i++
			return nil
		}
		if c != '\\' || p.i+1 >= len(s) {
			p.cur = append(p.cur, c)
			p.i++
			continue
		}
		e := s[p.i+1]
		p.i += 2
		if simple, ok := map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11,
			'\\': '\\', '\'': '\'', '"': '"', '?': '?'}[e]; ok {
			p.cur = append(p.cur, simple)
			continue
		}
		switch e {
		case 'x', 'u', 'U':
			if err := p.hexEscape(e); err != nil {
				return err
			}
		case 'c':
			if p.i < len(s) {
				p.cur = append(p.cur, s[p.i]&0x1f)
				p.i++
			}
		default:
			if e >= '0' && e <= '7' {
				j := p.i - 1
				for j < len(s) && j < p.i+2 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[p.i-1:j], 8, 16)
				p.cur = append(p.cur, byte(v))
				p.i = j
				continue
			}
			p.cur = append(p.cur, '\\', e) // an unknown escape stays as written
		}
	}
	return p.errorf(start, "the $' quote is never closed")
}

// hexEscape reads the digits of a $'…' escape \xHH, \uHHHH or
// \UHHHHHHHH (e is x, u or U; p.i is at the first digit).
func (p *wordSplitter) hexEscape(e byte) error {
	s := p.s
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
	j := p.i
	for j < len(s) && j < p.i+digits && isHex(s[j]) {
		j++
	}
	if j == p.i {
		p.cur = append(p.cur, '\\', e) // no digits: kept as written, as bash does
		return nil
	}
	v, _ := strconv.ParseUint(s[p.i:j], 16, 32)
	p.i = j
	if e == 'x' {
		p.cur = append(p.cur, byte(v))
	} else if v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
		return p.errorf(p.i, "$'…': \\%c%X is no Unicode character", e, v)
	} else {
		p.cur = utf8.AppendRune(p.cur, rune(v))
	}
	return nil
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

// cmdWords reads a cmd.exe command line in two passes, as Windows does:
// cmd.exe removes its ^ escapes and ^-newline continuations (not inside
// its own "…"), then the program's C runtime splits the rest into words
// ("…" groups, \" is a quote, backslashes count only before a quote, ""
// inside quotes is a quote).
func cmdWords(s string) ([]string, error) {
	line, err := cmdLine(s)
	if err != nil {
		return nil, err
	}
	return crtWords(line)
}

// cmdLine is cmd.exe's pass: s without its ^ escapes and ^-newline
// continuations; a pipe or redirection is refused.
func cmdLine(s string) ([]byte, error) {
	var line []byte
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
			line = append(line, c)
		case c == '^' && !quoted:
			switch {
			case i+1 >= len(s):
			case s[i+1] == '\n':
				i++
			case s[i+1] == '\r' && i+2 < len(s) && s[i+2] == '\n':
				i += 2
			default:
				i++
				line = append(line, s[i])
			}
		case (c == '|' || c == '&' || c == '<' || c == '>') && !quoted:
			return nil, fmt.Errorf("%s: %q is shell syntax (a pipe or redirection): paste the curl command alone", where(s, i), string(c))
		default:
			line = append(line, c)
		}
	}
	return line, nil
}

// crtWords is the C runtime's pass: the command line split into words.
func crtWords(line []byte) ([]string, error) {
	var words []string
	var cur []byte
	in, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			j := i
			for j < len(line) && line[j] == '\\' {
				j++
			}
			n := j - i
			if j < len(line) && line[j] == '"' {
				cur = append(cur, strings.Repeat(`\`, n/2)...)
				if n%2 == 1 {
					cur = append(cur, '"')
					i = j
				} else {
					i = j - 1 // the quote is read next
				}
			} else {
				cur = append(cur, line[i:j]...)
				i = j - 1
			}
			in = true
		case c == '"':
			if quoted && i+1 < len(line) && line[i+1] == '"' {
				cur = append(cur, '"')
				i++
			} else {
				quoted = !quoted
			}
			in = true
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			if in {
				words = append(words, string(cur))
			}
			cur, in = nil, false
		default:
			cur, in = append(cur, c), true
		}
	}
	if quoted {
		return nil, fmt.Errorf("the \" quote is never closed")
	}
	if in {
		words = append(words, string(cur))
	}
	return words, nil
}
