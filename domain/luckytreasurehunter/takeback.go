package luckytreasurehunter

import "github.com/treasury-games/treasury/domain"

var _ domain.TakeBackPolicy = Rules{}

// TakeBackMark is Lucky Treasure Hunter's part of the take-back policy (see
// docs/rules/lucky-treasure-hunter.md): in a digital game every move shows
// cards to the table or rolls dice (a place shows the cards placed and draws,
// a steal, a re-roll and the captain roll, a stop ends the turn with a draw),
// so every one is sealed. In a physical game nothing is secret or random on
// the server and the host corrects the current turn.
func (Rules) TakeBackMark(mode string, e domain.LogEntry) domain.TakeBackMark {
	return domain.TakeBackMark{Sealed: true}
}
