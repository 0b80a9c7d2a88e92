package e2e

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A transcript is one `$ command` of a fenced block in the README or docs/,
// with the output the page promises.
type transcript struct {
	page, command string
	line          int
	want          []string
}

// transcripts reads every fenced block of page and returns its `$ …` lines
// with the lines that follow each (up to the next `$ ` or the fence).
func transcripts(t *testing.T, page string) []transcript {
	t.Helper()
	data, err := os.ReadFile(repoPath(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []transcript
	inFence := false
	var cur *transcript
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			flush()
			inFence = !inFence
			continue
		}
		if !inFence {
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			flush()
			cur = &transcript{page: page, command: cmd, line: i + 1}
			continue
		}
		if cur != nil {
			cur.want = append(cur.want, line)
		}
	}
	flush()
	return out
}

var headPipe = regexp.MustCompile(`^(.*?)\s*\|\s*head -(\d+)$`)

// TestDocExamplesReproduce runs every `$ framescope check|dump|rules …`
// transcript of the README and docs/ through the real binary and compares
// its output with the page, line for line: what a newcomer pastes from a
// fresh clone prints what the page says. `$ echo $?` checks the exit status
// of the command before it. Commands whose output depends on the machine
// (the session library, live servers) are not transcripts: pages show them
// without a `$`.
func TestDocExamplesReproduce(t *testing.T) {
	pages := repoGlob(t, "docs/*.md")
	pages = append([]string{"README.md"}, pages...)
	ran := 0
	for _, page := range pages {
		lastCode := -1
		for _, tr := range transcripts(t, page) {
			where := tr.page + ":" + strconv.Itoa(tr.line)
			if tr.command == "echo $?" {
				if lastCode < 0 || len(tr.want) == 0 {
					continue
				}
				if got := strconv.Itoa(lastCode); got != strings.TrimSpace(tr.want[0]) {
					t.Errorf("%s: exit status %s, the page says %s", where, got, tr.want[0])
				}
				continue
			}
			cmd, head := tr.command, -1
			if m := headPipe.FindStringSubmatch(cmd); m != nil {
				cmd = m[1]
				head, _ = strconv.Atoi(m[2])
			}
			// A trailing "# comment" is the page talking, not the shell.
			if i := strings.Index(cmd, "  #"); i >= 0 {
				cmd = strings.TrimSpace(cmd[:i])
			}
			args := strings.Fields(cmd)
			if len(args) < 2 || args[0] != "framescope" || strings.ContainsAny(cmd, "'\"|<>$@") {
				lastCode = -1
				continue
			}
			switch args[1] {
			case "check", "dump", "rules":
			default:
				lastCode = -1
				continue
			}
			res := runCLI(t, "", args[1:]...)
			lastCode = res.code
			ran++
			got := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
			if head >= 0 && len(got) > head {
				got = got[:head]
			}
			want := tr.want
			for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
				want = want[:len(want)-1]
			}
			// A transcript may stop early ("…" as its last line) when
			// the rest does not help the reader.
			if n := len(want); n > 0 && strings.TrimSpace(want[n-1]) == "…" {
				want = want[:n-1]
				if len(got) > len(want) {
					got = got[:len(want)]
				}
			}
			// The next `$ …` line begins where the output ends.
			for i := range max(len(got), len(want)) {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Errorf("%s: `%s` line %d:\n got: %q\npage: %q", where, tr.command, i+1, g, w)
					break
				}
			}
		}
	}
	if ran == 0 {
		t.Fatal("no transcript found in the README or docs/")
	}
}
