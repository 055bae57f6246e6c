package silvergold_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/i18n"
	sg "github.com/treasury-games/treasury/domain/silvergold"
)

// sheetSarah is the rulebook's worked example: 6 completed cards worth 64
// (grey-01, grey-03, orange-06, orange-12, green-08, purple-07); grey-03's
// seal names orange (2 a card, 2 orange cards: 4) and orange-12's names grey
// (1 a card, 2 grey cards: 2); 9 coins; cups 6 and 2; palms 2, 3, 3; 95.
// Her cards show 7 coins and 2 palm trees, so her coins and palms are possible.
func sheetSarah() sg.SheetPlayer {
	return sg.SheetPlayer{
		Name:  "Sarah",
		Cards: sheetIDs("grey-01", "grey-03", "orange-06", "orange-12", "green-08", "purple-07"),
		Coins: 9, Cups: []int{6, 2}, Palms: []int{2, 3, 3}, Total: sheetInt(95),
	}
}

// sheetTom is a second legal score card that did not add up its total: 60 in
// cards showing 10 coins and 3 palm trees, 10 coins, cups 5 and 4, palms 3
// and 2; 84.
func sheetTom() sg.SheetPlayer {
	return sg.SheetPlayer{
		Name:  "Tom",
		Cards: sheetIDs("purple-12", "purple-06", "orange-09", "orange-11", "grey-02"),
		Coins: 10, Cups: []int{5, 4}, Palms: []int{3, 2},
	}
}

// sheetTable is a legal two-player sheet to break one thing at a time.
func sheetTable() sg.Sheet { return sheetOf(sheetSarah(), sheetTom()) }

func sheetOf(players ...sg.SheetPlayer) sg.Sheet { return sg.Sheet{Players: players} }

func sheetIDs(ids ...string) []sg.SheetCard {
	out := make([]sg.SheetCard, len(ids))
	for i, id := range ids {
		out[i] = sg.SheetCard{ID: id}
	}
	return out
}

// sheetWritten writes a catalog card out, as a table with its own deck would.
func sheetWritten(t *testing.T, id string) sg.SheetCard {
	t.Helper()
	ix, ok := sg.Standard().Index(id)
	require.True(t, ok, id)
	c := sg.Standard().Card(ix)
	out := sg.SheetCard{Colour: c.Colour.String(), Value: c.Value}
	if c.Seal != nil {
		s := *c.Seal
		out.Seal = &s
	}
	return out
}

func sheetInt(n int) *int { return &n }

func sheetVerify(t *testing.T, s sg.Sheet) sg.SheetResult {
	t.Helper()
	res, err := sg.VerifySheet(sg.Standard(), s)
	require.NoError(t, err)
	require.NotNil(t, res.Findings, "findings are never nil")
	return res
}

