package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"framescope/invariants/dialects"
	"framescope/invariants/machine"
	"framescope/sessions"
	"framescope/sessions/capture"
	"framescope/sessions/pipeline"
)

// The conformance kit: `framescope reference --export-tests DIR` writes
// captures and, after every input, the client view the reference machine
// expects, for a client team to run against its own client. The format is
// documented in docs/client-state-machine.md ("The conformance kit").

// KitFormat names the kit's format version.
const KitFormat = "framescope-client-kit/1"

// KitSource is a capture the kit exports.
type KitSource struct {
	Group string // probes, rules, examples: the case's folder in the kit
	Path  string // the capture's path in the source file system
	About string
}

// KitIndex is DIR/index.json.
type KitIndex struct {
	Format      string    `json:"format"`
	GeneratedBy string    `json:"generated_by"`
	Cases       []KitCase `json:"cases"`
}

// KitCase is one case of the index.
type KitCase struct {
	Name    string            `json:"name"`
	Capture string            `json:"capture"`
	Expect  map[string]string `json:"expect"`
	Source  string            `json:"source"`
	About   string            `json:"about,omitempty"`
}

// KitExpect is DIR/cases/GROUP/NAME.PROFILE.json: the expectations of one
// case for one client profile.
type KitExpect struct {
	Format       string    `json:"format"`
	Case         string    `json:"case"`
	Profile      string    `json:"profile"`
	ClientIdleMS int64     `json:"client_idle_ms"`
	Steps        []KitStep `json:"steps"`
}

// KitStep is one input and what the client shows after it.
type KitStep struct {
	// Input is a transport input or "frame".
	Input string `json:"input"`
	// Status is the HTTP status of an http_error.
	Status int `json:"status,omitempty"`
	// Frame, Offset, Length and Type describe a frame: its index, the byte
	// range of its event in the capture, and the input it is.
	Frame  *int   `json:"frame,omitempty"`
	Offset *int64 `json:"offset,omitempty"`
	Length *int64 `json:"length,omitempty"`
	Type   string `json:"type,omitempty"`
	// Delivered is false for a frame a real client never reads: it has
	// disconnected (user cancel, idle timer) or the response failed.
	Delivered *bool         `json:"delivered,omitempty"`
	State     machine.State `json:"state"`
	// View is the client view after the input, when it changed
	// (machine.Run.Conformance, as JSON).
	View json.RawMessage `json:"view,omitempty"`
}

// KitOptions tune an export.
type KitOptions struct {
	// Profiles are the profiles to write expectations for (default: the
	// machine's reference profile).
	Profiles []machine.Profile
	// ClientIdle is the idle window replayed on timed captures.
	ClientIdle time.Duration
	// Readme is written as DIR/README.md.
	Readme []byte
	// Force writes into a non-empty DIR, replacing only the regular files
	// the kit writes (never a link or a directory in their place).
	Force bool
}

// KitSources lists the captures of a source tree laid out like this
// repository: testdata/reference/probes, testdata/examples and the PC3 rule
// captures of testdata/rules.
func KitSources(src fs.FS) ([]KitSource, error) {
	var out []KitSource
	about := map[string]string{}
	if b, err := fs.ReadFile(src, "testdata/reference/probes/README.md"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "| `") {
				cells := strings.SplitN(l, "|", 4)
				if len(cells) == 4 {
					about[strings.Trim(strings.TrimSpace(cells[1]), "`")] = strings.TrimSpace(cells[2])
				}
			}
		}
	}
	for _, g := range []struct{ group, dir string }{
		{"probes", "testdata/reference/probes"},
		{"examples", "testdata/examples"},
		{"rules", "testdata/rules"},
	} {
		entries, err := fs.ReadDir(src, g.dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name := e.Name()
			ext := path.Ext(name)
			if e.IsDir() || (ext != ".sse" && ext != ".jsonl" && ext != ".har" && ext != ".ndjson") {
				continue
			}
			p := path.Join(g.dir, name)
			if nonSuccess(src, p) {
				continue // a non-2xx response: a client reads no stream from it
			}
			a := about[name]
			if a == "" {
				a = wantAbout(src, p+".want")
			}
			out = append(out, KitSource{Group: g.group, Path: p, About: a})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no captures found")
	}
	return out, nil
}

// wantAbout is the first comment line of a rule capture's .want file.
func wantAbout(src fs.FS, p string) string {
	b, err := fs.ReadFile(src, p)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "# ") && !strings.HasPrefix(l, "# idle ") && !strings.HasPrefix(l, "# ttfe ") && l != "# registry" {
			return strings.TrimPrefix(l, "# ")
		}
	}
	return ""
}

