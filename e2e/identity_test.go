package e2e

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// TestOutputIdentity runs the binary over every capture in testdata/ (the
// real recordings included) and compares what it prints — check's text
// and JSON reports, dump in both formats, the generic and PC3 reference
// replays, rules, the reference documents and every command's --help —
// with a manifest written by an earlier binary: one SHA-256 per output.
//
// It is how a change that must not alter behaviour (a move between rooms,
// a faster path) proves it: the manifest is written once before the change
// and compared after. When behaviour is meant to change, rewrite it with
//
//	go test ./e2e -run TestOutputIdentity -update-identity
//
// and the diff of testdata/identity.tsv names every output that moved. To
// see how one output moved, run the named command with a binary built at
// the manifest's commit and with this one, and diff the two.
var updateIdentity = flag.Bool("update-identity", false, "rewrite testdata/identity.tsv from this binary")

const identityManifest = "testdata/identity.tsv"

// versionField is the build's own version, the one thing in a report that
// names the binary rather than the stream.
var versionField = regexp.MustCompile(`"version":"[^"]*"`)

func TestOutputIdentity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary over the whole corpus")
	}
	bin := binaryPath(t)
	root := repoRoot(t)
	inputs := identityInputs(t, root)
	jobs := identityJobs(t, bin, root, inputs)

	got := make(map[string]string, len(jobs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan identityJob)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				for key, sum := range j.run(bin, root) {
					mu.Lock()
					got[key] = sum
					mu.Unlock()
				}
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()

	path := filepath.Join(root, "e2e", identityManifest)
	if *updateIdentity {
		writeIdentity(t, path, got)
		return
	}
	want := readIdentity(t, path)
	var moved, missing, extra []string
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			missing = append(missing, k)
		case g != w:
			moved = append(moved, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(moved)
	sort.Strings(missing)
	sort.Strings(extra)
	report := func(what string, keys []string) {
		if len(keys) == 0 {
			return
		}
		shown := keys
		if len(shown) > 40 {
			shown = shown[:40]
		}
		t.Errorf("%d outputs %s (first %d):\n  %s", len(keys), what, len(shown), strings.Join(shown, "\n  "))
	}
	report("changed", moved)
	report("no longer produced", missing)
	report("new, not in the manifest", extra)
}

// identityJob is one run of the binary; run returns each output it
// produced under its manifest key.
type identityJob struct {
	args  []string
	split func(args []string, out []byte, code int) map[string]string
}

func (j identityJob) run(bin, root string) map[string]string {
	cmd := exec.Command(bin, j.args...)
	cmd.Dir = root
	cmd.Env = identityEnv(root)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	code := 0
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			code = -1
		}
	}
	return j.split(j.args, versionField.ReplaceAll(out.Bytes(), []byte(`"version":""`)), code)
}

// identityEnv is a neutral environment: no terminal, no colour, a library
// of its own, so outputs do not depend on who runs the test.
func identityEnv(root string) []string {
	env := []string{"HOME=" + os.TempDir(), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "TERM=dumb", "COLUMNS=120"}
	if d := os.Getenv("FRAMESCOPE_IDENTITY_DATA"); d != "" {
		env = append(env, "FRAMESCOPE_DATA_DIR="+d)
	} else {
		env = append(env, "FRAMESCOPE_DATA_DIR="+filepath.Join(os.TempDir(), "framescope-identity-data"))
	}
	return env
}

func hashOf(b []byte, code int) string {
	h := sha256.Sum256(append([]byte(fmt.Sprintf("exit %d\n", code)), b...))
	return hex.EncodeToString(h[:12])
}

// whole keys the run's whole output.
func whole(key string) func([]string, []byte, int) map[string]string {
	return func(_ []string, out []byte, code int) map[string]string {
		return map[string]string{key: hashOf(out, code)}
	}
}

// perInput splits a report over many inputs into one output per input:
// a JSON report has a line each, a text report a block that starts with
// the input's name and a colon.
func perInput(kind string, jsonLines bool) func([]string, []byte, int) map[string]string {
	return func(args []string, out []byte, code int) map[string]string {
		var files []string
		for _, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				files = append(files, a)
			}
		}
		res := map[string]string{}
		blocks := map[string][]byte{}
		cur := ""
		var trailer []byte
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		next := 0
		for sc.Scan() {
			line := sc.Bytes()
			if jsonLines {
				if next < len(files) && bytes.HasPrefix(line, []byte(`{"source":"`+jsonEscapePath(files[next])+`"`)) {
					cur = files[next]
					next++
				}
			} else if next < len(files) && bytes.HasPrefix(line, []byte(files[next]+":")) {
				cur = files[next]
				next++
			}
			if cur == "" {
				trailer = append(append(trailer, line...), '\n')
				continue
			}
			blocks[cur] = append(append(blocks[cur], line...), '\n')
		}
		for _, f := range files {
			res[kind+"\t"+f] = hashOf(blocks[f], 0)
		}
		// The exit status and anything before the first input's block
		// (a usage line, a total) belong to the run as a whole.
		res[kind+"-run\t"+files[0]+"…"] = hashOf(trailer, code)
		return res
	}
}

