// Package silvergold knows every rule of Silver & Gold: the card catalog, the
// expedition patterns, the state of a game, the moves that change it, and the
// final scoring. It does no I/O.
package silvergold

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Colour is a treasure card's colour. The order is the tie-break order.
type Colour uint8

// The four colours, in tie-break order.
const (
	Grey Colour = iota
	Green
	Orange
	Purple
)

// NumColours is the number of treasure card colours.
const NumColours = 4

// Colours lists the colours in tie-break order.
var Colours = [NumColours]Colour{Grey, Green, Orange, Purple}

var colourNames = [NumColours]string{"grey", "green", "orange", "purple"}

// String returns the colour's lower-case name.
func (c Colour) String() string {
	if int(c) < len(colourNames) {
		return colourNames[c]
	}
	return fmt.Sprintf("colour(%d)", c)
}

// Message is the colour's name as a term of sentences.
func (c Colour) Message() i18n.Message { return i18n.M("sg.colour." + c.String()) }

// ParseColour turns "grey", "green", "orange" or "purple" into a Colour.
func ParseColour(s string) (Colour, bool) {
	for i, n := range colourNames {
		if n == s {
			return Colour(i), true
		}
	}
	return 0, false
}

// MarshalText writes the colour's name.
func (c Colour) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a colour's name.
func (c *Colour) UnmarshalText(b []byte) error {
	v, ok := ParseColour(string(b))
	if !ok {
		return fmt.Errorf("unknown colour %q", b)
	}
	*c = v
	return nil
}

// Boxes is the number of boxes a card of this colour has; it equals its value.
func (c Colour) Boxes() int { return [NumColours]int{8, 10, 12, 14}[c] }

// SealPoints is what a seal naming this colour is worth per completed card.
func (c Colour) SealPoints() int { return [NumColours]int{1, 1, 2, 2}[c] }

// Symbol is what a cell of a card's grid shows.
type Symbol uint8

// The symbols of the catalog notation: '.' no box, 'o' blank box, 'c' coin,
// 'p' palm tree, 'x' red cross.
const (
	NoBox Symbol = iota
	Blank
	Coin
	Palm
	Cross
)

// Rune returns the catalog notation of the symbol.
func (s Symbol) Rune() rune { return [...]rune{'.', 'o', 'c', 'p', 'x'}[s] }

// Grid bounds: every card fits in 4 rows by 4 columns. Positions are numbered
// row*GridStride+col in a Mask.
const (
	MaxRows    = 4
	MaxCols    = 4
	GridStride = 4
)

// Pos is a box position on a card, from the top left of its grid. In JSON it
// is [row, col].
type Pos struct {
	Row, Col int
}

// Bit returns the position's bit in a Mask; ok is false when it lies off any grid.
func (p Pos) Bit() (Mask, bool) {
	if p.Row < 0 || p.Row >= MaxRows || p.Col < 0 || p.Col >= MaxCols {
		return 0, false
	}
	return 1 << (p.Row*GridStride + p.Col), true
}

// String writes "(row,col)".
func (p Pos) String() string {
	if p.Row >= 0 && p.Row < MaxRows && p.Col >= 0 && p.Col < MaxCols {
		return posStrings[p.Row][p.Col] // every box of a listing's choices is labelled so
	}
	return "(" + strconv.Itoa(p.Row) + "," + strconv.Itoa(p.Col) + ")"
}

// posStrings are the boxes of a grid as Pos.String writes them.
var posStrings = func() (s [MaxRows][MaxCols]string) {
	for r := range MaxRows {
		for c := range MaxCols {
			s[r][c] = "(" + strconv.Itoa(r) + "," + strconv.Itoa(c) + ")"
		}
	}
	return s
}()

// MarshalJSON writes [row, col]. Views list every crossed box, so it is
// written by hand rather than through reflection.
func (p Pos) MarshalJSON() ([]byte, error) { return appendPos(make([]byte, 0, 8), p), nil }

