package luckytreasurehunter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestMisdraw: a physical table reports that a seat drew one card too many
// (or too few), and the hand size and the pile's count match the table
// again; what cannot be is refused with a rule a player can act on.
func TestMisdraw(t *testing.T) {
	const table = "mode: physical\npilesize: 2\n0: hand 5\n1: hand 4"
	g := position(t, table)
	require.NoError(t, g.Play(host, mv(t, `{"type":"lth_misdraw","corrections":[{"seat":1,"count":1}]}`)))
	assert.Equal(t, 5, g.Players[1].HandSize, "Bob holds the card he drew too many")
	assert.Equal(t, 1, g.PileSize(), "the pile is one card shorter")
	require.Len(t, g.events, 1)
	assert.Equal(t, "misdraw", g.events[0].typ)
	b, _ := json.Marshal(g.events[0].data)
	assert.JSONEq(t, `{"seat":1,"count":1,"hand_size":5,"pile":1}`, string(b))

	// The last card goes the same way: the last round begins.
	require.NoError(t, g.Play(host, mv(t, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":1}]}`)))
	assert.True(t, g.LastRound)
	assert.Equal(t, "pile_empty", g.events[len(g.events)-1].typ)

	for _, c := range misdrawRefusals() {
		t.Run(c.name, func(t *testing.T) {
			g := position(t, c.pos)
			err := g.Play(c.actor, mv(t, c.move))
			assert.Equal(t, c.code, domain.ErrorCode(err), "%v", err)
			assert.Equal(t, c.rule, domain.ErrorRule(err))
		})
	}
}

// misdrawRefusals are the mis-draw reports the rules refuse.
func misdrawRefusals() []refusal {
	const table = "mode: physical\npilesize: 2\n0: hand 5\n1: hand 4"
	return []refusal{
		{"more than the pile holds", table, host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":3}]}`, domain.IllegalMove, "misdraw-count"},
		{"fewer than the hand holds", "mode: physical\npilesize: 2\n0: hand 1\n1: hand 4", host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":-2}]}`, domain.IllegalMove, "misdraw-count"},
		{"back into an empty pile", "mode: physical\npilesize: 0\nlast: true\n0: hand 5\n1: hand 4", host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":-1}]}`, domain.IllegalMove, "misdraw-last-round"},
		{"a count of 0", table, host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":0}]}`, domain.Invalid, ""},
		{"two seats", table, host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":1},{"seat":1,"count":1}]}`, domain.Invalid, ""},
		{"by a seat", table, seat(0), `{"type":"lth_misdraw","corrections":[{"seat":0,"count":1}]}`, domain.Forbidden, ""},
		{"in a digital game", "pile: rr\n0: hand ggrrs\n1: hand ggrr", host, `{"type":"lth_misdraw","corrections":[{"seat":0,"count":1}]}`, domain.IllegalMove, "digital-reports"},
	}
}

// TestMisdrawListed: the host's listing of a physical game offers the
// mis-draw report as a correction, completed from one part per seat and
// direction, whether or not a report is owed.
func TestMisdrawListed(t *testing.T) {
	g := position(t, "mode: physical\npilesize: 2\n0: hand 5\n1: hand 0")
	l := g.LegalMoves(domain.HostViewer, -1)
	require.Len(t, l.Moves, 1)
	assert.True(t, l.Moves[0].Correction)
	assert.Equal(t, MoveMisdraw, l.Moves[0].Type)
	var labels []string
	for _, p := range l.Pools["corrections"] {
		labels = append(labels, p.Label)
	}
	assert.Equal(t, []string{"Ann drew one card too many", "Ann drew one card too few", "Bob drew one card too many"}, labels)
	assert.Empty(t, g.LegalMoves(domain.SeatViewer(0), 0).Moves[0].Correction, "a seat's moves are no corrections")
}
