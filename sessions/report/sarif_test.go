package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"framescope/invariants"
)

// sarifSchema is the part of the SARIF 2.1.0 schema
// (sarif-schema-2.1.0.json, OASIS) a log framescope writes must meet: per
// object, its required properties and the JSON type of each property it
// may have. Checked in Go, without the network.
var sarifSchema = map[string]struct {
	required []string
	types    map[string]string // property → "string", "integer", "boolean", "array", "object", or an object kind below
}{
	"log":                      {[]string{"version", "runs"}, map[string]string{"$schema": "string", "version": "string", "runs": "[]run"}},
	"run":                      {[]string{"tool"}, map[string]string{"tool": "tool", "results": "[]result", "invocations": "[]invocation", "columnKind": "string"}},
	"tool":                     {[]string{"driver"}, map[string]string{"driver": "toolComponent"}},
	"toolComponent":            {[]string{"name"}, map[string]string{"name": "string", "version": "string", "semanticVersion": "string", "rules": "[]reportingDescriptor"}},
	"reportingDescriptor":      {[]string{"id"}, map[string]string{"id": "string", "name": "string", "shortDescription": "multiformatMessageString", "fullDescription": "multiformatMessageString", "help": "multiformatMessageString", "helpUri": "string", "defaultConfiguration": "reportingConfiguration", "properties": "object"}},
	"multiformatMessageString": {[]string{"text"}, map[string]string{"text": "string"}},
	"reportingConfiguration":   {nil, map[string]string{"level": "level"}},
	"result":                   {[]string{"message"}, map[string]string{"ruleId": "string", "ruleIndex": "integer", "level": "level", "message": "message", "locations": "[]location", "properties": "object"}},
	"message":                  {nil, map[string]string{"text": "string"}},
	"location":                 {nil, map[string]string{"physicalLocation": "physicalLocation"}},
	"physicalLocation":         {nil, map[string]string{"artifactLocation": "artifactLocation", "region": "region"}},
	"artifactLocation":         {nil, map[string]string{"uri": "string"}},
	"region":                   {nil, map[string]string{"startLine": "line"}},
	"invocation":               {[]string{"executionSuccessful"}, map[string]string{"executionSuccessful": "boolean", "toolExecutionNotifications": "[]notification"}},
	"notification":             {[]string{"message"}, map[string]string{"level": "level", "message": "message", "locations": "[]location"}},
}

// validateSARIF checks v, an object of kind, against sarifSchema.
func validateSARIF(path, kind string, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: want an object (%s)", path, kind)
	}
	sch := sarifSchema[kind]
	for _, r := range sch.required {
		if _, ok := obj[r]; !ok {
			return fmt.Errorf("%s: %s lacks required %q", path, kind, r)
		}
	}
	if kind == "log" && obj["version"] != "2.1.0" {
		return fmt.Errorf("version %v", obj["version"])
	}
	if kind == "message" && obj["text"] == nil && obj["id"] == nil {
		return fmt.Errorf("%s: message without text or id", path)
	}
	for k, val := range obj {
		typ, ok := sch.types[k]
		if !ok {
			return fmt.Errorf("%s: %s has property %q the schema subset does not know", path, kind, k)
		}
		if err := validateType(path+"."+k, typ, val); err != nil {
			return err
		}
	}
	return nil
}

func validateType(path, typ string, v any) error {
	switch typ {
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: want a string, got %T", path, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want a boolean", path)
		}
	case "integer", "line":
		f, ok := v.(float64)
		if !ok || f != float64(int64(f)) || f < 0 || (typ == "line" && f < 1) {
			return fmt.Errorf("%s: want an integer (≥1 for a line), got %v", path, v)
		}
	case "level":
		if s, _ := v.(string); s != "none" && s != "note" && s != "warning" && s != "error" {
			return fmt.Errorf("%s: level %v", path, v)
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s: want an object", path)
		}
	default:
		if elem, ok := strings.CutPrefix(typ, "[]"); ok {
			arr, ok := v.([]any)
			if !ok {
				return fmt.Errorf("%s: want an array", path)
			}
			for i, e := range arr {
				if err := validateSARIF(fmt.Sprintf("%s[%d]", path, i), elem, e); err != nil {
					return err
				}
			}
			return nil
		}
		return validateSARIF(path, typ, v)
	}
	return nil
}

// TestSARIFValid: a log of two inputs (one with alarms at known lines,
// one unreadable) meets the SARIF 2.1.0 schema's required structure; one
// reportingDescriptor per rule, each name once, with its source link
// where the clause is public; results point at the file and line.
func TestSARIFValid(t *testing.T) {
	rep, err := Check(chatTurn(), invariants.Options{MaxFirstContent: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rep.SetBudgets([]string{"--max-first-content 200ms"}, false)
	var b bytes.Buffer
	s := NewSARIF(&b)
	lines := map[int64]int{}
	for _, o := range rep.Offsets() {
		lines[o] = 3
	}
	if err := s.Add(rep, `captures\turn 1.jsonl`, lines); err != nil {
		t.Fatal(err)
	}
	s.AddUnreadable("gone.sse", errors.New("no such file"))
	if err := s.Close(false); err != nil {
		t.Fatal(err)
	}
	var log any
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	if err := validateSARIF("$", "log", log); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, HelpURI string
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	_ = json.Unmarshal(b.Bytes(), &got)
	run := got.Runs[0]
	seen := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		if seen[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		seen[r.ID] = true
		if r.ID == "frame-utf8" && r.HelpURI == "" {
			t.Error("frame-utf8 (RFC 3629) has no helpUri")
		}
	}
	for _, name := range []string{"budget-first-content", "seq-gap", "status-prose", "role-missing"} {
		if !seen[name] {
			t.Errorf("no reportingDescriptor for %s", name)
		}
	}
	found := false
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s: ruleIndex %d is %s", r.RuleID, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
		if r.RuleID == "budget-first-content" {
			found = true
			l := r.Locations[0].PhysicalLocation
			if r.Level != "error" || l.ArtifactLocation.URI != "captures/turn%201.jsonl" || l.Region.StartLine != 3 {
				t.Errorf("budget-first-content result %+v", r)
			}
		}
	}
	if !found {
		t.Errorf("no budget-first-content result:\n%s", b.String())
	}
}
