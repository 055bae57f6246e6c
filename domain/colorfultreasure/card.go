package colorfultreasure

import "fmt"

// Kind is what the face of a wonder card shows: a diamond, a key, a chest or
// a gem of one of the five colours.
type Kind int8

// The kinds of card. The gem colours follow the chest in a fixed order.
const (
	Diamond Kind = iota
	Key
	Chest
	Red
	Yellow
	Green
	Blue
	Purple
	NumKinds
)

// NumColours is the number of gem colours.
const NumColours = 5

// Colours are the gem kinds, in order.
var Colours = [NumColours]Kind{Red, Yellow, Green, Blue, Purple}

var kindNames = [NumKinds]string{"diamond", "key", "chest", "red", "yellow", "green", "blue", "purple"}

// String returns the kind's name as the API writes it ("diamond", "red", …).
func (k Kind) String() string {
	if k < 0 || k >= NumKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// IsGem reports whether k is a gem colour.
func (k Kind) IsGem() bool { return k >= Red && k < NumKinds }

// IsLock reports whether k is a key or a chest.
func (k Kind) IsLock() bool { return k == Key || k == Chest }

// colourIndex returns the gem colour's index 0..4.
func (k Kind) colourIndex() int { return int(k - Red) }

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if k < 0 || k >= NumKinds {
		return nil, fmt.Errorf("colorfultreasure: no kind %d", int(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("unknown kind %q: use diamond, key, chest, red, yellow, green, blue or purple", b)
	}
	*k = v
	return nil
}

// Pos is a place in the grid: a column (a wonder, 0..9 left to right) and a
// row (0 at the top).
type Pos struct {
	Column int `json:"column"`
	Row    int `json:"row"`
}

// String writes the place for error reasons.
func (p Pos) String() string { return fmt.Sprintf("(column %d, row %d)", p.Column, p.Row) }

// Card is one wonder card: the wonder it belongs to (its column) and what its
// face shows. Each wonder has at most one card of a kind, so the pair names a
// card.
type Card struct {
	Wonder int  `json:"w"`
	Kind   Kind `json:"k"`
}

// CardRef is a card as the API names it: the wonder's id and the kind.
type CardRef struct {
	Wonder string `json:"wonder"`
	Kind   Kind   `json:"kind"`
}