func TestVerifySheet(t *testing.T) {
	t.Run("the rulebook's worked example adds up to 95", func(t *testing.T) {
		res := sheetVerify(t, sheetOf(sheetSarah()))
		assert.True(t, res.Valid)
		assert.Empty(t, res.Findings)
		require.Len(t, res.Players, 1)
		p := res.Players[0]
		assert.Equal(t, 0, p.Seat)
		assert.Equal(t, "Sarah", p.Name)
		assert.Equal(t, 95, p.Total)
		assert.Equal(t, sg.Lines{Coins: 9, Cups: 8, Palms: 8, Cards: 64, Seals: 6}, p.Lines)
		assert.Equal(t, sg.ByColour{Grey: 2, Green: 1, Orange: 2, Purple: 1}, p.Completed)
		assert.Equal(t, []sg.SealLine{
			{Card: "grey-03", Colour: sg.Orange, Points: 2, Cards: 2, Value: 4},
			{Card: "orange-12", Colour: sg.Grey, Points: 1, Cards: 2, Value: 2},
		}, p.Seals)
		assert.Equal(t, []sg.Place{{Rank: 1, Seat: 0, Name: "Sarah", Total: 95}}, res.Ranking)
	})

	t.Run("a legal two-player sheet has no findings and is ranked", func(t *testing.T) {
		res := sheetVerify(t, sheetTable())
		assert.True(t, res.Valid)
		assert.Empty(t, res.Findings)
		require.Len(t, res.Players, 2)
		assert.Equal(t, 84, res.Players[1].Total)
		assert.Equal(t, 1, res.Players[1].Seat)
		en, de := unlabel(res.Ranking)
		assert.Equal(t, []sg.Place{
			{Rank: 1, Seat: 0, Name: "Sarah", Total: 95},
			{Rank: 2, Seat: 1, Name: "Tom", Total: 84, DecidedBy: "total"},
		}, res.Ranking)
		assert.Equal(t, []string{"", "fewer points than Sarah"}, en)
		assert.Equal(t, []string{"", "weniger Punkte als Sarah"}, de)
	})

	t.Run("the JSON body is read with snake_case names and findings are []", func(t *testing.T) {
		body := `{"catalog": "standard", "players": [{"name": "Sarah",
			"cards": [{"id": "grey-01"}, {"id": "grey-03"}, {"id": "orange-06"},
			          {"id": "orange-12"}, {"id": "green-08"}, {"id": "purple-07"}],
			"coins": 9, "cups": [6, 2], "palms": [2, 3, 3], "total": 95}]}`
		var s sg.Sheet
		require.NoError(t, json.Unmarshal([]byte(body), &s))
		assert.Equal(t, sheetOf(sheetSarah()), sg.Sheet{Players: s.Players})
		out, err := json.Marshal(sheetVerify(t, s))
		require.NoError(t, err)
		assert.Contains(t, string(out), `"valid":true`)
		assert.Contains(t, string(out), `"findings":[]`)
	})

	t.Run("a card deck written out scores as the same catalog cards", func(t *testing.T) {
		written := sheetTable()
		for i := range written.Players {
			for j, c := range written.Players[i].Cards {
				written.Players[i].Cards[j] = sheetWritten(t, c.ID)
			}
		}
		require.Empty(t, written.Players[0].Cards[1].ID)
		byID, byHand := sheetVerify(t, sheetTable()), sheetVerify(t, written)
		assert.True(t, byHand.Valid, "%+v", byHand.Findings)
		for i := range byID.Players {
			a, b := byID.Players[i], byHand.Players[i]
			assert.Equal(t, a.Lines, b.Lines)
			assert.Equal(t, a.Total, b.Total)
			assert.Equal(t, a.Completed, b.Completed)
			require.Len(t, b.Seals, len(a.Seals))
			for j := range a.Seals {
				assert.Empty(t, b.Seals[j].Card)
				b.Seals[j].Card = a.Seals[j].Card
				assert.Equal(t, a.Seals[j], b.Seals[j])
			}
		}
		assert.Equal(t, byID.Ranking, byHand.Ranking)
	})

	t.Run("a written total that is off says by how much", func(t *testing.T) {
		s := sheetTable()
		s.Players[0].Total = sheetInt(93)
		f := sheetOnly(t, s, sg.FindingTotalMismatch, sheetInt(0), "total")
		assert.Contains(t, f.Reason, "Sarah wrote 93; the lines add up to 95")
		assert.Contains(t, f.Reason, "2 short")
	})

	t.Run("a total short by a whole line names the line", func(t *testing.T) {
		s := sheetTable()
		s.Players[0].Total = sheetInt(89) // 95 less the seals line, 6
		f := sheetOnly(t, s, sg.FindingTotalMismatch, sheetInt(0), "total")
		assert.Contains(t, f.Reason, "6 short")
		assert.Contains(t, f.Reason, "the seals line (6) looks left out")
	})

	t.Run("a total over by one entry names the entry", func(t *testing.T) {
		s := sheetTable()
		s.Players[0].Total = sheetInt(109) // a purple card, 14, counted twice
		f := sheetOnly(t, s, sg.FindingTotalMismatch, sheetInt(0), "total")
		assert.Contains(t, f.Reason, "14 over")
		assert.Contains(t, f.Reason, "a card (14) looks counted twice")
	})

	t.Run("a total with two digits swapped says so", func(t *testing.T) {
		s := sheetTable()
		s.Players[0].Total = sheetInt(59)
		f := sheetOnly(t, s, sg.FindingTotalMismatch, sheetInt(0), "total")
		assert.Contains(t, f.Reason, "36 short")
		assert.Contains(t, f.Reason, "digits")
	})
}

