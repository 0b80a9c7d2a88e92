package proxy

import (
	"net/http"
	"net/textproto"
	"strings"
)

// hopHeaders are the connection-specific headers a proxy must not forward
// (RFC 9110 §7.6.1, plus the de-facto Proxy-Connection and Keep-Alive of
// RFC 7230 §A.1.2): they describe one hop, not the message.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// teTrailers says whether a TE header asks for trailers (RFC 9110
// §10.1.4): TE is hop-by-hop, but "trailers" is said end to end — gRPC
// needs it — and is the one value a proxy passes on, as
// httputil.ReverseProxy does (the only value HTTP/2 allows, RFC 9113
// §8.2.2).
func teTrailers(h http.Header) bool {
	for _, v := range h.Values("Te") {
		for _, t := range strings.Split(v, ",") {
			t, _, _ = strings.Cut(t, ";")
			if strings.EqualFold(textproto.TrimString(t), "trailers") {
				return true
			}
		}
	}
	return false
}

// removeHopHeaders deletes the hop-by-hop headers of h, and every header
// its Connection header names (RFC 9110 §7.6.1).
func removeHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
}

// upgradeType is the protocol a request asks to switch to ("websocket"),
// "" when it asks for none (RFC 9110 §7.8: Upgrade with Connection: upgrade).
func upgradeType(h http.Header) string {
	for _, v := range h.Values("Connection") {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(textproto.TrimString(t), "upgrade") {
				return strings.ToLower(h.Get("Upgrade"))
			}
		}
	}
	return ""
}
