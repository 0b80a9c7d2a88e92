package live

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"framescope/sessions"
	"framescope/sessions/internal/sessiontest"
	"framescope/sessions/record"
)

// TestLiveSecretNames (issue 24 item 5): secrets under other spellings —
// a camelCase query token, a lone-user-name token in the URL, a JSON body's
// clientSecret, an Ocp-Apim-Subscription-Key header and a response's
// Signature — reach the server but neither the recording nor Meta; a
// redirect loop's error message does not print the token either.
func TestLiveSecretNames(t *testing.T) {
	lvNoLeak(t)
	script := lvScript(lvPieces(lvTurn(1))...)
	srv := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Signature", "sig1=:RESPSIG:")
		script(w, r)
	})
	url := strings.Replace(srv.URL, "http://", "http://USERTOKEN@", 1) + "/s?accessToken=QUERYTOKEN"
	l := lvConnect(t, ConnectOptions{URL: url, Body: []byte("\xef\xbb\xbf{\"clientSecret\":\"BODYSECRET\"}"),
		Headers: []string{"Content-Type: application/json", "Ocp-Apim-Subscription-Key: HDRKEY"}})
	rec, path := lvRecordPath(t, l, record.Options{})
	lvDrain(t, rec)
	recorded := string(sessiontest.ReadFile(t, path))
	m := l.Meta()
	all := recorded + m.Name + m.URL + string(m.RequestBody) + strings.Join(mapValues(m.RequestHeaders), " ") + strings.Join(mapValues(m.ResponseHeaders), " ")
	for _, secret := range []string{"USERTOKEN", "QUERYTOKEN", "BODYSECRET", "HDRKEY", "RESPSIG"} {
		if strings.Contains(all, secret) {
			t.Errorf("%s leaked:\n%s", secret, all)
		}
	}

	loop := lvServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/again?clientSecret=LOOPSECRET", http.StatusFound)
	})
	_, err := Connect(context.Background(), ConnectOptions{URL: loop.URL + "/a", FollowRedirects: true})
	if err == nil || strings.Contains(err.Error(), "LOOPSECRET") || !strings.Contains(err.Error(), sessions.RedactedValue) {
		t.Errorf("redirect loop error %v", err)
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
