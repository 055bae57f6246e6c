package luckytreasurehunter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

// TestRefusals: every refused move, with the rule a player reads.
// refusal is a move the rules refuse in a position, and how.
type refusal struct {
	name  string
	pos   string
	actor domain.Actor
	move  string
	code  domain.Code
	rule  string
}

// refusals are the moves TestRefusals makes (TestRefusalsInEveryLanguage
// reads their reasons in every language).
func refusals() []refusal {
	digital := `
		pile: sssss ggggg
		middle: r3
		0: hand rrrgs
		1: hand ppppp; sets j2`
	physical := `
		mode: physical
		pilesize: 10
		middle: r5 r5 r3
		discard: rrrr
		0: hand 5
		1: hand 5; sets j2`
	return []refusal{
		{"place more than the hand holds", digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":4}`, domain.IllegalMove, "place-from-hand"},
		{"place a type not in hand", digital, seat(0), `{"type":"place","seat":0,"treasure":"pearl","count":1}`, domain.IllegalMove, "place-from-hand"},
		{"place none", digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":0}`, domain.IllegalMove, "place-count"},
		{"place six", digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":6}`, domain.IllegalMove, "place-count"},
		{"place an unknown treasure", digital, seat(0), `{"type":"place","seat":0,"treasure":"diamond","count":1}`, domain.Invalid, ""},
		{"place out of turn", digital, seat(1), `{"type":"place","seat":1,"treasure":"pearl","count":1}`, domain.IllegalMove, "turn"},
		{"steal before placing", digital, seat(0), `{"type":"steal","seat":0,"set":0}`, domain.IllegalMove, "step"},
		{"stop with no steal", digital, seat(0), `{"type":"stop","seat":0}`, domain.IllegalMove, "step"},
		{"act for another seat", digital, seat(1), `{"type":"place","seat":0,"treasure":"ruby","count":1}`, domain.Forbidden, ""},
		{"host plays from a digital hand", digital, host, `{"type":"place","seat":0,"treasure":"ruby","count":1}`, domain.Forbidden, ""},
		{"no seat", digital, seat(0), `{"type":"place","treasure":"ruby","count":1}`, domain.Invalid, ""},
		{"field of another move", digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":1,"dice":2}`, domain.Invalid, ""},
		{"client names the dice", digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":1,"drawn":["ruby"]}`, domain.Invalid, ""},
		{"table report in a digital game", digital, host, `{"type":"roll","faces":["pirate"]}`, domain.IllegalMove, "digital-reports"},
		{"unknown type", digital, seat(0), `{"type":"flip","seat":0}`, domain.Invalid, ""},
		{"steal own set", "turn: 1\nphase: steal\n" + digital, seat(1), `{"type":"steal","seat":1,"owner":1,"set":0}`, domain.IllegalMove, "steal-own"},
		{"steal a set that is not there", "phase: steal\n" + digital, seat(0), `{"type":"steal","seat":0,"owner":1,"set":1}`, domain.IllegalMove, "steal-set"},
		{"steal from no seat", "phase: steal\n" + digital, seat(0), `{"type":"steal","seat":0,"owner":7,"set":0}`, domain.Invalid, ""},
		{"re-roll more dice than failed", "phase: decide\nsteal: r3 from middle set 0 pirates 2\n" + digital, seat(0), `{"type":"reroll","seat":0,"dice":2}`, domain.IllegalMove, "reroll-failed-only"},
		{"re-roll without matching cards", "phase: decide\nsteal: j2 from 1 set 0 pirates 0\n" + digital, seat(0), `{"type":"reroll","seat":0,"dice":1}`, domain.IllegalMove, "reroll-matching"},
		{"host re-rolls from a digital hand", "phase: decide\nsteal: r3 from middle set 0 pirates 1\n" + digital, host, `{"type":"reroll","seat":0,"dice":1}`, domain.Forbidden, ""},
		{"captain used twice", "phase: decide\nsteal: r3 from middle set 0 pirates 1\npile: sssss\nmiddle: r3\n0: hand rrrgs; captain used\n1: hand ppppp", seat(0), `{"type":"captain","seat":0}`, domain.IllegalMove, "captain-once"},
		// Physical: what the table reports must be possible from what the server has seen.
		{"physical: place more than remain unseen", physical, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":2}`, domain.IllegalMove, "place-unseen"},
		{"physical: place more than the hand holds", "mode: physical\npilesize: 10\n0: hand 2\n1: hand 5", seat(0), `{"type":"place","seat":0,"treasure":"gold","count":3}`, domain.IllegalMove, "place-from-hand"},
		{"physical: re-roll discards more than remain unseen", "phase: decide\nsteal: r5 from middle set 0 pirates 2\n" + physical, seat(0), `{"type":"reroll","seat":0,"dice":2}`, domain.IllegalMove, "reroll-unseen"},
		{"physical: re-roll more than the hand holds", "mode: physical\npilesize: 10\nphase: decide\nmiddle: g3\nsteal: g3 from middle set 0 pirates 0\n0: hand 2\n1: hand 5", seat(0), `{"type":"reroll","seat":0,"dice":3}`, domain.IllegalMove, "reroll-matching"},
		{"physical: roll of too many dice", "phase: roll\nsteal: r3 from middle set 2 pirates 0\n" + physical, host, `{"type":"roll","faces":["pirate","pirate","pirate","blank"]}`, domain.IllegalMove, "roll-dice"},
		{"physical: roll of too few dice", "phase: roll\nsteal: r3 from middle set 2 pirates 1\n" + physical, host, `{"type":"roll","faces":["pirate"]}`, domain.IllegalMove, "roll-dice"},
		{"physical: a die face that is none", "phase: roll\nsteal: r3 from middle set 2 pirates 2\n" + physical, host, `{"type":"roll","faces":["skull"]}`, domain.Invalid, ""},
		{"physical: roll when none is owed", physical, host, `{"type":"roll","faces":["pirate"]}`, domain.IllegalMove, "roll-when-asked"},
		{"physical: a seat reports the dice", "phase: roll\nsteal: r3 from middle set 2 pirates 2\n" + physical, seat(0), `{"type":"roll","faces":["pirate"]}`, domain.Forbidden, ""},
		{"physical: middle reported twice", physical, host, `{"type":"lth_middle","cards":["ruby","gold","jade"]}`, domain.IllegalMove, "middle-at-setup"},
		{"physical: middle of two cards", "phase: setup\n" + physical, host, `{"type":"lth_middle","cards":["ruby","gold"]}`, domain.IllegalMove, "middle-three"},
		{"physical: place before the middle is reported", "phase: setup\n" + physical, seat(0), `{"type":"place","seat":0,"treasure":"gold","count":1}`, domain.IllegalMove, "setup"},
		{"game over", "phase: ended\n" + digital, seat(0), `{"type":"place","seat":0,"treasure":"ruby","count":1}`, domain.IllegalMove, "game-ended"},
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range refusals() {
		t.Run(c.name, func(t *testing.T) {
			g := position(t, c.pos)
			before, err := g.Snapshot()
			require.NoError(t, err)
			m, derr := DecodeMove([]byte(c.move))
			err = derr
			if err == nil {
				err = g.Play(c.actor, &m)
			}
			require.Error(t, err)
			assert.Equal(t, c.code, domain.ErrorCode(err), "%v", err)
			assert.Equal(t, c.rule, domain.ErrorRule(err), "%v", err)
			assert.NotEmpty(t, domain.ErrorReason(err))
			after, _ := g.Snapshot()
			assert.JSONEq(t, string(before), string(after), "a refused move changes nothing")
			// What the listing offers agrees: a refused move is never offered.
			if c.code != domain.Invalid {
				v := domain.ViewerOf(&c.actor)
				s := -1
				if m.Seat != nil {
					s = *m.Seat
				}
				if s >= -1 && s < len(g.Players) {
					for _, o := range g.LegalMoves(v, s).Moves {
						om := o.move()
						if o.Type == MoveRoll {
							assert.NotEqual(t, o.Dice, len(m.Faces))
							continue
						}
						assert.False(t, om.Type == m.Type && om.Treasure == m.Treasure && om.Count == m.Count && om.Dice == m.Dice &&
							eqPtr(om.Owner, m.Owner) && eqPtr(om.Set, m.Set) && len(m.Cards) == 0, "offered: %+v", o)
					}
				}
			}
		})
	}
}

func eqPtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func TestPlaceCombinesAtFive(t *testing.T) {
	g := position(t, `
		pile: sgpjs gggg
		middle: r3 p2
		0: hand rrrrg
		1: hand ppppp`)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"place","seat":0,"treasure":"ruby","count":4}`)))
	assert.Equal(t, "r5 p2 r2", setsText(g.Middle), "the incomplete ruby set is filled to 5 first, the rest starts a new set")
	assert.Equal(t, "sggpj", handText(g.Players[0].Hand), "drew back up to 5 from the top of the pile")
	assert.Equal(t, "sgggg", handText(countsOf(g.Pile)))
	assert.Equal(t, PhaseSteal, g.Phase)

	g = position(t, `
		pile: sssss
		middle: g5
		0: hand ggggg
		1: hand ppppp`)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"place","seat":0,"treasure":"gold","count":5}`)))
	assert.Equal(t, "g5 g5", setsText(g.Middle), "a full set takes no more: five make a new set")
}

func countsOf(ts []Treasure) Counts {
	var c Counts
	for _, t := range ts {
		c[t]++
	}
	return c
}

func TestStealOnlySet(t *testing.T) {
	g := position(t, `
		faces: 5
		phase: steal
		pile: sssss
		middle: p1
		0: hand ggggg; sets r4
		1: hand ppppp; sets r3`)
	rigDice(t, g, true, true, true)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"owner":1,"set":0}`)))
	assert.Empty(t, g.Players[1].Sets, "seat 1 lost its only set")
	assert.Equal(t, "r5 r2", setsText(g.Players[0].Sets), "a stolen set fills the thief's incomplete set of its type first")
	assert.Equal(t, 1, g.Turn)
	assert.Equal(t, PhasePlace, g.Phase)
	assert.Equal(t, 8, g.Score().Players[0].Total, "7 cards and the unused captain")
}

func TestRerollWithExactlyTheMatchingCards(t *testing.T) {
	g := position(t, `
		phase: steal
		pile: sssss
		middle: r3
		0: hand rrggg
		1: hand ppppp`)
	rigDice(t, g, true, false, false)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":0}`)))
	require.Equal(t, PhaseDecide, g.Phase)
	l := g.LegalMoves(domain.SeatViewer(0), 0)
	var types []string
	for _, o := range l.Moves {
		types = append(types, o.Type+":"+itoa(o.Dice))
	}
	assert.Equal(t, []string{"reroll:1", "reroll:2", "captain:0", "stop:0"}, types, "two failed dice, two rubies in hand")
	rigDice(t, g, false, true)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"reroll","seat":0,"dice":2}`)))
	assert.Equal(t, 2, g.Discard[Ruby], "the two rubies went to the discard pile")
	assert.Equal(t, 0, g.Players[0].Hand[Ruby])
	assert.Equal(t, 2, g.Steal.Pirates)
	err := g.Play(seat(0), mv(t, `{"type":"reroll","seat":0,"dice":1}`))
	assert.Equal(t, "reroll-matching", domain.ErrorRule(err), "no ruby left to discard")
	assert.Equal(t, "each re-rolled die costs one ruby card from your hand; you hold 0 rubies", domain.ErrorReason(err))
	rigDice(t, g, true)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"captain","seat":0}`)))
	assert.Equal(t, "r3", setsText(g.Players[0].Sets))
	assert.True(t, g.Players[0].CaptainUsed)
	assert.Equal(t, "ssggg", handText(g.Players[0].Hand), "drew back up to 5 after the steal")
	assert.Equal(t, 3, g.Score().Players[0].Total, "3 cards, captain used")
}

