package domain

// MaxNameLength is the longest player name, in characters (names.Check).
const MaxNameLength = 32

// CheckSetup checks what every ruleset's games are created from the same way:
// between min and max players; a seed in a digital game and none in a
// physical one. game names the ruleset in the reasons ("Silver & Gold"). The
// players' names are checked by names.Check, which score sheets share.
func CheckSetup(game string, mode string, players []string, seed string, min, max int) error {
	if n := len(players); n < min || n > max {
		return Fail(Invalid, "table.setup.players", "game", game, "min", min, "max", max, "count", n)
	}
	switch {
	case mode == Digital && seed == "":
		return Fail(Invalid, "table.setup.no-seed")
	case mode == Physical && seed != "":
		return Fail(Invalid, "table.setup.physical-seed")
	case len(seed) > MaxSeedLength:
		return Fail(Invalid, "table.setup.seed-long", "max", MaxSeedLength)
	}
	return nil
}