// sheetOnly verifies s and requires exactly one finding, with that code,
// player and line.
func sheetOnly(t *testing.T, s sg.Sheet, code string, player *int, line string) sg.Finding {
	t.Helper()
	res := sheetVerify(t, s)
	require.Len(t, res.Findings, 1, "%+v", res.Findings)
	f := res.Findings[0]
	assert.Equal(t, code, f.Code)
	assert.Equal(t, player, f.Player)
	assert.Equal(t, line, f.Line)
	assert.NotEmpty(t, f.Reason)
	saysInGerman(t, f.ReasonMessage, f.Reason)
	assert.False(t, res.Valid)
	return f
}

func TestVerifySheetFindings(t *testing.T) {
	tom := func(change func(p *sg.SheetPlayer)) func(*sg.Sheet) {
		return func(s *sg.Sheet) { change(&s.Players[1]) }
	}
	grey := func(seal *sg.Seal) sg.SheetCard { return sg.SheetCard{Colour: "grey", Value: 8, Seal: seal} }
	cases := []struct {
		name   string
		change func(*sg.Sheet)
		code   string
		player *int // nil: the whole table
		line   string
		words  string // in the reason
	}{
		{"13 coins", tom(func(p *sg.SheetPlayer) { p.Coins = 13 }),
			sg.FindingTooManyCoins, sheetInt(1), "coins", "12 coin boxes"},
		{"a cup without a completed row", tom(func(p *sg.SheetPlayer) { p.Coins = 7 }),
			sg.FindingTooManyCups, sheetInt(1), "cups", "7 coins complete 1 row"},
		{"four cups", tom(func(p *sg.SheetPlayer) { p.Coins, p.Cups = 12, []int{5, 4, 3, 1} }),
			sg.FindingTooManyCups, sheetInt(1), "cups", "3 cup boxes"},
		{"a cup worth 7", tom(func(p *sg.SheetPlayer) { p.Cups = []int{5, 7} }),
			sg.FindingCupValue, sheetInt(1), "cups", "worth 7"},
		{"a cup worth 0", tom(func(p *sg.SheetPlayer) { p.Cups = []int{5, 0} }),
			sg.FindingCupValue, sheetInt(1), "cups", "worth 0"},
		{"a cup another player wrote", tom(func(p *sg.SheetPlayer) { p.Cups = []int{5, 6} }),
			sg.FindingCupReused, sheetInt(1), "cups", "Sarah and Tom both wrote the cup of 6"},
		{"one cup written twice", tom(func(p *sg.SheetPlayer) { p.Cups = []int{5, 5} }),
			sg.FindingCupReused, sheetInt(1), "cups", "Tom wrote the cup of 5 twice"},
		{"five palms", tom(func(p *sg.SheetPlayer) { p.Palms = []int{3, 2, 2, 2, 2} }),
			sg.FindingTooManyPalms, sheetInt(1), "palms", "4 palm boxes"},
		{"a palm worth 6", tom(func(p *sg.SheetPlayer) { p.Palms = []int{3, 6} }),
			sg.FindingPalmValue, sheetInt(1), "palms", "1 to 5"},
		{"a palm worth 0", tom(func(p *sg.SheetPlayer) { p.Palms = []int{0} }),
			sg.FindingPalmValue, sheetInt(1), "palms", "worth 0"},
		{"a palm worth 6 with a written-out deck", func(s *sg.Sheet) {
			s.Players[0].Cards, s.Players[0].Total = nil, nil
			s.Players[1].Cards = []sg.SheetCard{{Colour: "green", Value: 10}}
			s.Players[1].Palms = []int{6}
		}, sg.FindingPalmValue, sheetInt(1), "palms", "1 to 5"},
		{"a card listed twice", tom(func(p *sg.SheetPlayer) { p.Cards = append(p.Cards, sg.SheetCard{ID: "purple-12"}) }),
			sg.FindingCardRepeated, sheetInt(1), "cards", "Tom lists purple-12 twice"},
		{"a card two players list", tom(func(p *sg.SheetPlayer) { p.Cards = append(p.Cards, sg.SheetCard{ID: "grey-01"}) }),
			sg.FindingCardShared, sheetInt(1), "cards", "Sarah and Tom both list grey-01"},
		{"a sealed card two players list is not also a repeated seal", tom(func(p *sg.SheetPlayer) {
			p.Cards = append(p.Cards, sg.SheetCard{ID: "grey-03"})
		}), sg.FindingCardShared, sheetInt(1), "cards", "Sarah and Tom both list grey-03"},
		{"a seal naming its own colour", tom(func(p *sg.SheetPlayer) {
			p.Cards = append(p.Cards, sg.SheetCard{Colour: "green", Value: 10, Seal: &sg.Seal{Colour: sg.Green, Points: 1}})
		}), sg.FindingSealOwnColour, sheetInt(1), "seals", "names green"},
		{"a seal worth the wrong points", tom(func(p *sg.SheetPlayer) {
			p.Cards = append(p.Cards, sg.SheetCard{Colour: "green", Value: 10, Seal: &sg.Seal{Colour: sg.Purple, Points: 1}})
		}), sg.FindingSealValue, sheetInt(1), "seals", "a seal naming purple is worth 2"},
		{"a written-out card with the wrong value", tom(func(p *sg.SheetPlayer) {
			p.Cards = append(p.Cards, sg.SheetCard{Colour: "grey", Value: 10})
		}), sg.FindingCardValue, sheetInt(1), "cards", "a grey card is worth 8"},
		{"12 grey cards", tom(func(p *sg.SheetPlayer) {
			for range 9 { // Sarah has 2 and Tom 1
				p.Cards = append(p.Cards, grey(nil))
			}
		}), sg.FindingTooManyOfColour, nil, "cards", "12 completed grey cards, but the deck has 11"},
		{"two grey seals naming orange", tom(func(p *sg.SheetPlayer) {
			p.Cards = append(p.Cards, grey(&sg.Seal{Colour: sg.Orange, Points: 2})) // Sarah has grey-03
		}), sg.FindingSealRepeated, sheetInt(1), "seals", "seal naming orange"},
		{"more coins than the cards show", tom(func(p *sg.SheetPlayer) {
			p.Cards = sheetIDs("grey-02") // 1 coin, plus at most 3 + 2 on 2 unfinished cards
		}), sg.FindingCoinsNotOnCards, sheetInt(1), "coins", "at most 6"},
		{"more palms than the cards show", tom(func(p *sg.SheetPlayer) {
			p.Cards = sheetIDs("purple-06") // no palm tree, plus at most 2 on 2 unfinished cards
			p.Coins, p.Cups, p.Palms = 4, []int{5}, []int{3, 2, 2, 2}
		}), sg.FindingPalmsNotOnCards, sheetInt(1), "palms", "at most 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := sheetTable()
			tc.change(&s)
			f := sheetOnly(t, s, tc.code, tc.player, tc.line)
			assert.Contains(t, f.Reason, tc.words)
		})
	}

	t.Run("the sheet is scored as written", func(t *testing.T) {
		s := sheetTable()
		s.Players[1].Coins = 13
		res := sheetVerify(t, s)
		assert.Equal(t, 13, res.Players[1].Lines.Coins)
		assert.Equal(t, 87, res.Players[1].Total)
	})

	t.Run("findings come by player, then by line", func(t *testing.T) {
		s := sheetTable()
		s.Players[0].Total = sheetInt(1)
		s.Players[0].Palms = []int{2, 3, 3, 0}
		s.Players[1].Coins = 13
		s.Players[1].Cards = append(s.Players[1].Cards, grey(nil), grey(nil), grey(nil), grey(nil), grey(nil),
			grey(nil), grey(nil), grey(nil), grey(nil), grey(nil))
		res := sheetVerify(t, s)
		var got []string
		for _, f := range res.Findings {
			got = append(got, f.Code)
		}
		assert.Equal(t, []string{sg.FindingPalmValue, sg.FindingTotalMismatch, sg.FindingTooManyCoins, sg.FindingTooManyOfColour}, got)
	})
}

