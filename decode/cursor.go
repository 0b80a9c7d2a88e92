package decode

// Cursor reads one JSON value front to back, in a single pass: a mapper
// enters the containers it needs and reads or skips each member there, so
// no byte is scanned twice. Raw.Get on a nested value cannot do that: each
// lookup scans its whole container again, and a value three levels down
// (a Gemini chunk's candidates[].content.parts[].text) is scanned once per
// level above it.
//
// It reads values a frame's scan has validated. It does not check the
// commas and colons between values again; on bytes that are not JSON it
// stops (Bad) and never panics, loops or allocates beyond a key with
// escapes.
//
// A container entered (Object, Array) is read to its end — Member or Elem
// until false — before the one around it goes on; a value that Member or
// Elem stopped at and the caller did not read is skipped by the next call.
type Cursor struct {
	data []byte
	i    int
	// pending: Member or Elem stopped at a value the caller has not read.
	pending bool
	bad     bool
}

// NewCursor returns a cursor at the start of the value r.
func NewCursor(r Raw) Cursor { return Cursor{data: r} }

// Bad reports whether the cursor met bytes that are not JSON (it stopped
// there: every later call reads nothing).
func (c *Cursor) Bad() bool { return c.bad }

func (c *Cursor) fail() {
	c.bad, c.pending, c.i = true, false, len(c.data)
}

// Kind is the kind of the value at the cursor (KindNone at the end).
func (c *Cursor) Kind() Kind {
	i := skipWS(c.data, c.i)
	if i >= len(c.data) {
		return KindNone
	}
	return Raw(c.data[i:]).Kind()
}

// Mark is where the value at the cursor starts: once it is read (entered
// and read to its end), Since(mark) returns it whole, as Value would have.
func (c *Cursor) Mark() int { return skipWS(c.data, c.i) }

// Since returns the bytes from mark to the cursor (nil once stopped).
func (c *Cursor) Since(mark int) Raw {
	if c.bad || mark < 0 || mark > c.i {
		return nil
	}
	return Raw(c.data[mark:c.i:c.i])
}

// Value reads the value at the cursor and returns it (nil at the end or
// on bytes that are not JSON).
func (c *Cursor) Value() Raw {
	c.pending = false
	if c.bad {
		return nil
	}
	i := skipWS(c.data, c.i)
	var end int
	var err error
	switch {
	case i >= len(c.data):
		err = errEOF(i)
	case c.data[i] == '"':
		end, _, err = scanString(c.data, i)
	case c.data[i] == '-' || c.data[i] >= '0' && c.data[i] <= '9':
		end, err = scanNumber(c.data, i)
	default:
		end, err = skipValue(c.data, i)
	}
	if err != nil {
		c.fail()
		return nil
	}
	c.i = end
	return Raw(c.data[i:end:end])
}

// Object enters the object at the cursor (Member then reads its members);
// false, the value left unread, when it is not an object.
func (c *Cursor) Object() bool { return c.enter('{') }

// Array enters the array at the cursor (Elem then steps through its
// elements); false, the value left unread, when it is not an array.
func (c *Cursor) Array() bool { return c.enter('[') }

func (c *Cursor) enter(open byte) bool {
	if c.bad {
		return false
	}
	i := skipWS(c.data, c.i)
	if i >= len(c.data) || c.data[i] != open {
		return false
	}
	c.pending = false
	c.i = i + 1
	return true
}

// next moves past an unread value and the comma after it; false, past
// the close, at the end of the container.
func (c *Cursor) next(close byte) bool {
	if c.pending {
		c.Value()
	}
	if c.bad {
		return false
	}
	i := skipWS(c.data, c.i)
	if i < len(c.data) && c.data[i] == ',' {
		i = skipWS(c.data, i+1)
	}
	switch {
	case i >= len(c.data):
		c.fail()
		return false
	case c.data[i] == close:
		c.i = i + 1
		return false
	}
	c.i = i
	return true
}

// Member steps to the next member of the object entered and returns its
// key (decoded: a key with escapes is a fresh slice), the cursor at its
// value; ok is false past the object's end.
func (c *Cursor) Member() (key []byte, ok bool) {
	if !c.next('}') {
		return nil, false
	}
	i := c.i
	if c.data[i] != '"' {
		c.fail()
		return nil, false
	}
	end, esc, err := scanString(c.data, i)
	if err != nil {
		c.fail()
		return nil, false
	}
	j := skipWS(c.data, end)
	if j >= len(c.data) || c.data[j] != ':' {
		c.fail()
		return nil, false
	}
	c.i, c.pending = j+1, true
	if esc {
		return []byte(unquote(c.data[i:end])), true
	}
	return c.data[i+1 : end-1], true
}

// Elem steps to the next element of the array entered, the cursor at it;
// false past the array's end.
func (c *Cursor) Elem() bool {
	if !c.next(']') {
		return false
	}
	c.pending = true
	return true
}
