package silvergold

import (
	"slices"

	"github.com/treasury-games/treasury/domain"
)

var _ domain.TakeBackPolicy = (*Rules)(nil)

// TakeBackMark is Silver & Gold's part of the take-back policy (see
// domain/silvergold/README.md): a keep or a crossing is a simultaneous
// choice, hidden until the last seat makes its own; the keep or crossing
// that completes the step shows every seat's and deals or reveals on, and
// every take draws or refills the display, so those are sealed in a
// digital game.
func (*Rules) TakeBackMark(mode string, e domain.LogEntry) domain.TakeBackMark {
	m := domain.TakeBackMark{Simultaneous: e.Type == MoveKeep || e.Type == MoveCross}
	m.Sealed = !m.Simultaneous || slices.ContainsFunc(e.Events, func(t string) bool { return t != "crossed" && t != "status" })
	return m
}
