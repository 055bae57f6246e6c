package domain_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain"
)

// bareGame is a Game with no capability beyond the interface.
type bareGame struct{ domain.Game }

type tabledGame struct {
	bareGame
	st domain.TableStatus
}

func (g tabledGame) Table() domain.TableStatus { return g.st }

type dueGame struct {
	bareGame
	move []byte
}

func (g dueGame) Due() ([]byte, bool) { return g.move, g.move != nil }

func TestStatusOf(t *testing.T) {
	st := domain.StatusOf(bareGame{})
	assert.Equal(t, domain.TableStatus{Awaiting: []domain.Await{}}, st, "a game that tells nothing awaits nobody at turn 0")

	assert.Equal(t, []domain.Await{}, domain.StatusOf(tabledGame{}).Awaiting, "never nil")
	seat := 1
	want := domain.TableStatus{Awaiting: []domain.Await{domain.SeatAwait(1, "play", 1)}, OnTurn: &seat, TurnNumber: 3}
	assert.Equal(t, want, domain.StatusOf(tabledGame{st: want}))
}

func TestDueMove(t *testing.T) {
	assert.Nil(t, domain.DueMove(bareGame{}))
	assert.Nil(t, domain.DueMove(dueGame{}))
	assert.Equal(t, []byte(`{"type":"deal"}`), domain.DueMove(dueGame{move: []byte(`{"type":"deal"}`)}))
	assert.True(t, domain.SystemActor.IsSystem())
	assert.False(t, domain.Actor{Seat: 0}.IsSystem())
	assert.False(t, domain.Actor{Host: true, Seat: -1}.IsSystem())
}
