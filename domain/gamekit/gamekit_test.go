package gamekit_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/gamekit"
	"github.com/treasury-games/treasury/domain/i18n"
)

func TestCheckSeat(t *testing.T) {
	assert.NoError(t, gamekit.CheckSeat(domain.Actor{Seat: 2}, 2, 3), "a seat acts for itself")
	assert.NoError(t, gamekit.CheckSeat(domain.Actor{Host: true, Seat: -1}, 1, 3), "the host acts for any seat")

	err := gamekit.CheckSeat(domain.Actor{Seat: 1}, 2, 3)
	assert.Equal(t, domain.Forbidden, domain.ErrorCode(err))
	var e *domain.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "your credential acts for seat 1, not seat 2", e.Reason)

	for _, seat := range []int{-1, 3} {
		err := gamekit.CheckSeat(domain.Actor{Host: true, Seat: -1}, seat, 3)
		assert.Equal(t, domain.Invalid, domain.ErrorCode(err), "seat %d", seat)
		assert.Contains(t, err.Error(), "this game has seats 0 to 2")
		assert.Equal(t, "table.invalid.no-such-seat", err.(*domain.Error).Msg.Key)
	}
	// A seat that does not exist is told as such even to another seat.
	assert.Equal(t, domain.Invalid, domain.ErrorCode(gamekit.CheckSeat(domain.Actor{Seat: 0}, 4, 3)))

	assert.NoError(t, gamekit.CheckListingSeat(-1, 3), "-1 lists the host's reports")
	assert.NoError(t, gamekit.CheckListingSeat(2, 3))
	assert.Equal(t, domain.Invalid, domain.ErrorCode(gamekit.CheckListingSeat(-2, 3)))
	assert.Equal(t, domain.Invalid, domain.ErrorCode(gamekit.CheckListingSeat(3, 3)))
}

func TestSeatMessagesInGerman(t *testing.T) {
	var de *domain.Error
	require.True(t, errors.As(gamekit.CheckSeat(domain.Actor{Seat: 1}, 0, 2), &de))
	assert.Equal(t, "deine Zugangsdaten gelten für Platz 1, nicht für Platz 0", i18n.Render("de", de.Msg))
}

type player struct {
	name  string
	total int
	tie   int
}

func TestRank(t *testing.T) {
	players := []player{{"Ann", 5, 0}, {"Bob", 9, 0}, {"Cid", 5, 1}, {"Dee", 5, 1}, {"Eve", 2, 0}}
	compare := func(a, b *player) int {
		if a.total != b.total {
			return b.total - a.total
		}
		return b.tie - a.tie
	}
	decide := func(above, p *player) (string, string) {
		switch {
		case above.total != p.total:
			return "total", above.name
		case above.tie != p.tie:
			return "tie", above.name
		}
		return gamekit.Shared, above.name
	}
	got := gamekit.Rank(players, compare, decide)
	type row struct {
		Name string
		Rank int
		By   string
		Why  string
	}
	var rows []row
	for _, r := range got {
		rows = append(rows, row{players[r.Index].name, r.Rank, r.By, r.Why})
	}
	// Equal players keep their order and share the rank; the next rank
	// counts the places before it.
	assert.Equal(t, []row{
		{"Bob", 1, "", ""},
		{"Cid", 2, "total", "Bob"},
		{"Dee", 2, gamekit.Shared, "Cid"},
		{"Ann", 4, "tie", "Dee"},
		{"Eve", 5, "total", "Ann"},
	}, rows)
	assert.Empty(t, gamekit.Rank([]player{}, compare, decide))
}

func TestReplay(t *testing.T) {
	decode := func(b []byte) (int, error) {
		var n int
		err := json.Unmarshal(b, &n)
		return n, err
	}
	var sum int
	play := func(a domain.Actor, n *int) error {
		if *n < 0 {
			return domain.Refuse("negative", "table.takeback.ended")
		}
		sum += *n
		return nil
	}
	moves := func(ms ...string) []domain.ReplayMove {
		var out []domain.ReplayMove
		for _, m := range ms {
			out = append(out, domain.ReplayMove{Actor: domain.Actor{Seat: 0}, Move: []byte(m)})
		}
		return out
	}
	bad, err := gamekit.Replay(moves("1", "2", "3"), decode, play)
	assert.NoError(t, err)
	assert.Zero(t, bad)
	assert.Equal(t, 6, sum)

	sum = 0
	bad, err = gamekit.Replay(moves("1", "x", "3"), decode, play)
	assert.Error(t, err, "a move that cannot be read stops the replay")
	assert.Equal(t, 2, bad)
	assert.Equal(t, 1, sum)

	sum = 0
	bad, err = gamekit.Replay(moves("1", "2", "-1", "4"), decode, play)
	assert.Equal(t, domain.IllegalMove, domain.ErrorCode(err))
	assert.Equal(t, 3, bad)
	assert.Equal(t, 3, sum)
}

func TestDecodeSheet(t *testing.T) {
	var s struct {
		Players []string `json:"players"`
	}
	require.NoError(t, gamekit.DecodeSheet([]byte(`{"players":["Ann"]}`), &s, "sg.sheet.json"))
	assert.Equal(t, []string{"Ann"}, s.Players)

	for _, bad := range []string{`{"players":["Ann"],"extra":1}`, `{"players":`, `[]`} {
		err := gamekit.DecodeSheet([]byte(bad), &s, "sg.sheet.json")
		assert.Equal(t, domain.Invalid, domain.ErrorCode(err), bad)
		var e *domain.Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, "sg.sheet.json", e.Msg.Key, "the game's own key")
	}
}

func TestMoveSeat(t *testing.T) {
	seat, err := gamekit.MoveSeat(domain.Actor{Seat: 1}, gamekit.SeatPtr(1), 3, "keep")
	assert.NoError(t, err)
	assert.Equal(t, 1, seat)

	_, err = gamekit.MoveSeat(domain.Actor{Seat: 1}, nil, 3, "keep")
	assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
	var e *domain.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "a keep move names the seat it is for", e.Reason)

	_, err = gamekit.MoveSeat(domain.Actor{Seat: 0}, gamekit.SeatPtr(1), 3, "keep")
	assert.Equal(t, domain.Forbidden, domain.ErrorCode(err))
}
