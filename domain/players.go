package domain

import (
	"strings"
	"unicode/utf8"
)

// MaxNameLength is the longest player name, in characters.
const MaxNameLength = 32

// CheckSetup checks what every ruleset's games are created from the same way:
// between min and max players, each with a name of 1 to MaxNameLength
// characters (surrounding space trimmed), no two alike ignoring case; a seed
// in a digital game and none in a physical one. game names the ruleset in the
// reasons ("Silver & Gold"). (The API also refuses control characters and
// compares names after Unicode normalisation.)
func CheckSetup(game string, mode string, players []string, seed string, min, max int) error {
	if n := len(players); n < min || n > max {
		return Errorf(Invalid, "%s takes %d to %d players; %d were named", game, min, max, n)
	}
	seen := map[string]bool{}
	for i, name := range players {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
			return Errorf(Invalid, "player %d has no name", i)
		case utf8.RuneCountInString(name) > MaxNameLength:
			return Errorf(Invalid, "player %d's name is longer than %d characters", i, MaxNameLength)
		case seen[strings.ToLower(name)]:
			return Errorf(Invalid, "two players are called %q; give each seat its own name", name)
		}
		seen[strings.ToLower(name)] = true
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