// UnmarshalJSON reads [row, col]. The usual form, two small integers, is
// read directly; anything else goes through encoding/json and its errors.
func (p *Pos) UnmarshalJSON(b []byte) error {
	if row, col, ok := parsePos(b); ok {
		p.Row, p.Col = row, col
		return nil
	}
	var a [2]int
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("a box is [row, col]: %w", err)
	}
	p.Row, p.Col = a[0], a[1]
	return nil
}

// Mask is a set of grid positions, bit row*4+col.
type Mask uint16

// Count returns the number of positions in the set.
func (m Mask) Count() int { return bits.OnesCount16(uint16(m)) }

// Has reports whether p is in the set.
func (m Mask) Has(p Pos) bool {
	b, ok := p.Bit()
	return ok && m&b != 0
}

// Positions lists the set's positions in reading order.
func (m Mask) Positions() []Pos { return m.appendPositions(make([]Pos, 0, m.Count())) }

// bitPos is the position of a single-bit mask.
func bitPos(bit Mask) Pos {
	i := bits.TrailingZeros16(uint16(bit))
	return Pos{Row: i / GridStride, Col: i % GridStride}
}

// appendPositions appends the set's positions in reading order to dst.
func (m Mask) appendPositions(dst []Pos) []Pos {
	for v := m; v != 0; v &= v - 1 {
		dst = append(dst, bitPos(v&-v))
	}
	return dst
}

// Seal is the bonus printed on some cards: Points per completed card of Colour.
type Seal struct {
	Colour Colour `json:"colour"`
	Points int    `json:"points"`
}

// Card is one treasure card of a catalog.
type Card struct {
	ID     string
	Colour Colour
	Value  int
	Seal   *Seal // nil when the card has none
	Rows   int   // grid height, 1..MaxRows
	Cols   int   // grid width, 1..MaxCols
	Cells  [MaxRows][MaxCols]Symbol

	// Precomputed sets of positions.
	Boxes   Mask // every box
	Coins   Mask
	Palms   Mask
	Crosses Mask
}

// Symbol returns what the card shows at p (NoBox off the grid).
func (c *Card) Symbol(p Pos) Symbol {
	if p.Row < 0 || p.Row >= MaxRows || p.Col < 0 || p.Col >= MaxCols {
		return NoBox
	}
	return c.Cells[p.Row][p.Col]
}

// GridRows returns the grid in catalog notation, one string per row.
func (c *Card) GridRows() []string {
	rows := make([]string, c.Rows)
	for r := 0; r < c.Rows; r++ {
		b := make([]rune, c.Cols)
		for col := 0; col < c.Cols; col++ {
			b[col] = c.Cells[r][col].Rune()
		}
		rows[r] = string(b)
	}
	return rows
}

// parsePos reads "[row,col]" (with optional spaces) where both are integers of
// at most 4 digits, as every box on a card is; ok is false for anything else.
func parsePos(b []byte) (row, col int, ok bool) {
	i := 0
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	num := func() (int, bool) {
		neg := i < len(b) && b[i] == '-'
		if neg {
			i++
		}
		start, n := i, 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 4 {
			n = n*10 + int(b[i]-'0')
			i++
		}
		if i == start || (i < len(b) && b[i] >= '0' && b[i] <= '9') || (b[start] == '0' && i-start > 1) {
			return 0, false
		}
		if neg {
			n = -n
		}
		return n, true
	}
	expect := func(c byte) bool {
		skip()
		if i < len(b) && b[i] == c {
			i++
			return true
		}
		return false
	}
	if !expect('[') {
		return 0, 0, false
	}
	skip()
	if row, ok = num(); !ok || !expect(',') {
		return 0, 0, false
	}
	skip()
	if col, ok = num(); !ok || !expect(']') {
		return 0, 0, false
	}
	skip()
	return row, col, i == len(b)
}
