package domain

// MaxNameLength is the longest player name, in characters (names.Check).
const MaxNameLength = 32

// CheckSetup checks what every ruleset's games are created from the same way:
// between min and max players; a seed in a digital game and none in a
// physical one. game names the ruleset in the reasons ("Silver & Gold"). The
// players' names are checked by names.Check, which score sheets share.
func CheckSetup(game string, mode string, players []string, seed string, min, max int) error {
	if n := len(players); n < min || n > max {
		return Errorf(Invalid, "%s takes %d to %d players; %d were named", game, min, max, n)
	}
	switch {
	case mode == Digital && seed == "":
		return Errorf(Invalid, "a digital game needs a seed")
	case mode == Physical && seed != "":
		return Errorf(Invalid, "a physical game has no seed: the cards are shuffled at the table")
	case len(seed) > MaxSeedLength:
		return Errorf(Invalid, "the seed is longer than %d bytes", MaxSeedLength)
	}
	return nil
}
