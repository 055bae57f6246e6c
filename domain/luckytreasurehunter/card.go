package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/treasury-games/treasury/domain/i18n"
)

// Treasure is one of the five treasure types.
type Treasure uint8

// The five treasure types, in the order the rulebook lists them.
const (
	Silver Treasure = iota // silver coins
	Gold                   // gold bars
	Pearl                  // pearls
	Ruby                   // rubies
	Jade                   // jade fish
	NumTreasures
)

var treasureNames = [NumTreasures]string{"silver", "gold", "pearl", "ruby", "jade"}

// String returns the treasure's name as the API writes it ("silver", "gold",
// "pearl", "ruby", "jade").
func (t Treasure) String() string {
	if t < NumTreasures {
		return treasureNames[t]
	}
	return fmt.Sprintf("treasure(%d)", uint8(t))
}

// Letter is the treasure's letter in the test notation: s g p r j.
func (t Treasure) Letter() byte { return "sgprj"[t] }

// ParseTreasure reads a treasure name.
func ParseTreasure(s string) (Treasure, bool) {
	for i, n := range treasureNames {
		if s == n {
			return Treasure(i), true
		}
	}
	return 0, false
}

// TreasureNames lists the treasure names, for reasons a player reads.
func TreasureNames() string { return strings.Join(treasureNames[:], ", ") }

// Term is the treasure type as a word a sentence names ("ruby", "Rubin").
func (t Treasure) Term() i18n.Message { return i18n.M("lth.treasure." + t.String()) }

// Name is the treasure type as a catalog or view names it ("Ruby", "Rubin").
func (t Treasure) Name() i18n.Message { return i18n.M("lth.name." + t.String()) }

// cardsOf counts n cards of type t as a player says it: "1 ruby", "0 rubies".
func cardsOf(n int, t Treasure) i18n.Message { return i18n.M("lth.cards."+t.String(), "count", n) }

// Counts is a number of cards of each treasure type.
type Counts [NumTreasures]int

// Total is the number of cards counted.
func (c *Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Pack sizes from the rulebook.
var (
	// BasePack is the pack for 2 to 4 players (77 cards).
	BasePack = Counts{18, 17, 16, 14, 12}
	// ExtraPack is added for 5 and 6 players (20 cards).
	ExtraPack = Counts{5, 4, 4, 4, 3}
)

// Deck returns the treasure cards a game of players uses.
func Deck(players int) Counts {
	d := BasePack
	if players > 4 {
		for i := range d {
			d[i] += ExtraPack[i]
		}
	}
	return d
}

// SetSize is the most cards a set holds.
const SetSize = 5

// Set is a face-up set of one treasure type, 1 to 5 cards.
type Set struct {
	Treasure Treasure `json:"treasure"`
	Size     int      `json:"size"`
}

// combine adds n cards of type t to sets: the incomplete set of that type is
// filled first, the rest form new sets of up to 5.
func combine(sets []Set, t Treasure, n int) []Set {
	for i := range sets {
		if n == 0 {
			break
		}
		if sets[i].Treasure == t && sets[i].Size < SetSize {
			add := min(n, SetSize-sets[i].Size)
			sets[i].Size += add
			n -= add
		}
	}
	for n > 0 {
		add := min(n, SetSize)
		sets = append(sets, Set{Treasure: t, Size: add})
		n -= add
	}
	return sets
}

// countSets returns the cards in sets by type.
func countSets(sets []Set) Counts {
	var c Counts
	for _, s := range sets {
		c[s.Treasure] += s.Size
	}
	return c
}

// removeSet returns sets without set i, in a new slice.
func removeSet(sets []Set, i int) []Set {
	out := make([]Set, 0, len(sets)-1)
	out = append(out, sets[:i]...)
	return append(out, sets[i+1:]...)
}

// MarshalText writes the treasure's name.
func (t Treasure) MarshalText() ([]byte, error) {
	if t >= NumTreasures {
		return nil, fmt.Errorf("luckytreasurehunter: no treasure %d", uint8(t))
	}
	return []byte(treasureNames[t]), nil
}

// UnmarshalText reads a treasure's name.
func (t *Treasure) UnmarshalText(b []byte) error {
	v, ok := ParseTreasure(string(b))
	if !ok {
		return fmt.Errorf("%q is no treasure; the treasures are %s", b, TreasureNames())
	}
	*t = v
	return nil
}

// countsJSON is Counts as a JSON object, by treasure name.
type countsJSON struct {
	Silver int `json:"silver"`
	Gold   int `json:"gold"`
	Pearl  int `json:"pearl"`
	Ruby   int `json:"ruby"`
	Jade   int `json:"jade"`
}

// MarshalJSON writes the counts as an object by treasure name.
func (c Counts) MarshalJSON() ([]byte, error) {
	return json.Marshal(countsJSON{c[Silver], c[Gold], c[Pearl], c[Ruby], c[Jade]})
}

// UnmarshalJSON reads counts written by MarshalJSON.
func (c *Counts) UnmarshalJSON(b []byte) error {
	var v countsJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*c = Counts{v.Silver, v.Gold, v.Pearl, v.Ruby, v.Jade}
	return nil
}
