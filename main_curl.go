package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"framescope/sessions/live"
)

// curlish holds the curl flags connect and record accept beyond -X -H -d
// -k -L, so a command from a browser's "Copy as cURL" runs as it is.
type curlish struct {
	dataRaw, dataBinary, json string
	cookies                   []string
	user                      string
	maxTime                   time.Duration
	noBuffer, silent          bool
	include, verbose          bool
	compressed                bool
}

func (c *curlish) register(f *pflag.FlagSet) {
	f.StringVar(&c.dataRaw, "data-raw", "", "request body `DATA`, as it is (@ is not special)")
	f.StringVar(&c.dataBinary, "data-binary", "", "request body: `DATA`, @FILE or @- (as -d)")
	f.StringVar(&c.json, "json", "", "JSON request body: `DATA`, @FILE or @-; sends Content-Type: application/json")
	f.StringArrayVarP(&c.cookies, "cookie", "b", nil, "send cookies `NAME=VALUE[; …]` (repeatable)")
	f.StringVarP(&c.user, "user", "u", "", "HTTP basic authentication `USER:PASSWORD`")
	nonNegativeDuration(f, &c.maxTime, "max-time", 0, "0 = no limit",
		"stop the whole exchange after this long, in seconds or a duration (0 = no limit); in the inspector the stream is cancelled as x does")
	f.BoolVarP(&c.noBuffer, "no-buffer", "N", false, "accepted for curl compatibility (framescope never buffers the stream)")
	f.BoolVarP(&c.silent, "silent", "s", false, "accepted for curl compatibility (no effect)")
	f.BoolVarP(&c.include, "include", "i", false, "accepted for curl compatibility (the response line and headers are always shown)")
	f.BoolVarP(&c.verbose, "verbose", "v", false, "accepted for curl compatibility (no effect)")
	f.BoolVar(&c.compressed, "compressed", false, "ask for a compressed body (Accept-Encoding: "+live.AcceptCompressed+"); a compressed body is decoded with or without it")
}

// apply adds the body, cookie and authentication flags to the request.
// data is -d's value: only one body flag may be given.
func (c *curlish) apply(o *live.ConnectOptions, data string, stdin io.Reader) error {
	given := 0
	for _, v := range []string{data, c.dataRaw, c.dataBinary, c.json} {
		if v != "" {
			given++
		}
	}
	if given > 1 {
		return errors.New("give one request body: -d, --data-raw, --data-binary or --json")
	}
	switch {
	case c.dataRaw != "":
		o.Body = []byte(c.dataRaw)
	case c.dataBinary != "", c.json != "":
		body, err := readData(c.dataBinary+c.json, stdin)
		if err != nil {
			return err
		}
		o.Body = body
		if c.json != "" && !hasHeader(o.Headers, "Content-Type") {
			o.Headers = append(o.Headers, "Content-Type: application/json")
		}
	}
	for _, ck := range c.cookies {
		if !strings.Contains(ck, "=") {
			return fmt.Errorf("-b %q: a cookie jar file is not read; give NAME=VALUE", ck)
		}
		o.Headers = append(o.Headers, "Cookie: "+ck)
	}
	if c.user != "" {
		if !strings.Contains(c.user, ":") {
			return errors.New("-u: give USER:PASSWORD (framescope does not prompt for the password)")
		}
		o.Headers = append(o.Headers, "Authorization: Basic "+base64.StdEncoding.EncodeToString([]byte(c.user)))
	}
	if c.compressed && !hasHeader(o.Headers, "Accept-Encoding") {
		o.Headers = append(o.Headers, "Accept-Encoding: "+live.AcceptCompressed)
	}
	return nil
}

func hasHeader(hs []string, name string) bool {
	for _, h := range hs {
		n, _, _ := strings.Cut(h, ":")
		if strings.EqualFold(strings.TrimSpace(n), name) {
			return true
		}
	}
	return false
}

// deadline bounds a headless run by --max-time.
func (c *curlish) deadline(ctx context.Context, stderr io.Writer) (context.Context, context.CancelFunc) {
	if c.maxTime <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	t := time.AfterFunc(c.maxTime, func() {
		fmt.Fprintf(stderr, "framescope: --max-time %s reached: stopping the stream\n", c.maxTime)
		cancel()
	})
	return ctx, func() { t.Stop(); cancel() }
}
