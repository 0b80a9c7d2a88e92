package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// realManifest is testdata/real/MANIFEST.tsv: one row per stream recorded
// from a real service (see docs/real-recordings.md).
const realManifest = "testdata/real/MANIFEST.tsv"

// realFlavorsEnv turns on the flavor comparison: flavor recognition lands
// in parallel, so until it has, a row's flavor is only documentation.
const realFlavorsEnv = "FRAMESCOPE_REAL_FLAVORS"

type realRow struct {
	file, dialect, flavor, expect, pending string
}

func readRealManifest(t *testing.T) []realRow {
	t.Helper()
	f, err := os.Open(repoPath(realManifest))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var col map[string]int
	var rows []realRow
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if col == nil {
			col = map[string]int{}
			for i, name := range fields {
				col[name] = i
			}
			for _, need := range []string{"file", "dialect", "flavor", "expect", "pending"} {
				if _, ok := col[need]; !ok {
					t.Fatalf("%s: no %s column", realManifest, need)
				}
			}
			continue
		}
		if len(fields) != len(col) {
			t.Fatalf("%s: row %q has %d fields, want %d", realManifest, fields[0], len(fields), len(col))
		}
		rows = append(rows, realRow{
			file:    fields[col["file"]],
			dialect: fields[col["dialect"]],
			flavor:  fields[col["flavor"]],
			expect:  fields[col["expect"]],
			pending: fields[col["pending"]],
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// expectSet reads a manifest expect cell: "clean" (no error, no warn) or
// the space-separated RULE:SEVERITY pairs the stream must raise, and only
// those (info alarms are not compared).
func expectSet(cell string) []string {
	if cell == "clean" {
		return nil
	}
	set := strings.Fields(cell)
	sort.Strings(set)
	return set
}

// TestRealRecordings checks every stream of testdata/real against its
// manifest row: the dialect detected, the flavor (when asked), and the
// error and warn alarms, as distinct RULE:SEVERITY pairs.
func TestRealRecordings(t *testing.T) {
	t.Parallel() // reads testdata only
	rows := readRealManifest(t)
	if len(rows) == 0 {
		t.Fatal("empty manifest")
	}
	listed := map[string]bool{}
	for _, row := range rows {
		listed[row.file] = true
	}
	// Every .sse under testdata/real has its row.
	files := repoGlob(t, "testdata/real/*/*.sse")
	for _, f := range files {
		rel := strings.TrimPrefix(f, "testdata/real/")
		if !listed[rel] {
			t.Errorf("%s has no manifest row", rel)
		}
	}
	checkFlavor := os.Getenv(realFlavorsEnv) == "1"
	for _, row := range rows {
		row := row
		t.Run(row.file, func(t *testing.T) {
			if row.pending != "" {
				t.Skipf("pending: %s", row.pending)
			}
			path := "testdata/real/" + row.file
			res := runCLI(t, "", "check", "--format", "json", path)
			var reps []map[string]any
			for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatalf("report line is not JSON: %v (exit %d, stderr %q)", err, res.code, res.stderr)
				}
				reps = append(reps, m)
			}
			if len(reps) != 1 {
				t.Fatalf("want one report, got %d (exit %d, stderr %q)", len(reps), res.code, res.stderr)
			}
			rep := reps[0]
			if d, _ := rep["dialect"].(string); d != row.dialect {
				t.Errorf("dialect %q, want %q", d, row.dialect)
			}
			// The flavor named must be the recording's provider (or the
			// server software behind it: "crusoe|vllm"); a stream that
			// carries no provider mark is checked as plain OpenAI, no
			// flavor. With FRAMESCOPE_REAL_FLAVORS=1 a provider's stream
			// must also be recognised.
			if fl, _ := rep["flavor"].(string); row.flavor != "" && (fl != "" || checkFlavor) {
				if !slices.Contains(strings.Split(row.flavor, "|"), fl) {
					t.Errorf("flavor %q, want %q", fl, row.flavor)
				}
			}
			seen := map[string]bool{}
			var got []string
			alarms, _ := rep["alarms"].([]any)
			for _, a := range alarms {
				m, _ := a.(map[string]any)
				rule, _ := m["rule"].(string)
				sev, _ := m["severity"].(string)
				if sev == "info" {
					continue
				}
				if k := rule + ":" + sev; !seen[k] {
					seen[k] = true
					got = append(got, k)
				}
			}
			sort.Strings(got)
			want := expectSet(row.expect)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("alarms %v, want %v (%s)", got, want, row.expect)
				for _, a := range alarms {
					m, _ := a.(map[string]any)
					if m["severity"] != "info" {
						t.Logf("  %v %v frame %v: %v", m["rule"], m["severity"], m["frame"], m["message"])
					}
				}
			}
		})
	}
}
