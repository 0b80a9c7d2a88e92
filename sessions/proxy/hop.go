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
