package aisdkui

import (
	"framescope/decode"
	"framescope/invariants"
)

// fields checks one chunk against uiMessageChunkSchema: a required field
// must be present with its JSON type, an optional one (zod .optional())
// absent or of its type — null is neither, since JSON.stringify drops
// undefined. The client validates every chunk against this schema and a
// chunk that fails ends the stream with an error, so each fault is
// payload-malformed. The first fault of a frame is reported (one alarm per
// frame); nothing is formatted unless there is a fault.
type fields struct {
	f   *decode.Frame
	m   *invariants.Mapping
	typ decode.Raw // the chunk type, named in the message
	bad bool
}

func (c *fields) fault(field string, v decode.Raw, want string) {
	if c.bad {
		return
	}
	c.bad = true
	name, _ := c.typ.Str()
	c.m.Malformed(name, field+" is "+invariants.KindName(v)+", want "+want)
}

func (c *fields) str(field string) decode.Raw {
	v := c.f.Get(field)
	if v.Kind() != decode.KindString {
		c.fault(field, v, "a string")
	}
	return v
}

func (c *fields) boolean(field string) {
	if v := c.f.Get(field); v.Kind() != decode.KindBool {
		c.fault(field, v, "a boolean")
	}
}

func (c *fields) optStr(names ...string) {
	for _, n := range names {
		if v := c.f.Get(n); v != nil && v.Kind() != decode.KindString {
			c.fault(n, v, "a string when present")
		}
	}
}

func (c *fields) optBool(names ...string) {
	for _, n := range names {
		if v := c.f.Get(n); v != nil && v.Kind() != decode.KindBool {
			c.fault(n, v, "a boolean when present")
		}
	}
}

func (c *fields) optObject(names ...string) {
	for _, n := range names {
		if v := c.f.Get(n); v != nil && v.Kind() != decode.KindObject {
			c.fault(n, v, "an object when present")
		}
	}
}

// providerMetadata checks the optional providerMetadata field: the schema's
// providerMetadataSchema is a record of records (provider name → an object
// of JSON values), so each member must be an object too.
func (c *fields) providerMetadata() {
	v := c.f.Get("providerMetadata")
	if v == nil {
		return
	}
	if v.Kind() != decode.KindObject {
		c.fault("providerMetadata", v, "an object when present")
		return
	}
	// The frame decoded, so its JSON is valid: the trusted iterator reads
	// it without allocating (pydantic-ai puts providerMetadata on every
	// delta).
	it := v.Members()
	for {
		key, _, inner, ok := it.Next()
		if !ok {
			return
		}
		if inner.Kind() != decode.KindObject {
			c.fault("providerMetadata."+decode.Clip(string(key), 40), inner, "an object (providerMetadata maps each provider to an object)")
			return
		}
	}
}

// toolCall checks the optional fields every tool-input chunk may carry.
func (c *fields) toolCall() {
	c.optBool("providerExecuted", "dynamic")
	c.optStr("title")
	c.providerMetadata()
	c.optObject("toolMetadata")
}

// finishReasons is the enum of finish.finishReason.
var finishReasons = []string{"stop", "length", "content-filter", "tool-calls", "error", "other"}
