package colorfultreasure

// Effect is what one side of an action token does (advanced rules).
type Effect int

// The ten effects: token N side a is Effect 2(N-1), side b is 2(N-1)+1.
const (
	PeekTwo     Effect = iota // 1a: peek at 2 cards of different wonders (once)
	PeekThree                 // 1b: peek at up to 3 cards of one wonder (once)
	FourthCard                // 2a: reveal a fourth card (once)
	Instead                   // 2b: with keys or chests revealed, take gems or diamonds instead (permanent)
	TwoTypes                  // 3a: take 2 types (once)
	SixthColour               // 3b: a sixth gem colour, 1 VP, counts for Colorful Gems (permanent)
	NoStealing                // 4a: nobody steals from or by the holder (permanent)
	Protected                 // 4b: nobody steals the holder's wonder cards (permanent)
	FourPoints                // 5a: 4 VP (permanent)
	WildPair                  // 5b: stands in for a key or chest token to make a pair (once)
)

var effectNames = [...]string{"peek_two", "peek_three", "fourth_card", "instead", "two_types", "sixth_colour",
	"no_stealing", "protected", "four_points", "wild_pair"}

// String returns the effect's name as the API writes it.
func (e Effect) String() string { return effectNames[e] }

// OneTime reports whether a token with this effect is discarded once used.
func (e Effect) OneTime() bool {
	switch e {
	case PeekTwo, PeekThree, FourthCard, TwoTypes, WildPair:
		return true
	}
	return false
}

// effect returns what action token t (0..4) does in this game.
func (g *Game) effect(t int) Effect {
	e := Effect(2 * t)
	if g.Sides[t] == "b" {
		e++
	}
	return e
}

// tokenWith returns the action token seat holds with effect e, or -1.
func (g *Game) tokenWith(seat int, e Effect) int {
	for _, t := range g.Players[seat].Actions {
		if g.effect(t) == e {
			return t
		}
	}
	return -1
}

func (g *Game) has(seat int, e Effect) bool { return g.tokenWith(seat, e) >= 0 }

// spend discards seat's one-time token t.
func (g *Game) spend(seat, t int) {
	p := &g.Players[seat]
	for i, h := range p.Actions {
		if h == t {
			p.Actions = append(p.Actions[:i:i], p.Actions[i+1:]...)
			break
		}
	}
	g.Actions[t] = spent
}