// ExportKit writes the conformance kit for sources (read from src) into dir.
// Every case is computed before a byte is written; dir must be empty (or
// not yet exist) unless opts.Force, and nothing is ever written through a
// symbolic link (reference_replay_export_write.go: writeKit).
func ExportKit(dir string, src fs.FS, sources []KitSource, opts KitOptions) (*KitIndex, error) {
	profiles := opts.Profiles
	if len(profiles) == 0 {
		_, m := dialects.Machine()
		profiles = m.Profiles()[:1]
	}
	// Refuse a bad DIR before the (seconds of) work.
	if err := checkKitDir(dir, opts.Force); err != nil {
		return nil, err
	}
	idx := &KitIndex{Format: KitFormat, GeneratedBy: "framescope reference --export-tests (docs/client-state-machine.md, The conformance kit)"}
	sort.Slice(sources, func(i, j int) bool {
		if sources[i].Group != sources[j].Group {
			return kitGroupRank(sources[i].Group) < kitGroupRank(sources[j].Group)
		}
		return sources[i].Path < sources[j].Path
	})
	var files []kitFile
	for _, s := range sources {
		kc, fl, err := exportCase(src, s, profiles, opts.ClientIdle)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path, err)
		}
		idx.Cases = append(idx.Cases, kc)
		files = append(files, fl...)
	}
	b, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return nil, err
	}
	files = append(files, kitFile{"index.json", append(b, '\n')})
	if len(opts.Readme) > 0 {
		files = append(files, kitFile{"README.md", opts.Readme})
	}
	if err := writeKit(dir, files, opts.Force); err != nil {
		return nil, err
	}
	return idx, nil
}

func kitGroupRank(g string) int {
	switch g {
	case "probes":
		return 0
	case "examples":
		return 1
	}
	return 2
}

// nonSuccess reports a capture of a non-2xx response (its body is not
// read as SSE: pipeline_status.go).
func nonSuccess(src fs.FS, p string) bool {
	if ext := path.Ext(p); ext != ".jsonl" && ext != ".har" {
		return false
	}
	c, err := openFS(src, p)
	if err != nil {
		return false
	}
	defer c.Close()
	return pipeline.StatusFailed(c.Meta())
}

func openFS(src fs.FS, p string) (sessions.Capture, error) {
	f, err := src.Open(p)
	if err != nil {
		return nil, err
	}
	c, err := capture.OpenReadCloser(p, f, capture.OpenOptions{Entry: -1})
	if err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

// captureBytes reads a capture's stream bytes as they reached the client.
func captureBytes(src fs.FS, p string) ([]byte, error) {
	c, err := openFS(src, p)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var b bytes.Buffer
	for {
		ch, err := c.Next()
		if err == io.EOF {
			return b.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		b.Write(ch.Data)
	}
}

func exportCase(src fs.FS, s KitSource, profiles []machine.Profile, idle time.Duration) (KitCase, []kitFile, error) {
	name := path.Base(s.Path)
	// cases/GROUP/NAME.sse, or NAME.jsonl.sse for a capture in another
	// format (the bytes are always SSE); expectations beside it.
	rel := path.Join("cases", s.Group, strings.TrimSuffix(name, ".sse"))
	kc := KitCase{Name: name, Capture: rel + ".sse", Expect: map[string]string{}, Source: s.Path, About: s.About}
	raw, err := captureBytes(src, s.Path)
	if err != nil {
		return kc, nil, err
	}
	c, err := openFS(src, s.Path)
	if err != nil {
		return kc, nil, err
	}
	defer c.Close()
	meta := c.Meta()
	expects := make([]*KitExpect, len(profiles))
	gone := make([]bool, len(profiles))
	last := make([][]byte, len(profiles))
	for i, p := range profiles {
		expects[i] = &KitExpect{Format: KitFormat, Case: name, Profile: string(p), ClientIdleMS: idle.Milliseconds()}
	}
	opts := ReferenceOptions{Profiles: profiles, ClientIdle: idle}
	_, m := machineFor(&opts)
	_, err = RunReference(c, opts, func(st ReferenceStep) {
		for i, r := range st.Runs {
			ks := KitStep{Input: string(st.Input), State: r.State()}
			if st.Frame != nil {
				f := st.Frame
				idx, off, n := f.Index, f.Offset, f.Size
				delivered := !gone[i]
				ks.Input, ks.Frame, ks.Offset, ks.Length, ks.Type, ks.Delivered = "frame", &idx, &off, &n, string(st.Input), &delivered
			} else if st.Input == machine.InHTTPError {
				ks.Status = meta.Status
			}
			if t := st.Steps[i].Transition; t != nil {
				if changes, reads := m.Delivery(t.Action); changes {
					gone[i] = !reads
				}
			}
			vb, _ := json.Marshal(r.Conformance())
			if !bytes.Equal(vb, last[i]) {
				ks.View = vb
				last[i] = vb
			}
			expects[i].Steps = append(expects[i].Steps, ks)
		}
	})
	if err != nil {
		return kc, nil, err
	}
	files := []kitFile{{kc.Capture, raw}}
	for i, p := range profiles {
		b, err := json.MarshalIndent(expects[i], "", " ")
		if err != nil {
			return kc, nil, err
		}
		file := rel + "." + string(p) + ".json"
		files = append(files, kitFile{file, append(b, '\n')})
		kc.Expect[string(p)] = file
	}
	return kc, files, nil
}
