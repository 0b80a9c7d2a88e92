package sessions

import (
	"strings"
	"unicode"
)

// One rule set decides whether a name — a query parameter, a header, a
// JSON or form body key, a multipart part — holds a credential. Names are
// compared as words: split at any separator ('-', '_', '.', '[', ']', ' ')
// and at camelCase boundaries, lower-cased, so accessToken, access_token,
// ACCESS-TOKEN and user[access-token] are one name. Query strings, headers,
// bodies and messages all go through secretName (issue 24 item 5).

// secretAnyWord mark a name as a credential wherever the word stands:
// X-Auth-Email, client_secret_hint, user[password].
var secretAnyWord = map[string]bool{
	"auth": true, "authorization": true, "password": true, "passwd": true,
	"secret": true, "apikey": true, "credential": true, "credentials": true,
}

// secretLastWord mark a name as a credential when it is its last word:
// X-Auth-Token, X-Amz-Signature, Ocp-Apim-Subscription-Key. "token_type"
// or "stop_token_ids" stay visible.
var secretLastWord = map[string]bool{
	"key": true, "token": true, "pwd": true, "signature": true, "sig": true,
	"jwt": true, "cookie": true, "session": true, "sessionid": true,
}

// notSecretKeys are the words before a final "key" that make it an
// identifier, not a credential: an Idempotency-Key, a prompt_cache_key, a
// public_key, Sec-WebSocket-Key (a nonce).
var notSecretKeys = map[string]bool{
	"idempotency": true, "cache": true, "public": true, "sort": true, "partition": true,
	"routing": true, "dedup": true, "dedupe": true, "deduplication": true, "object": true,
	"row": true, "lookup": true, "primary": true, "foreign": true, "group": true,
	"message": true, "hash": true, "socket": true, "map": true,
}

// notSecretTokens are the words before a final "token" that make it a
// protocol handle, not a credential: MCP's progressToken (the checker
// pairs progress with its request by it), pagination's pageToken and
// next_token, tokenizer terms (stop_token, pad_token).
var notSecretTokens = map[string]bool{
	"progress": true, "page": true, "next": true, "continuation": true, "cancellation": true,
	"resume": true, "sync": true, "stop": true, "pad": true, "eos": true, "bos": true,
	"special": true, "start": true, "end": true, "max": true,
}

// secretJoinedSuffixes catch a name written as one word (ACCESSTOKEN,
// privatekey, xsrftoken): the words joined end with one of them.
var secretJoinedSuffixes = []string{
	"token", "secret", "password", "passwd", "apikey", "privatekey", "secretkey",
	"accesskey", "signature", "credential", "credentials", "sessionid",
}

// secretName reports whether a name (already unescaped) holds a credential.
func secretName(name string) bool {
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if secretAnyWord[w] {
			return true
		}
	}
	last := words[len(words)-1]
	if last == "id" && len(words) > 1 && words[len(words)-2] == "session" {
		return true // session_id, X-Session-Id
	}
	if secretLastWord[last] {
		if len(words) > 1 && (last == "key" && notSecretKeys[words[len(words)-2]] || last == "token" && notSecretTokens[words[len(words)-2]]) {
			return false
		}
		return true
	}
	joined := strings.Join(words, "")
	for _, s := range secretJoinedSuffixes {
		if strings.HasSuffix(joined, s) {
			return true
		}
	}
	return false
}

// nameWords splits a name into lower-case words at separators and at
// camelCase boundaries ("APIKey" → api, key; "accessToken" → access,
// token).
func nameWords(name string) []string {
	var words []string
	rs := []rune(strings.TrimSpace(name))
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return words
}
