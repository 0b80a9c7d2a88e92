package sessions

import "runtime/debug"

// Version is framescope's version, from the build info: the main module's
// version (a release tag, or the pseudo-version go build stamps from the
// VCS), else the VCS revision, else "devel". It is printed by
// `framescope --version`, sent in the User-Agent of live connections and
// written as "version" in the JSON report.
var Version = buildVersion(debug.ReadBuildInfo())

func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
