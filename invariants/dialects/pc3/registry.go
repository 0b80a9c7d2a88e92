package pc3

// The status-event registry (§5.4): the YAML fragments PC3's platform
// loads at boot, read here so that a status frame's event_id can be
// checked against them (status-unregistered, -deprecated, -suppressed) and
// the inspector's Status pane can show each id's verdict. It lives with
// PC3, the only dialect that names status events by id: yaml.v3 stays out
// of the floor every dialect imports.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"gopkg.in/yaml.v3"
)

// StatusIDPattern is a status id: dot-separated segments of a lower-case
// letter then lower-case letters, digits and underscores.
var StatusIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// RegistryEntry is one typed status event of the registry (§5.4).
type RegistryEntry struct {
	ID               string
	Description      string
	RenderKey        string
	Policy           string // forward | transform | suppress | batch
	EmitterSubagents []string
	Lifecycle        string // active | deprecated
	File             string // fragment it came from
	Line             int
}

// Registry is the merged status-event registry.
type Registry struct {
	entries map[string]RegistryEntry
	Files   []string
}

// Lookup returns the entry for an event_id.
func (r *Registry) Lookup(id string) (RegistryEntry, bool) {
	e, ok := r.entries[id]
	return e, ok
}

// Len is the number of entries.
func (r *Registry) Len() int { return len(r.entries) }

// LoadRegistry reads DIR/platform/status_events.yaml and
// DIR/verticals/*/status_events.yaml and merges them. A malformed entry, or
// an id defined twice (even across fragments), fails loud, naming the
// file(s) and line(s) as the platform loader does at boot.
func LoadRegistry(dir string) (*Registry, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("registry: %s is not a directory", dir)
	}
	var files []string
	platform := filepath.Join(dir, "platform", "status_events.yaml")
	if _, err := os.Stat(platform); err == nil {
		files = append(files, platform)
	}
	verticals, _ := filepath.Glob(filepath.Join(dir, "verticals", "*", "status_events.yaml"))
	sort.Strings(verticals)
	files = append(files, verticals...)
	if len(files) == 0 {
		return nil, fmt.Errorf("registry: %s has no platform/status_events.yaml or verticals/*/status_events.yaml", dir)
	}
	reg := &Registry{entries: map[string]RegistryEntry{}, Files: files}
	var errs []error
	for _, file := range files {
		errs = append(errs, reg.loadFragment(file)...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return reg, nil
}

type rawEntry struct {
	ID               *string  `yaml:"id"`
	Description      string   `yaml:"description"`
	DefaultRenderKey string   `yaml:"default_render_key"`
	DefaultPolicy    string   `yaml:"default_policy"`
	EmitterSubagents []string `yaml:"emitter_subagents"`
	Lifecycle        string   `yaml:"lifecycle"`
}

func (r *Registry) loadFragment(file string) []error {
	data, err := os.ReadFile(file)
	if err != nil {
		return []error{fmt.Errorf("registry: %w", err)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return []error{fmt.Errorf("registry: %s: %v", file, err)}
	}
	if len(doc.Content) == 0 {
		return nil // an empty fragment declares nothing
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return []error{fmt.Errorf("registry: %s:%d: want a list of entries", file, list.Line)}
	}
	var errs []error
	for i, node := range list.Content {
		var raw rawEntry
		if err := node.Decode(&raw); err != nil {
			errs = append(errs, fmt.Errorf("registry: %s:%d: entry %d: %v", file, node.Line, i, err))
			continue
		}
		where := fmt.Sprintf("%s:%d", file, node.Line)
		if raw.ID == nil || *raw.ID == "" {
			errs = append(errs, fmt.Errorf("registry: %s: entry %d has no id", where, i))
			continue
		}
		id := *raw.ID
		if !StatusIDPattern.MatchString(id) {
			errs = append(errs, fmt.Errorf("registry: %s: id %q is not an identifier (want %s)", where, id, StatusIDPattern))
		}
		switch raw.DefaultPolicy {
		case "forward", "transform", "suppress", "batch":
		case "":
			errs = append(errs, fmt.Errorf("registry: %s: %s has no default_policy", where, id))
		default:
			errs = append(errs, fmt.Errorf("registry: %s: %s has default_policy %q (want forward, transform, suppress or batch)", where, id, raw.DefaultPolicy))
		}
		lifecycle := raw.Lifecycle
		switch lifecycle {
		case "active", "deprecated":
		case "":
			lifecycle = "active"
		default:
			errs = append(errs, fmt.Errorf("registry: %s: %s has lifecycle %q (want active or deprecated)", where, id, raw.Lifecycle))
		}
		if prev, dup := r.entries[id]; dup {
			errs = append(errs, fmt.Errorf("registry: id %q is defined twice: %s:%d and %s", id, prev.File, prev.Line, where))
			continue
		}
		r.entries[id] = RegistryEntry{
			ID: id, Description: raw.Description, RenderKey: raw.DefaultRenderKey, Policy: raw.DefaultPolicy,
			EmitterSubagents: raw.EmitterSubagents, Lifecycle: lifecycle, File: file, Line: node.Line,
		}
	}
	return errs
}
