package silvergold

import (
	"bytes"
	"strconv"
)

// decodeMove reads a move in the form clients send it without reflection:
// one JSON object of the move's own fields, each at most once and named
// exactly, strings of printable ASCII without escapes, whole numbers of up
// to four digits, boxes as [row, col]. ok is false for anything else, which
// DecodeMove leaves to encoding/json and its errors; what it does read it
// reads as encoding/json would (TestDecodeMoveAsEncodingJSON). Every move
// is decoded once per request; through reflection that was 2% of the
// server's CPU in a load run (issue 27).
func decodeMove(b []byte) (m Move, ok bool) {
	r := moveReader{b: b}
	var seen uint
	if !r.expect('{') {
		return Move{}, false
	}
	if r.expect('}') {
		return m, r.end()
	}
	for {
		key, ok := r.str()
		if !ok || !r.expect(':') {
			return Move{}, false
		}
		var bit uint
		switch key {
		case "type":
			bit = 1 << 0
			m.Type, ok = r.str()
		case "seat":
			bit = 1 << 1
			var seat int
			if seat, ok = r.int(); ok {
				m.Seat = &seat
			}
		case "cards":
			bit = 1 << 2
			m.Cards = []string{}
			ok = r.list(func() bool {
				c, ok := r.str()
				m.Cards = append(m.Cards, c)
				return ok
			})
		case "card":
			bit = 1 << 3
			m.Card, ok = r.str()
		case "boxes":
			bit = 1 << 4
			m.Boxes = []Pos{}
			ok = r.list(func() bool {
				p, ok := r.pos()
				m.Boxes = append(m.Boxes, p)
				return ok
			})
		case "extra":
			bit = 1 << 5
			m.Extra = []Extra{}
			ok = r.list(func() bool {
				e, ok := r.extra()
				m.Extra = append(m.Extra, e)
				return ok
			})
		case "from":
			bit = 1 << 6
			m.From, ok = r.str()
		case "expedition":
			bit = 1 << 7
			m.Expedition, ok = r.str()
		default:
			return Move{}, false
		}
		if !ok || seen&bit != 0 {
			return Move{}, false
		}
		seen |= bit
		if r.expect('}') {
			return m, r.end()
		}
		if !r.expect(',') {
			return Move{}, false
		}
	}
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

// list reads an array, each element with elem.
func (r *moveReader) list(elem func() bool) bool {
	if !r.expect('[') {
		return false
	}
	if r.expect(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if r.expect(']') {
			return true
		}
		if !r.expect(',') {
			return false
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

// extra reads a box demanded by a red cross: {"card": ..., "box": [row,
// col]}.
func (r *moveReader) extra() (e Extra, ok bool) {
	var seen uint
	if !r.expect('{') {
		return Extra{}, false
	}
	if r.expect('}') {
		return e, true
	}
	for {
		key, ok := r.str()
		if !ok || !r.expect(':') {
			return Extra{}, false
		}
		var bit uint
		switch key {
		case "card":
			bit = 1 << 0
			e.Card, ok = r.str()
		case "box":
			bit = 1 << 1
			e.Box, ok = r.pos()
		default:
			return Extra{}, false
		}
		if !ok || seen&bit != 0 {
			return Extra{}, false
		}
		seen |= bit
		if r.expect('}') {
			return e, true
		}
		if !r.expect(',') {
			return Extra{}, false
		}
	}
}
