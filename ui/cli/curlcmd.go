package cli

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"

	"framescope/decode"
	"framescope/sessions/codings"
)

// curlRequest is the request a pasted curl command line describes.
type curlRequest struct {
	url            string
	method         string
	headers        []string
	body           []byte
	hasBody        bool
	get            bool // -G: the data goes into the query
	insecure       bool
	location       bool
	compressed     bool
	maxTime        time.Duration
	connectTimeout time.Duration
	notes          []string // ignored options, one line each
}

// curlOpt describes one curl option framescope knows.
type curlOpt struct {
	long  string
	short byte // 0: none
	arg   bool // takes a value
	// ignore: accepted with a note on stderr (why, when given, says more);
	// refused: the error says why. Neither: honoured (curlRequest.option).
	ignore       bool
	why, refused string
}

// curlOpts are the options framescope reads from a pasted curl command
// (curlHonoured, curlIgnored, curlRefused), by --long and -s name.
// Anything not listed is refused: framescope cannot know whether it
// would change the request.
var curlOpts = func() map[string]*curlOpt {
	m := map[string]*curlOpt{}
	add := func(long string, short byte, arg, ignore bool, why, refused string) {
		o := &curlOpt{long: long, short: short, arg: arg, ignore: ignore, why: why, refused: refused}
		m["--"+long] = o
		if short != 0 {
			m["-"+string(short)] = o
		}
	}
	for _, o := range curlHonoured {
		add(o.long, o.short, o.arg, false, "", "")
	}
	for _, o := range curlIgnored {
		add(o.long, o.short, o.arg, true, o.why, "")
	}
	for _, o := range curlRefused {
		add(o.long, o.short, o.arg, false, "", o.why)
	}
	return m
}()

// curlOptName is a curl option's names, whether it takes a value, and
// for an ignored or refused one, why.
type curlOptName struct {
	long  string
	short byte
	arg   bool
	why   string
}

// curlHonoured are the curl options framescope honours
// (curlRequest.option).
var curlHonoured = []struct {
	long  string
	short byte
	arg   bool
}{
	{"url", 0, true}, {"request", 'X', true}, {"header", 'H', true},
	{"data", 'd', true}, {"data-ascii", 0, true}, {"data-raw", 0, true}, {"data-binary", 0, true},
	{"data-urlencode", 0, true}, {"json", 0, true}, {"get", 'G', false},
	{"cookie", 'b', true}, {"user", 'u', true}, {"user-agent", 'A', true}, {"referer", 'e', true},
	{"oauth2-bearer", 0, true}, {"basic", 0, false},
	{"insecure", 'k', false}, {"location", 'L', false}, {"compressed", 0, false},
	{"max-time", 'm', true}, {"connect-timeout", 0, true},
}

// curlOutputWhy is why an option of curl's output is ignored.
const curlOutputWhy = "framescope shows the stream (to keep it: framescope curl … -- -o FILE)"