func TestCaptainOncePerGame(t *testing.T) {
	g := position(t, `
		mode: physical
		pilesize: 30
		phase: steal
		middle: r3 g2
		0: hand 5
		1: hand 5`)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":0}`)))
	require.NoError(t, g.Play(host, mv(t, `{"type":"roll","faces":["blank","blank","pirate"]}`)))
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"captain","seat":0}`)))
	assert.Equal(t, 2, g.Steal.Pending, "the captain re-rolls both failed dice")
	require.NoError(t, g.Play(host, mv(t, `{"type":"roll","faces":["blank","pirate"]}`)))
	err := g.Play(seat(0), mv(t, `{"type":"captain","seat":0}`))
	assert.Equal(t, "captain-once", domain.ErrorRule(err))
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"reroll","seat":0,"dice":1}`)))
	assert.Equal(t, 4, g.Players[0].HandSize)
	require.NoError(t, g.Play(host, mv(t, `{"type":"roll","faces":["blank"]}`)))
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"stop","seat":0}`)))
	assert.Equal(t, 5, g.Players[0].HandSize, "drew back up to 5")
	assert.Equal(t, "r3 g2", setsText(g.Middle), "a stopped steal takes nothing")
	assert.Equal(t, 1, g.Turn)
	// The captain is still used in the next steal.
	g.Turn, g.Phase = 0, PhaseSteal
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":1}`)))
	require.NoError(t, g.Play(host, mv(t, `{"type":"roll","faces":["blank","pirate"]}`)))
	for _, o := range g.LegalMoves(domain.SeatViewer(0), 0).Moves {
		assert.NotEqual(t, MoveCaptain, o.Type, "a used captain is not offered")
	}
}

