package cli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// shellWords splits a pasted command line into its words the way a POSIX
// shell would, without running or expanding anything: '…', "…" with its
// \-escapes, $'…' (ANSI-C quoting, as "Copy as cURL (bash)" emits), \
// escapes and backslash-newline continuations, # comments. Text from a
// Windows "Copy as cURL (cmd)" (^ escapes and ^-newline continuations) is
// recognised and read with cmd.exe's and the C runtime's rules instead.
//
// It refuses what only a shell could give meaning to — $VAR, `…`, $(…),
// pipes and redirections — with an error naming the place, rather than
// send a request that differs from the one the shell would have sent.
func shellWords(s string) ([]string, error) {
	if looksLikeCmd(s) {
		return cmdWords(s)
	}
	p := wordSplitter{s: s}
	return p.split()
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
			digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := p.i
			for j < len(s) && j < p.i+digits && isHex(s[j]) {
				j++
			}
			if j == p.i {
				p.cur = append(p.cur, '\\', e) // no digits: kept as written, as bash does
				continue
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

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

// looksLikeCmd reports whether s is a cmd.exe command line: ^-newline
// continuations or ^" quotes, as Chrome's "Copy as cURL (cmd)" writes.
func looksLikeCmd(s string) bool {
	return strings.Contains(s, "^\n") || strings.Contains(s, "^\r\n") || strings.Contains(s, `^"`)
}

// cmdWords reads a cmd.exe command line in two passes, as Windows does:
// cmd.exe removes its ^ escapes and ^-newline continuations (not inside
// its own "…"), then the program's C runtime splits the rest into words
// ("…" groups, \" is a quote, backslashes count only before a quote, ""
// inside quotes is a quote).
func cmdWords(s string) ([]string, error) {
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