// curlIgnored are the curl options accepted with a note on stderr: they
// change only curl's output or transport.
var curlIgnored = []curlOptName{
	{"silent", 's', false, ""}, {"show-error", 'S', false, ""}, {"no-buffer", 'N', false, ""},
	{"verbose", 'v', false, ""}, {"include", 'i', false, ""}, {"progress-bar", '#', false, ""},
	{"no-progress-meter", 0, false, ""}, {"fail", 'f', false, ""}, {"fail-with-body", 0, false, ""},
	{"http1.0", '0', false, "framescope speaks HTTP/1.1 (or HTTP/2 over TLS)"},
	{"http1.1", 0, false, ""}, {"http2", 0, false, ""}, {"http2-prior-knowledge", 0, false, "framescope speaks HTTP/1.1 (or HTTP/2 over TLS)"},
	{"http3", 0, false, "framescope speaks HTTP/1.1 (or HTTP/2 over TLS)"},
	{"tlsv1", '1', false, ""}, {"tlsv1.0", 0, false, ""}, {"tlsv1.1", 0, false, ""}, {"tlsv1.2", 0, false, ""}, {"tlsv1.3", 0, false, ""},
	{"tls-max", 0, true, ""}, {"ssl-no-revoke", 0, false, ""}, {"ssl-revoke-best-effort", 0, false, ""},
	{"ipv4", '4', false, ""}, {"ipv6", '6', false, ""}, {"globoff", 'g', false, ""}, {"path-as-is", 0, false, ""},
	{"no-keepalive", 0, false, ""}, {"keepalive-time", 0, true, ""}, {"tcp-nodelay", 0, false, ""},
	{"raw", 0, false, ""}, {"styled-output", 0, false, ""}, {"no-styled-output", 0, false, ""},
	{"max-redirs", 0, true, "framescope follows at most 10 redirects with -L"},
	{"retry", 0, true, "framescope never retries: a turn stream is one-shot"},
	{"retry-max-time", 0, true, ""}, {"retry-delay", 0, true, ""}, {"retry-all-errors", 0, false, ""},
	{"output", 'o', true, curlOutputWhy}, {"remote-name", 'O', false, curlOutputWhy}, {"write-out", 'w', true, curlOutputWhy},
	{"dump-header", 'D', true, curlOutputWhy}, {"trace", 0, true, curlOutputWhy}, {"trace-ascii", 0, true, curlOutputWhy},
	{"stderr", 0, true, ""}, {"cookie-jar", 'c', true, "framescope keeps no cookie jar"},
	{"junk-session-cookies", 'j', false, ""}, {"create-dirs", 0, false, ""}, {"noproxy", 0, true, ""},
	{"disable", 'q', false, ""}, {"limit-rate", 0, true, "framescope reads as fast as the stream comes"},
	{"expect100-timeout", 0, true, ""}, {"no-alpn", 0, false, ""}, {"no-npn", 0, false, ""},
}

// curlRefused are the curl options that would change the request in a way
// framescope cannot honour: the error says why.
var curlRefused = []curlOptName{
	{"form", 'F', true, "framescope does not send multipart forms"},
	{"form-string", 0, true, "framescope does not send multipart forms"},
	{"upload-file", 'T', true, "framescope does not upload files"},
	{"head", 'I', false, "a HEAD request has no stream to inspect"},
	{"proxy", 'x', true, "framescope connects directly, without a proxy"},
	{"proxy-user", 'U', true, "framescope connects directly, without a proxy"},
	{"socks5", 0, true, "framescope connects directly, without a proxy"},
	{"socks5-hostname", 0, true, "framescope connects directly, without a proxy"},
	{"resolve", 0, true, "framescope resolves names itself"},
	{"connect-to", 0, true, "framescope connects to the URL's host"},
	{"unix-socket", 0, true, "framescope connects over TCP only"},
	{"abstract-unix-socket", 0, true, "framescope connects over TCP only"},
	{"interface", 0, true, "framescope does not pick a network interface"},
	{"cacert", 0, true, "framescope verifies with the system's certificates (or -k for none)"},
	{"capath", 0, true, "framescope verifies with the system's certificates (or -k for none)"},
	{"cert", 'E', true, "framescope sends no client certificate"},
	{"key", 0, true, "framescope sends no client certificate"},
	{"digest", 0, false, "framescope does only Basic authentication (-u)"},
	{"ntlm", 0, false, "framescope does only Basic authentication (-u)"},
	{"negotiate", 0, false, "framescope does only Basic authentication (-u)"},
	{"anyauth", 0, false, "framescope does only Basic authentication (-u)"},
	{"aws-sigv4", 0, true, "framescope does not sign requests"},
	{"location-trusted", 0, false, "framescope never sends credentials to another host on a redirect"},
	{"request-target", 0, true, "framescope requests the URL's path"},
	{"config", 'K', true, "framescope reads no curl config file"},
	{"next", ':', false, "framescope sends one request"},
	{"parallel", 'Z', false, "framescope sends one request"},
	{"range", 'r', true, "a byte range of a stream is not a stream"},
	{"continue-at", 'C', true, "a byte range of a stream is not a stream"},
	{"netrc", 'n', false, "framescope reads no .netrc"},
	{"netrc-file", 0, true, "framescope reads no .netrc"},
	{"netrc-optional", 0, false, "framescope reads no .netrc"},
}

