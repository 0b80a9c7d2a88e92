package faults

import (
	"strings"
	"testing"
)

// TestParse: the syntax and its mistakes.
func TestParse(t *testing.T) {
	f, err := Parse("stall=2s@3,500ms@5@/v1/* host=API.example.com")
	if err != nil || len(f.Set.Stalls) != 2 || f.Set.Stalls[1].Before != 5 || f.Path != "/v1/*" || f.Host != "api.example.com" {
		t.Fatalf("%+v %v", f, err)
	}
	if !f.Matches("api.example.com:443", "/v1/chat") || f.Matches("api.example.com", "/v2/chat") || f.Matches("other.com", "/v1/x") {
		t.Fatal("match")
	}
	f, err = Parse("buffer=64KiB burst=10 gzip cut-after=0")
	if err != nil || f.Set.Buffer != 64<<10 || f.Set.Burst != 10 || !f.Set.Gzip || f.Set.CutAfter != 0 {
		t.Fatalf("%+v %v", f, err)
	}
	for _, bad := range []string{"", "path=/x", "drop", "drop=-1", "cut-after=x", "stall=2s", "explode=1", "gzip=1", "buffer=0", "burst=0", "path=[", "drop=1@/a@/b", "drop=1 host=[", "drop=1 path=/v1/[a-", "stall=1s@3@/v1/[", "drop=1 host=a\\"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "--fault") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
