package silvergold

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Pattern is one of the six shapes printed on the expedition cards.
type Pattern uint8

// The six expedition patterns.
const (
	Domino      Pattern = iota // D2: two boxes side by side
	Straight3                  // I3: three in a line
	Bent3                      // L3: three in an L
	TFour                      // T4: three in a line and one below the middle
	LFour                      // L4: three in a line and one beside an end
	Square4                    // O4: two by two
	NumPatterns                // how many patterns there are
)

// A pattern's name for people is in the catalogs, as sg.pattern.<code>.
type patternInfo struct {
	code   string
	copies int
	cells  []Pos
}

var patterns = [NumPatterns]patternInfo{
	Domino:    {"D2", 1, []Pos{{0, 0}, {0, 1}}},
	Straight3: {"I3", 2, []Pos{{0, 0}, {0, 1}, {0, 2}}},
	Bent3:     {"L3", 2, []Pos{{0, 0}, {1, 0}, {1, 1}}},
	TFour:     {"T4", 1, []Pos{{0, 0}, {0, 1}, {0, 2}, {1, 1}}},
	LFour:     {"L4", 1, []Pos{{0, 0}, {1, 0}, {2, 0}, {2, 1}}},
	Square4:   {"O4", 1, []Pos{{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
}

// ExpeditionDeck is the 8 expedition cards: every pattern as often as it has copies.
var ExpeditionDeck = func() []Pattern {
	var d []Pattern
	for p := Pattern(0); p < NumPatterns; p++ {
		for i := 0; i < patterns[p].copies; i++ {
			d = append(d, p)
		}
	}
	return d
}()

// Code is the pattern's short name used in moves and views ("T4").
func (p Pattern) Code() string { return patterns[p].code }

// Name is the pattern's name for people in English ("T-four").
func (p Pattern) Name() string { return i18n.Text(p.Message()) }

// Message is the pattern's name for people, as a term of sentences.
func (p Pattern) Message() i18n.Message { return i18n.Message{Key: patternKeys[p]} }

// patternKeys are the patterns' message keys, made once: every status event
// names the pattern face up.
var patternKeys = func() (k [NumPatterns]string) {
	for p := Pattern(0); p < NumPatterns; p++ {
		k[p] = "sg.pattern." + patterns[p].code
	}
	return k
}()

// patternCodes lists every pattern's code, for a refusal naming them.
func patternCodes() string {
	codes := make([]string, NumPatterns)
	for p := Pattern(0); p < NumPatterns; p++ {
		codes[p] = p.Code()
	}
	return strings.Join(codes[:], ", ")
}

// Copies is the number of expedition cards that show the pattern.
func (p Pattern) Copies() int { return patterns[p].copies }

// Size is the number of boxes of the pattern.
func (p Pattern) Size() int { return len(patterns[p].cells) }

// Cells are the pattern's boxes as printed on the expedition card.
func (p Pattern) Cells() []Pos { return append([]Pos(nil), patterns[p].cells...) }

// String returns the code.
func (p Pattern) String() string {
	if p < NumPatterns {
		return p.Code()
	}
	return fmt.Sprintf("pattern(%d)", p)
}

// ParsePattern reads a pattern code such as "T4".
func ParsePattern(s string) (Pattern, bool) {
	for p := Pattern(0); p < NumPatterns; p++ {
		if patterns[p].code == s {
			return p, true
		}
	}
	return 0, false
}

// orientations holds, per pattern, its distinct shapes under the 8 rotations
// and mirror images, each normalised to the top-left corner of the grid.
var orientations = func() (o [NumPatterns][]Mask) {
	for p := Pattern(0); p < NumPatterns; p++ {
		seen := map[Mask]bool{}
		for t := 0; t < 8; t++ {
			m := orient(patterns[p].cells, t)
			if !seen[m] {
				seen[m] = true
				o[p] = append(o[p], m)
			}
		}
	}
	return o
}()

// orient applies symmetry t (bit 0: mirror; bits 1-2: quarter turns) to cells
// and returns the result normalised to the top-left corner.
func orient(cells []Pos, t int) Mask {
	pts := make([]Pos, len(cells))
	minR, minC := 1<<30, 1<<30
	for i, c := range cells {
		r, col := c.Row, c.Col
		if t&1 != 0 {
			col = -col
		}
		for k := 0; k < t>>1; k++ {
			r, col = col, -r
		}
		pts[i] = Pos{r, col}
		minR, minC = min(minR, r), min(minC, col)
	}
	var m Mask
	for _, p := range pts {
		b, _ := Pos{p.Row - minR, p.Col - minC}.Bit()
		m |= b
	}
	return m
}

// Orientations returns the distinct shapes of the pattern, normalised to the
// top-left corner (1 for the square, 2 for the domino, 4 for the T, 8 for the L-four).
func (p Pattern) Orientations() []Mask { return append([]Mask(nil), orientations[p]...) }

// normalise shifts a non-empty mask to the top-left corner of the grid.
func normalise(m Mask) Mask {
	if m == 0 {
		return 0
	}
	minR, minC := MaxRows, MaxCols
	for v := uint16(m); v != 0; v &= v - 1 {
		i := bits.TrailingZeros16(v)
		minR, minC = min(minR, i/GridStride), min(minC, i%GridStride)
	}
	return m >> (minR*GridStride + minC)
}

// Matches reports whether the set of boxes m is the pattern in some orientation.
func (p Pattern) Matches(m Mask) bool {
	n := normalise(m)
	for _, o := range orientations[p] {
		if o == n {
			return true
		}
	}
	return false
}

// derivedData is what a catalog precomputes for fast move checks.
type derivedData struct {
	// placements[card][pattern] lists every distinct way the pattern covers
	// boxes of the card, ignoring what is crossed.
	placements [][NumPatterns][]Mask
	// grids[card] is the card's grid in catalog notation, as views show it.
	grids [][]string
	// pieces are the bytes of crossing listings' pieces, made when first
	// listed (crossPieces).
	pieces *crossPieces
}

// derive precomputes the placements of every pattern on every card.
func (c *Catalog) derive() {
	c.derived.placements = make([][NumPatterns][]Mask, len(c.Cards))
	c.derived.grids = make([][]string, len(c.Cards))
	c.derived.pieces = &crossPieces{cards: make([]cardPieces, len(c.Cards))}
	for i := range c.Cards {
		c.derived.grids[i] = c.Cards[i].GridRows()
		boxes := c.Cards[i].Boxes
		for p := Pattern(0); p < NumPatterns; p++ {
			for _, o := range orientations[p] {
				for dr := 0; dr < MaxRows; dr++ {
					for dc := 0; dc < MaxCols; dc++ {
						m, ok := shift(o, dr, dc)
						if ok && m&boxes == m {
							c.derived.placements[i][p] = append(c.derived.placements[i][p], m)
						}
					}
				}
			}
		}
	}
}

// shift moves a normalised mask down dr rows and right dc columns; ok is false
// when part of it would leave the grid.
func shift(m Mask, dr, dc int) (Mask, bool) {
	var out Mask
	for v := uint16(m); v != 0; v &= v - 1 {
		i := bits.TrailingZeros16(v)
		r, c := i/GridStride+dr, i%GridStride+dc
		if r >= MaxRows || c >= MaxCols {
			return 0, false
		}
		out |= 1 << (r*GridStride + c)
	}
	return out, true
}

// Placements returns every distinct placement of pattern p on card i of the
// catalog, whatever is crossed.
func (c *Catalog) Placements(card int, p Pattern) []Mask {
	return c.derived.placements[card][p]
}