// curlCommandWords turns what was given after "framescope curl" into the
// curl command's words: one argument holding the whole pasted command is
// split as a shell would; a leading "curl" (or a path to it) is dropped.
func curlCommandWords(args []string) ([]string, error) {
	words := args
	if len(args) == 1 && strings.ContainsAny(args[0], " \t\r\n") {
		var err error
		if words, err = shellWords(args[0]); err != nil {
			return nil, fmt.Errorf("reading the pasted curl command: %w", err)
		}
	}
	if len(words) > 0 {
		base := strings.ToLower(path.Base(strings.ReplaceAll(words[0], `\`, "/")))
		if base == "curl" || base == "curl.exe" {
			words = words[1:]
		}
	}
	if len(words) == 0 {
		return nil, errors.New("no curl command given: paste it after \"framescope curl\"")
	}
	return words, nil
}

// parseCurl reads a curl command's words (after "curl") into a request.
func parseCurl(words []string, stdin io.Reader) (*curlRequest, error) {
	r := &curlRequest{}
	var data []string // -d forms, joined with & as curl does
	var jsonBody []string
	var cookies []string
	var user string
	onlyArgs := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if onlyArgs || w == "-" || !strings.HasPrefix(w, "-") {
			if r.url != "" {
				return nil, fmt.Errorf("two URLs (%s and %s): framescope sends one request", quoteArg(r.url), quoteArg(w))
			}
			r.url = w
			continue
		}
		if w == "--" {
			onlyArgs = true
			continue
		}
		uses, value, hasValue, err := curlWordOptions(w)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			v := ""
			if u.o.arg {
				switch {
				case hasValue:
					v = value
				case i+1 < len(words):
					i++
					v = words[i]
				default:
					return nil, fmt.Errorf("curl option %s needs a value", u.name)
				}
			}
			switch {
			case u.o.refused != "":
				return nil, fmt.Errorf("curl option %s changes the request and framescope cannot honour it: %s", u.name, u.o.refused)
			case u.o.ignore:
				note := "ignored curl option " + u.name
				if u.o.why != "" {
					note += ": " + u.o.why
				}
				r.notes = append(r.notes, note)
				continue
			}
			if err := r.option(u.o.long, u.name, v, &data, &jsonBody, &cookies, &user, stdin); err != nil {
				return nil, err
			}
		}
	}
	if err := r.finish(data, jsonBody, cookies, user); err != nil {
		return nil, err
	}
	return r, nil
}

// curlUse is one option of a word, as named there.
type curlUse struct {
	name string
	o    *curlOpt
}

// curlWordOptions reads the options in one word: one long option, or
// bundled short ones (-sSL, -XPOST, -HName:value); value is the rest of
// the word after a short option that takes one (hasValue: there is a
// rest).
func curlWordOptions(w string) (uses []curlUse, value string, hasValue bool, err error) {
	if strings.HasPrefix(w, "--") {
		o, ok := curlOpts[w]
		if !ok {
			return nil, "", false, unknownCurlOption(w)
		}
		return append(uses, curlUse{w, o}), "", false, nil
	}
	for j := 1; j < len(w); j++ {
		name := "-" + w[j:j+1]
		o, ok := curlOpts[name]
		if !ok {
			return nil, "", false, unknownCurlOption(name)
		}
		uses = append(uses, curlUse{name, o})
		if o.arg {
			if j+1 < len(w) {
				value, hasValue = w[j+1:], true
			}
			break
		}
	}
	return uses, value, hasValue, nil
}

// finish gives the request what is read from every option together: the
// body (or with -G the query) the -d or --json forms make, the cookies,
// the basic authentication; Accept-Encoding without codings framescope
// cannot decode.
func (r *curlRequest) finish(data, jsonBody, cookies []string, user string) error {
	if r.url == "" {
		return errors.New("the curl command has no URL")
	}
	if len(data) > 0 && len(jsonBody) > 0 {
		return errors.New("curl options -d and --json both give the body: give one")
	}
	switch {
	case len(data) > 0 && r.get:
		sep := "?"
		if strings.Contains(r.url, "?") {
			sep = "&"
		}
		r.url += sep + strings.Join(data, "&")
	case len(data) > 0:
		r.body, r.hasBody = []byte(strings.Join(data, "&")), true
		if !hasHeader(r.headers, "Content-Type") {
			// What curl sends with -d and no Content-Type of the user's.
			r.headers = append(r.headers, "Content-Type: application/x-www-form-urlencoded")
		}
	case len(jsonBody) > 0:
		r.body, r.hasBody = []byte(strings.Join(jsonBody, "")), true
		if !hasHeader(r.headers, "Content-Type") {
			r.headers = append(r.headers, "Content-Type: application/json")
		}
		if !hasHeader(r.headers, "Accept") {
			r.headers = append(r.headers, "Accept: application/json")
		}
	}
	if r.get && r.method == "" {
		r.method = "GET"
	}
	if len(cookies) > 0 {
		r.headers = append(r.headers, "Cookie: "+strings.Join(cookies, "; "))
	}
	if user != "" {
		r.headers = append(r.headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(user)))
	}
	if r.compressed && !hasHeader(r.headers, "Accept-Encoding") {
		r.headers = append(r.headers, "Accept-Encoding: "+codings.Accept)
	}
	r.headers = r.dropUndecodable(r.headers)
	return nil
}

// unknownCurlOptionError is a pasted option curl has and framescope does
// not read; Name is the option as typed.
type unknownCurlOptionError struct{ Name string }

func (e unknownCurlOptionError) Error() string {
	return fmt.Sprintf("unknown curl option %s: framescope cannot tell whether it changes the request (drop it to go on)", quoteArg(e.Name))
}

func unknownCurlOption(name string) error { return unknownCurlOptionError{name} }

// quoteArg shows a word from the command line safely in a message.
func quoteArg(s string) string {
	if len(s) > 80 {
		s = s[:77] + "…"
	}
	return decode.Sanitize(s)
}

// option applies one honoured option with its value.
func (r *curlRequest) option(long, name, v string, data, jsonBody, cookies *[]string, user *string, stdin io.Reader) error {
	switch long {
	case "url":
		if r.url != "" {
			return fmt.Errorf("two URLs (%s and %s): framescope sends one request", quoteArg(r.url), quoteArg(v))
		}
		r.url = v
	case "request":
		r.method = v
	case "header":
		return r.header(name, v)
	case "data", "data-ascii", "data-binary", "data-raw", "data-urlencode":
		d, err := curlData(long, name, v, stdin)
		if err != nil {
			return err
		}
		*data = append(*data, d)
	case "json":
		d := []byte(v)
		if strings.HasPrefix(v, "@") {
			var err error
			if d, err = readData(v, stdin); err != nil {
				return fmt.Errorf("curl option --json: %w", err)
			}
		}
		*jsonBody = append(*jsonBody, string(d))
	case "get":
		r.get = true
	case "cookie":
		if !strings.Contains(v, "=") {
			return fmt.Errorf("curl option %s %s: a cookie file is not read; give NAME=VALUE", name, quoteArg(v))
		}
		*cookies = append(*cookies, v)
	case "user":
		if !strings.Contains(v, ":") {
			return fmt.Errorf("curl option %s: give USER:PASSWORD (framescope does not prompt for the password)", name)
		}
		*user = v
	case "user-agent":
		r.headers = append(r.headers, "User-Agent: "+v)
	case "referer":
		r.headers = append(r.headers, "Referer: "+strings.TrimSuffix(v, ";auto"))
	case "oauth2-bearer":
		r.headers = append(r.headers, "Authorization: Bearer "+v)
	case "basic":
	case "insecure":
		r.insecure = true
	case "location":
		r.location = true
	case "compressed":
		r.compressed = true
	case "max-time", "connect-timeout":
		return r.timeout(long, name, v)
	default:
		return fmt.Errorf("curl option %s is not handled", name) // a curlOpts entry without a case
	}
	return nil
}

// header applies -H: a header sent, sent empty ("Name;") or, as curl
// does with "Name:", not sent.
func (r *curlRequest) header(name, v string) error {
	if strings.HasPrefix(v, "@") {
		return fmt.Errorf("curl option %s %s: headers from a file are not read; give them one by one", name, quoteArg(v))
	}
	n, val, ok := strings.Cut(v, ":")
	switch {
	case !ok && strings.HasSuffix(v, ";"): // "Name;": curl sends the header empty
		r.headers = append(r.headers, strings.TrimSuffix(v, ";")+":")
	case ok && strings.TrimSpace(val) == "":
		// "Name:": curl removes a header it would add.
		name := strings.TrimSpace(n)
		note := fmt.Sprintf("header %s with no value: curl would not send it, nor does framescope", quoteArg(name))
		switch strings.ToLower(name) {
		case "accept", "user-agent", "cache-control":
			note = fmt.Sprintf("header %s with no value: framescope sends its own default %s instead", quoteArg(name), quoteArg(name))
		}
		r.notes = append(r.notes, note)
	default:
		r.headers = append(r.headers, v)
	}
	return nil
}

// timeout applies --max-time or --connect-timeout: seconds, or a
// duration.
func (r *curlRequest) timeout(long, name, v string) error {
	var d time.Duration
	df := durationFlag{p: &d, why: "0 = no limit"}
	if err := df.Set(v); err != nil {
		return fmt.Errorf("curl option %s %s: %w", name, quoteArg(v), err)
	}
	if long == "max-time" {
		r.maxTime = d
	} else {
		r.connectTimeout = d
	}
	return nil
}

// curlData resolves one -d family value as curl does: -d/--data-ascii
// read @FILE without its line breaks, --data-binary keeps them, --data-raw
// takes @ literally, --data-urlencode encodes.
func curlData(long, name, v string, stdin io.Reader) (string, error) {
	switch long {
	case "data-raw":
		return v, nil
	case "data-urlencode":
		n, content, hasEq := strings.Cut(v, "=")
		if !hasEq {
			if at := strings.IndexByte(v, '@'); at >= 0 {
				b, err := readData(v[at:], stdin)
				if err != nil {
					return "", fmt.Errorf("curl option %s: %w", name, err)
				}
				if at == 0 {
					return url.QueryEscape(string(b)), nil
				}
				return v[:at] + "=" + url.QueryEscape(string(b)), nil
			}
			return url.QueryEscape(v), nil
		}
		if n == "" {
			return url.QueryEscape(content), nil
		}
		return n + "=" + url.QueryEscape(content), nil
	}
	if !strings.HasPrefix(v, "@") {
		return v, nil
	}
	b, err := readData(v, stdin)
	if err != nil {
		return "", fmt.Errorf("curl option %s: %w", name, err)
	}
	if long == "data-binary" {
		return string(b), nil
	}
	return strings.NewReplacer("\r", "", "\n", "").Replace(string(b)), nil
}

// dropUndecodable takes the codings framescope cannot decode (zstd, …)
// out of a pasted Accept-Encoding, with a note: browsers offer them, and
// a body in one of them could not be checked.
func (r *curlRequest) dropUndecodable(hs []string) []string {
	out := hs[:0:0]
	for _, h := range hs {
		n, v, _ := strings.Cut(h, ":")
		if !strings.EqualFold(strings.TrimSpace(n), "Accept-Encoding") {
			out = append(out, h)
			continue
		}
		var keep, dropped []string
		for _, c := range strings.Split(v, ",") {
			c = strings.TrimSpace(c)
			coding, _, _ := strings.Cut(c, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			switch {
			case coding == "" || coding == "identity" || codings.Decodable(coding):
				if c != "" {
					keep = append(keep, c)
				}
			default:
				dropped = append(dropped, coding)
			}
		}
		if len(dropped) > 0 {
			r.notes = append(r.notes, fmt.Sprintf("Accept-Encoding: not offering %s (framescope cannot decode it)", quoteArg(strings.Join(dropped, ", "))))
		}
		if len(keep) > 0 {
			out = append(out, strings.TrimSpace(n)+": "+strings.Join(keep, ", "))
		}
	}
	return out
}
