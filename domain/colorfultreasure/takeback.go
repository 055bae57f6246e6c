package colorfultreasure

import "github.com/treasury-games/treasury/domain"

var _ domain.TakeBackPolicy = (*Rules)(nil)

// TakeBackMark is Colorful Treasure's part of the take-back policy (see
// domain/colorfultreasure/README.md). In a digital game a flip shows cards and
// a peek shows them to its seat, which seals them in every game
// (domain.LogEntry.Disclosed); a collect turns cards face down, and taking
// it back would turn them face up again, showing everyone what a memory game
// asks them to remember, so it is sealed too. A theft and an action token
// taken show nothing that was hidden: the shared policy lets the seat take
// them back until another seat acts.
func (*Rules) TakeBackMark(mode string, e domain.LogEntry) domain.TakeBackMark {
	return domain.TakeBackMark{Sealed: e.Type != MoveRob && e.Type != MoveClaim}
}
