package report

import "strings"

// sourceDocs are the public documents of docs/sources.md's Documents
// table, by the label a rule's clause starts with (the catalog's CLAUSE
// column): a CI format links each rule to its source. Labels of private
// specs (PC3 …, TL …, CF §n, MS …) and framescope's own have no link.
// TestSourceDocsMatchSourcesPage keeps it in step with the page.
var sourceDocs = []struct{ label, url string }{
	{"WHATWG SSE", "https://html.spec.whatwg.org/multipage/server-sent-events.html"},
	{"RFC 8259", "https://www.rfc-editor.org/info/rfc8259"},
	{"RFC 3629", "https://datatracker.ietf.org/doc/rfc3629/"},
	{"RFC 9110", "https://www.rfc-editor.org/info/rfc9110"},
	{"bus ", "https://github.com/viant/agently-core"},
	{"agently-core", "https://github.com/viant/agently-core"},
	{"v1.md", "https://github.com/trevor-nichols/openai-agents-saas-starter"},
	{"OpenAI docs", "https://developers.openai.com/api/docs/guides/streaming-responses"},
	{"OpenAI API ref", "https://platform.openai.com/docs/api-reference/responses-streaming"},
	{"OpenAI SDK", "https://github.com/openai/openai-python"},
	{"Anthropic docs", "https://platform.claude.com/docs/en/build-with-claude/streaming"},
	{"Anthropic SDK", "https://github.com/anthropics/anthropic-sdk-python"},
	{"AG-UI docs", "https://docs.ag-ui.com/concepts/events"},
	{"AG-UI", "https://github.com/ag-ui-protocol/ag-ui"},
	{"AI SDK docs", "https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol"},
	{"AI SDK", "https://github.com/vercel/ai"},
}

// sourceURL is the document a clause cites ("" when none is public).
func sourceURL(clause string) string {
	for _, d := range sourceDocs {
		if strings.HasPrefix(clause, d.label) {
			return d.url
		}
	}
	return ""
}
