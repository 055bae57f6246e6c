package silvergold

import (
	"bytes"
	"strconv"
)

// decodeMove reads a move in the form clients send it without reflection:
// one JSON object of the move's own fields, each at most once and named
// exactly, strings of printable ASCII without escapes, whole numbers of up
// to four digits, boxes as [row, col]. It reports false for anything else,
// which DecodeMove leaves to encoding/json and its errors; what it does read it
// reads as encoding/json would (TestDecodeMoveAsEncodingJSON). Every move
// is decoded once per request; through reflection that was 2% of the
// server's CPU in a load run (issue 27).
func decodeMove(b []byte) (Move, bool) {
	r := moveReader{b: b}
	var m Move
	str := func(dst *string, bit uint) (uint, bool) {
		var ok bool
		*dst, ok = r.str()
		return bit, ok
	}
	ok := r.object(func(key string) (bit uint, ok bool) {
		switch key {
		case "type":
			return str(&m.Type, 1<<0)
		case "card":
			return str(&m.Card, 1<<1)
		case "from":
			return str(&m.From, 1<<2)
		case "expedition":
			return str(&m.Expedition, 1<<3)
		case "seat":
			var seat int
			if seat, ok = r.int(); ok {
				m.Seat = &seat
			}
			return 1 << 4, ok
		case "cards":
			m.Cards, ok = list(&r, r.str)
			return 1 << 5, ok
		case "boxes":
			m.Boxes, ok = list(&r, r.pos)
			return 1 << 6, ok
		case "extra":
			m.Extra, ok = list(&r, r.extra)
			return 1 << 7, ok
		}
		return 0, false
	})
	if !ok || !r.end() {
		return Move{}, false
	}
	return m, true
}

// moveReader reads the JSON of a move from b, from i on.
type moveReader struct {
	b []byte
	i int
}

// space skips white space.
func (r *moveReader) space() {
	for r.i < len(r.b) && (r.b[r.i] == ' ' || r.b[r.i] == '\t' || r.b[r.i] == '\n' || r.b[r.i] == '\r') {
		r.i++
	}
}

// expect reads c after white space, if it is next.
func (r *moveReader) expect(c byte) bool {
	r.space()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// end reports whether nothing but white space is left.
func (r *moveReader) end() bool {
	r.space()
	return r.i == len(r.b)
}

// str reads a string of printable ASCII characters and no escapes.
func (r *moveReader) str() (string, bool) {
	if !r.expect('"') {
		return "", false
	}
	start := r.i
	for r.i < len(r.b) {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return string(r.b[start : r.i-1]), true
		case c < 0x20 || c > 0x7e || c == '\\':
			return "", false
		}
		r.i++
	}
	return "", false
}

// int reads a whole number of at most four digits, as JSON writes it.
func (r *moveReader) int() (int, bool) {
	r.space()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if n := r.i - digits; n == 0 || n > 4 || (n > 1 && r.b[digits] == '0') {
		return 0, false
	}
	v, err := strconv.Atoi(string(r.b[start:r.i]))
	return v, err == nil
}

// list reads an array with r, each element with elem: an empty array is
// an empty slice, as encoding/json makes it.
func list[T any](r *moveReader, elem func() (T, bool)) ([]T, bool) {
	if !r.expect('[') {
		return nil, false
	}
	out := []T{}
	if r.expect(']') {
		return out, true
	}
	for {
		v, ok := elem()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if r.expect(']') {
			return out, true
		}
		if !r.expect(',') {
			return nil, false
		}
	}
}

// pos reads a box, [row, col], as Pos.UnmarshalJSON does.
func (r *moveReader) pos() (Pos, bool) {
	r.space()
	end := bytes.IndexByte(r.b[r.i:], ']')
	if end < 0 {
		return Pos{}, false
	}
	row, col, ok := parsePos(r.b[r.i : r.i+end+1])
	r.i += end + 1
	return Pos{Row: row, Col: col}, ok
}

// object reads an object, the value of each member with field, which says
// which of the object's members it is (one bit of its own; 0 for none) and
// whether its value was read. A member named twice is not read.
func (r *moveReader) object(field func(key string) (bit uint, ok bool)) bool {
	if !r.expect('{') {
		return false
	}
	if r.expect('}') {
		return true
	}
	var seen uint
	for {
		key, ok := r.str()
		if !ok || !r.expect(':') {
			return false
		}
		bit, ok := field(key)
		if !ok || bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
		if r.expect('}') {
			return true
		}
		if !r.expect(',') {
			return false
		}
	}
}

// extra reads a box demanded by a red cross: {"card": ..., "box": [row,
// col]}.
func (r *moveReader) extra() (e Extra, ok bool) {
	ok = r.object(func(key string) (bit uint, ok bool) {
		switch key {
		case "card":
			e.Card, ok = r.str()
			return 1 << 0, ok
		case "box":
			e.Box, ok = r.pos()
			return 1 << 1, ok
		}
		return 0, false
	})
	return e, ok
}