func TestVerifySheetMalformed(t *testing.T) {
	five := sheetOf(sheetSarah(), sheetTom(), sheetTom(), sheetTom(), sheetTom())
	cases := []struct {
		name   string
		sheet  func() sg.Sheet
		reason string // in the reason
	}{
		{"no players", func() sg.Sheet { return sg.Sheet{} }, "1 to 4 players"},
		{"five players", func() sg.Sheet { return five }, "1 to 4 players"},
		{"another catalog", func() sg.Sheet { s := sheetTable(); s.Catalog = "house"; return s }, `catalog "house"`},
		{"no name", func() sg.Sheet { s := sheetTable(); s.Players[1].Name = "  "; return s }, "players[1].name) is blank"},
		{"negative coins", func() sg.Sheet { s := sheetTable(); s.Players[1].Coins = -1; return s }, "players[1] (Tom): coins is -1"},
		{"a negative cup", func() sg.Sheet { s := sheetTable(); s.Players[1].Cups[1] = -4; return s }, "players[1] (Tom): cups[1] is -4"},
		{"a negative palm", func() sg.Sheet { s := sheetTable(); s.Players[0].Palms[2] = -3; return s }, "players[0] (Sarah): palms[2] is -3"},
		{"a negative total", func() sg.Sheet { s := sheetTable(); s.Players[0].Total = sheetInt(-95); return s }, "players[0] (Sarah): total is -95"},
		{"an unknown card id", func() sg.Sheet { s := sheetTable(); s.Players[1].Cards[0].ID = "grey-12"; return s },
			`players[1] (Tom): cards[0] is "grey-12", but catalog standard has no card with that id`},
		{"an unknown colour", func() sg.Sheet {
			s := sheetTable()
			s.Players[1].Cards[2] = sg.SheetCard{Colour: "gold", Value: 12}
			return s
		}, `players[1] (Tom): cards[2] has the unknown colour "gold"`},
		{"a card with an id and a colour", func() sg.Sheet {
			s := sheetTable()
			s.Players[0].Cards[3].Colour = "orange"
			return s
		}, `players[0] (Sarah): cards[3] gives both the id "orange-12" and a written-out`},
		{"an empty card", func() sg.Sheet { s := sheetTable(); s.Players[0].Cards[5] = sg.SheetCard{}; return s },
			"players[0] (Sarah): cards[5] is empty"},
		{"a written-out card with a value and no colour", func() sg.Sheet {
			s := sheetTable()
			s.Players[0].Cards[5] = sg.SheetCard{Value: 14}
			return s
		}, "players[0] (Sarah): cards[5] is written out without a colour"},
		{"a negative written-out value", func() sg.Sheet {
			s := sheetTable()
			s.Players[0].Cards[5] = sg.SheetCard{Colour: "purple", Value: -14}
			return s
		}, "players[0] (Sarah): cards[5] has the value -14"},
		{"a negative seal", func() sg.Sheet {
			s := sheetTable()
			s.Players[0].Cards[5] = sg.SheetCard{Colour: "purple", Value: 14, Seal: &sg.Seal{Colour: sg.Grey, Points: -1}}
			return s
		}, "players[0] (Sarah): cards[5] has a seal worth -1"},
		{"a seal naming no colour", func() sg.Sheet {
			s := sheetTable()
			s.Players[0].Cards[5] = sg.SheetCard{Colour: "purple", Value: 14, Seal: &sg.Seal{Colour: sg.Colour(9), Points: 1}}
			return s
		}, "players[0] (Sarah): cards[5] has a seal naming an unknown colour"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sg.VerifySheet(sg.Standard(), tc.sheet())
			require.Error(t, err)
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
			assert.Contains(t, domain.ErrorReason(err), tc.reason)
			if tc.name != "no name" { // names.Check's words are domain/names', not this game's
				errorSaysInGerman(t, err)
			}
		})
	}

	t.Run("no catalog means the standard one", func(t *testing.T) {
		res, err := sg.VerifySheet(nil, sheetTable())
		require.NoError(t, err)
		assert.True(t, res.Valid)
	})
}