func TestPileRunsOutDuringPlace(t *testing.T) {
	g := position(t, `
		heart: 1
		turn: 0
		pile: g
		middle: r1
		0: hand rrsss
		1: hand ppppp`)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"place","seat":0,"treasure":"ruby","count":2}`)))
	assert.True(t, g.LastRound, "the last card was drawn")
	assert.Equal(t, 4, g.Players[0].HandSize, "only one card was left to draw")
	assert.Equal(t, PhaseSteal, g.Phase, "the turn goes on with the steal step")
	rigDice(t, g, false, false, false)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":0}`)))
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"stop","seat":0}`)))
	assert.Equal(t, PhaseEnded, g.Phase, "play would come back to Captain Heart (seat 1): the game ends")
}

func TestPileRunsOutDuringFinalDraw(t *testing.T) {
	g := position(t, `
		phase: decide
		pile: gj
		middle: r3
		steal: r3 from middle set 0 pirates 0
		0: hand rrsss
		1: hand ppppp`)
	rigDice(t, g, false, false)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"reroll","seat":0,"dice":2}`)))
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"stop","seat":0}`)))
	assert.Equal(t, "sssgj", handText(g.Players[0].Hand))
	assert.True(t, g.LastRound)
	assert.Equal(t, 1, g.Turn, "seat 1 still plays: the round goes on to Captain Heart")
	require.NoError(t, g.Play(seat(1), mv(t, `{"type":"place","seat":1,"treasure":"pearl","count":5}`)))
	assert.Equal(t, 0, g.Players[1].HandSize, "nothing left to draw")
	rigDice(t, g, false, false, false)
	require.NoError(t, g.Play(seat(1), mv(t, `{"type":"steal","seat":1,"set":0}`)))
	require.NoError(t, g.Play(seat(1), mv(t, `{"type":"stop","seat":1}`)))
	assert.Equal(t, PhaseEnded, g.Phase)
	assert.True(t, g.Score().Final)
}

func TestEndRoundBackToCaptainHeart(t *testing.T) {
	for _, c := range []struct {
		name        string
		players     int
		heart, last int // Captain Heart, and the seat that draws the last card
		turnsAfter  []int
	}{
		{"2 players, the last card drawn by Captain Heart", 2, 0, 0, []int{1}},
		{"2 players, the last card drawn before Captain Heart", 2, 1, 0, nil},
		{"6 players, Captain Heart seat 0, last drawn by seat 2", 6, 0, 2, []int{3, 4, 5}},
		{"6 players, Captain Heart seat 4, last drawn by seat 4", 6, 4, 4, []int{5, 0, 1, 2, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := "pile: g\nheart: " + itoa(c.heart) + "\nturn: " + itoa(c.last) + "\n"
			for i := range c.players {
				text += itoa(i) + ": hand sssss\n"
			}
			g := position(t, text)
			// Stop every steal: the middle only grows.
			play := func(s int) {
				require.Equal(t, s, g.Turn)
				require.NoError(t, g.Play(seat(s), mv(t, `{"type":"place","seat":`+itoa(s)+`,"treasure":"silver","count":1}`)))
				rigDice(t, g, false)
				require.NoError(t, g.Play(seat(s), mv(t, `{"type":"steal","seat":`+itoa(s)+`,"set":0}`)))
				if g.Phase == PhaseDecide {
					require.NoError(t, g.Play(seat(s), mv(t, `{"type":"stop","seat":`+itoa(s)+`}`)))
				}
			}
			// The middle's first set is a single silver only before any
			// placing; later it grows, so roll it all blank.
			g.Middle = []Set{{Treasure: Jade, Size: 1}}
			play(c.last)
			require.True(t, g.LastRound)
			for _, s := range c.turnsAfter {
				require.NotEqual(t, PhaseEnded, g.Phase, "seat %d still has its turn", s)
				play(s)
			}
			assert.Equal(t, PhaseEnded, g.Phase)
			assert.Equal(t, c.heart, (g.Turn+1)%c.players, "the game ended just before Captain Heart's turn")
		})
	}
}

func TestEmptyHandAndNoSetToSteal(t *testing.T) {
	// Seat 1 has no cards and the pile is empty: it places nothing. With no
	// set in the middle and none before seat 0, it has nothing to steal: its
	// turn passes.
	g := position(t, `
		heart: 0
		turn: 0
		last: true
		phase: steal
		middle: r1
		0: hand sssss
		1: hand
		2: hand gg; sets p2`)
	rigDice(t, g, true)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":0}`)))
	// Seat 1: empty hand, but seat 0 and seat 2 have sets: it is at the steal step.
	assert.Equal(t, 1, g.Turn)
	assert.Equal(t, PhaseSteal, g.Phase, "an empty hand skips the place step only")
	types := []string{}
	for _, e := range g.Events() {
		types = append(types, e.Type)
	}
	assert.Contains(t, types, "place_skipped")

	g = position(t, `
		heart: 0
		turn: 0
		last: true
		phase: steal
		middle: r1
		0: hand sssss
		1: hand
		2: hand gg`)
	rigDice(t, g, true)
	require.NoError(t, g.Play(seat(0), mv(t, `{"type":"steal","seat":0,"set":0}`)))
	// Seat 1: empty hand; the only set is seat 0's... which it may steal.
	assert.Equal(t, PhaseSteal, g.Phase)
	assert.Equal(t, 1, g.Turn)

	// Seat 1 stops; seat 2 has no cards, and the only set on the table is
	// its own: it places nothing and steals nothing, and the game, in its
	// last round, ends before Captain Heart.
	g = position(t, `
		heart: 0
		turn: 1
		last: true
		phase: decide
		steal: r2 from 2 set 0 pirates 0
		0: hand
		1: hand ss
		2: hand; sets r2`)
	require.NoError(t, g.Play(seat(1), mv(t, `{"type":"stop","seat":1}`)))
	types = types[:0]
	for _, e := range g.Events() {
		types = append(types, e.Type)
	}
	assert.Equal(t, []string{"steal_stopped", "turn_started", "place_skipped", "steal_skipped", "game_ended"}, types)
	assert.Equal(t, PhaseEnded, g.Phase)
}