func jsonEscapePath(p string) string {
	return strings.ReplaceAll(strings.ReplaceAll(p, `\`, `\\`), `"`, `\"`)
}

// perFile is one run per input, keyed by the input.
func perFile(kind string) func([]string, []byte, int) map[string]string {
	return func(args []string, out []byte, code int) map[string]string {
		return map[string]string{kind + "\t" + args[len(args)-1]: hashOf(out, code)}
	}
}

// identityInputs is every capture under testdata/ that check reads: the
// rule and dialect captures, the examples, the compressed ones, the
// reference probes and the real recordings.
func identityInputs(t *testing.T, root string) []string {
	t.Helper()
	var inputs []string
	for _, dir := range []string{"examples", "compressed", "reference", "rules", "dialects", "real"} {
		err := filepath.WalkDir(filepath.Join(root, "testdata", dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch {
			case strings.HasSuffix(p, ".sse"), strings.HasSuffix(p, ".jsonl"), strings.HasSuffix(p, ".ndjson"),
				strings.HasSuffix(p, ".json"), strings.HasSuffix(p, ".gz"), strings.HasSuffix(p, ".zst"), strings.HasSuffix(p, ".har"):
				rel, _ := filepath.Rel(root, p)
				inputs = append(inputs, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(inputs)
	if len(inputs) < 1000 {
		t.Fatalf("only %d captures found under testdata/", len(inputs))
	}
	return inputs
}

func identityJobs(t *testing.T, bin, root string, inputs []string) []identityJob {
	var jobs []identityJob
	for i := 0; i < len(inputs); i += 100 {
		batch := inputs[i:min(i+100, len(inputs))]
		jobs = append(jobs,
			identityJob{args: append([]string{"check"}, batch...), split: perInput("check", false)},
			identityJob{args: append([]string{"check", "--format", "json"}, batch...), split: perInput("check-json", true)},
		)
	}
	for _, f := range inputs {
		jobs = append(jobs,
			identityJob{args: []string{"dump", f}, split: perFile("dump")},
			identityJob{args: []string{"dump", "--format", "ndjson", f}, split: perFile("dump-ndjson")},
			identityJob{args: []string{"reference", "--replay", f}, split: perFile("replay")},
		)
	}
	for _, args := range [][]string{
		{"rules"}, {"check", "--dialect", "list"},
		{"reference"}, {"reference", "--format", "json"}, {"reference", "--format", "mermaid"},
		{"reference", "--format", "dot"}, {"reference", "--format", "mermaid", "--diagram", "core"},
		{"reference", "--format", "mermaid", "--profile", "v0.4"},
	} {
		jobs = append(jobs, identityJob{args: args, split: whole(strings.Join(args, " "))})
	}
	dialects := dialectNames(t, bin, root)
	for _, d := range dialects {
		for _, args := range [][]string{{"rules", "--dialect", d}, {"rules", "--dialect", d, "--format", "json"}} {
			jobs = append(jobs, identityJob{args: args, split: whole(strings.Join(args, " "))})
		}
	}
	for _, rule := range ruleNames(t, bin, root, dialects) {
		args := []string{"rules", rule}
		jobs = append(jobs, identityJob{args: args, split: whole(strings.Join(args, " "))})
	}
	for _, c := range commandPaths(t, bin, root, nil) {
		args := append(append([]string{}, c...), "--help")
		jobs = append(jobs, identityJob{args: args, split: whole(strings.Join(args, " "))})
	}
	return jobs
}

// ruleNames is every rule some dialect lists (`rules --dialect D --format names`).
func ruleNames(t *testing.T, bin, root string, dialects []string) []string {
	t.Helper()
	seen := map[string]bool{}
	var names []string
	for _, d := range dialects {
		cmd := exec.Command(bin, "rules", "--dialect", d, "--format", "names")
		cmd.Dir = root
		cmd.Env = identityEnv(root)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rules --dialect %s: %v", d, err)
		}
		for _, n := range strings.Fields(string(out)) {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	if len(names) < 20 {
		t.Fatalf("the dialects list only %d rules", len(names))
	}
	return names
}

// dialectNames is the first column of `check --dialect list`.
func dialectNames(t *testing.T, bin, root string) []string {
	t.Helper()
	cmd := exec.Command(bin, "check", "--dialect", "list")
	cmd.Dir = root
	cmd.Env = identityEnv(root)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check --dialect list: %v", err)
	}
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

// commandPaths walks the command tree through --help's "Available
// Commands" sections.
func commandPaths(t *testing.T, bin, root string, parent []string) [][]string {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{}, parent...), "--help")...)
	cmd.Dir = root
	cmd.Env = identityEnv(root)
	out, _ := cmd.Output()
	paths := [][]string{parent}
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "Available Commands:"):
			in = true
		case in && strings.TrimSpace(line) == "":
			in = false
		case in:
			f := strings.Fields(line)
			if len(f) == 0 || f[0] == "help" {
				continue
			}
			paths = append(paths, commandPaths(t, bin, root, append(append([]string{}, parent...), f[0]))...)
		}
	}
	return paths
}

func writeIdentity(t *testing.T, path string, got map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# output\tinput or arguments\tsha256 (first 12 bytes) of the exit status and output: see identity_test.go\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s\t%s\n", k, got[k])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readIdentity(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with -update-identity)", err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, '\t')
		want[line[:i]] = line[i+1:]
	}
	return want
}