func TestVerifySheetRanking(t *testing.T) {
	// Each pair has equal totals; the first player (listed second on the
	// sheet) has more of the deciding colour and fewer of the next ones, so
	// the earlier colour must win.
	cases := []struct {
		name          string
		first, second sg.SheetPlayer
		decidedBy     string
		en, de        string // the line that says it
	}{
		{"grey before green", // 22 each: 1 grey against 0, 0 green against 1
			sg.SheetPlayer{Name: "Ada", Cards: sheetIDs("grey-01", "purple-02")},
			sg.SheetPlayer{Name: "Bo", Cards: sheetIDs("green-01", "orange-01")},
			"grey", "fewer completed grey cards than Ada", "weniger komplett gefüllte graue Schatzkarten als Ada"},
		{"green before orange", // 34 each: 2 green against 1, 0 orange against 2
			sg.SheetPlayer{Name: "Ada", Cards: sheetIDs("green-01", "green-03", "purple-02")},
			sg.SheetPlayer{Name: "Bo", Cards: sheetIDs("green-04", "orange-01", "orange-02")},
			"green", "fewer completed green cards than Ada", "weniger komplett gefüllte grüne Schatzkarten als Ada"},
		{"orange before purple", // 14 each: 1 orange against 0, 0 purple against 1
			sg.SheetPlayer{Name: "Ada", Cards: sheetIDs("orange-01"), Coins: 2},
			sg.SheetPlayer{Name: "Bo", Cards: sheetIDs("purple-02")},
			"orange", "fewer completed orange cards than Ada", "weniger komplett gefüllte orange Schatzkarten als Ada"},
		{"purple last", // 14 each: 1 purple against none
			sg.SheetPlayer{Name: "Ada", Cards: sheetIDs("purple-03")},
			sg.SheetPlayer{Name: "Bo", Coins: 4, Cups: []int{6}, Palms: []int{4}},
			"purple", "fewer completed purple cards than Ada", "weniger komplett gefüllte lila Schatzkarten als Ada"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := sheetVerify(t, sheetOf(tc.second, tc.first))
			assert.Empty(t, res.Findings)
			require.Equal(t, res.Players[0].Total, res.Players[1].Total)
			en, de := unlabel(res.Ranking)
			assert.Equal(t, []string{"", tc.en}, en)
			assert.Equal(t, []string{"", tc.de}, de)
			assert.Equal(t, []sg.Place{
				{Rank: 1, Seat: 1, Name: "Ada", Total: res.Players[1].Total},
				{Rank: 2, Seat: 0, Name: "Bo", Total: res.Players[0].Total, DecidedBy: tc.decidedBy},
			}, res.Ranking)
		})
	}

	t.Run("a full tie is shared", func(t *testing.T) {
		res := sheetVerify(t, sheetOf(
			sg.SheetPlayer{Name: "Ada", Cards: sheetIDs("grey-01", "orange-01"), Coins: 3},
			sg.SheetPlayer{Name: "Bo", Cards: sheetIDs("grey-02", "orange-02"), Palms: []int{3}},
		))
		assert.Empty(t, res.Findings)
		en, de := unlabel(res.Ranking)
		assert.Equal(t, []sg.Place{
			{Rank: 1, Seat: 0, Name: "Ada", Total: 23},
			{Rank: 1, Seat: 1, Name: "Bo", Total: 23, DecidedBy: "shared"},
		}, res.Ranking)
		assert.Equal(t, []string{"", "shares the place with Ada"}, en)
		assert.Equal(t, []string{"", "teilt sich den Platz mit Ada"}, de)
	})
}

// unlabel returns each place's decided-by line in English (as the place
// says it) and in German (from its message), and clears both from places.
func unlabel(places []sg.Place) (en, de []string) {
	for i := range places {
		p := &places[i]
		en = append(en, p.DecidedByLabel)
		if p.DecidedByLabelMessage == nil {
			de = append(de, "")
		} else {
			de = append(de, i18n.Render("de", *p.DecidedByLabelMessage))
		}
		p.DecidedByLabel, p.DecidedByLabelMessage = "", nil
	}
	return en, de
}
