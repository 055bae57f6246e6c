package luckytreasurehunter

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/treasury-games/treasury/domain"
)

func TestVerifySheet(t *testing.T) {
	verify := func(t *testing.T, sheet string) SheetResult {
		t.Helper()
		b, err := NewRules().VerifySheet([]byte(sheet))
		require.NoError(t, err)
		var res SheetResult
		require.NoError(t, json.Unmarshal(b, &res))
		return res
	}
	codes := func(res SheetResult) []string {
		out := []string{}
		for _, f := range res.Findings {
			out = append(out, f.Code)
		}
		return out
	}

	t.Run("a right tally, ranked as the rulebook example", func(t *testing.T) {
		res := verify(t, `{"players":[
			{"name":"Becky","sets":[{"treasure":"ruby","size":5},{"treasure":"gold","size":5},{"treasure":"jade","size":1},{"treasure":"pearl","size":1}],"captain_used":false,"total":13},
			{"name":"Craig","sets":[{"treasure":"silver","size":5},{"treasure":"pearl","size":4},{"treasure":"ruby","size":3},{"treasure":"jade","size":1}],"captain_used":true,"total":13}]}`)
		assert.True(t, res.Valid)
		assert.Empty(t, res.Findings)
		assert.Equal(t, "Becky", res.Ranking[0].Name)
		assert.Equal(t, "set_sizes", res.Ranking[1].DecidedBy)
		assert.Equal(t, 2, res.Ranking[1].DecidingSet)
	})
	t.Run("impossible tallies", func(t *testing.T) {
		res := verify(t, `{"players":[
			{"name":"Ann","sets":[{"treasure":"ruby","size":6},{"treasure":"gold","size":2},{"treasure":"gold","size":3}],"captain_used":true,"total":11},
			{"name":"Bob","sets":[{"treasure":"ruby","size":5},{"treasure":"ruby","size":5}],"captain_used":false,"total":10}]}`)
		assert.False(t, res.Valid)
		assert.Equal(t, []string{FindingTooManyCards, FindingSetSize, FindingIncompleteSets, FindingTotalMismatch}, codes(res))
		assert.Nil(t, res.Findings[0].Player, "too many rubies is the table's finding")
		assert.Equal(t, "ruby", res.Findings[0].Treasure)
		assert.Contains(t, res.Findings[3].Reason, "10 cards and 1 for the captain make 11")
	})
	t.Run("the extra pack counts at 5 players", func(t *testing.T) {
		sheet := `{"players_at_table":%d,"players":[{"name":"Ann","sets":[{"treasure":"jade","size":5},{"treasure":"jade","size":5},{"treasure":"jade","size":4}],"captain_used":true}]}`
		assert.Equal(t, []string{FindingTooManyCards}, codes(verify(t, sprintf(sheet, 4))), "12 jade fish in the base pack")
		assert.Empty(t, codes(verify(t, sprintf(sheet, 5))), "15 with the extra pack")
	})
	t.Run("impossible tables", func(t *testing.T) {
		for _, c := range []struct{ name, sheet, words string }{
			{"players_at_table 0", `{"players_at_table":0,"players":[{"name":"Ann","sets":[],"captain_used":false},{"name":"Bob","sets":[],"captain_used":false}]}`, "players_at_table must be 2 to 6, not 0"},
			{"fewer at the table than listed", `{"players_at_table":2,"players":[{"name":"Ann","sets":[],"captain_used":false},{"name":"Bob","sets":[],"captain_used":false},{"name":"Cy","sets":[],"captain_used":false}]}`, "the sheet lists 3 players"},
			{"an empty name", `{"players":[{"name":"Ann","sets":[],"captain_used":false},{"name":"","sets":[],"captain_used":false}]}`, "player 2's name (players[1].name) is blank"},
			{"one name twice", `{"players":[{"name":"Ann","sets":[],"captain_used":false},{"name":" ANN ","sets":[],"captain_used":false}]}`, "same as player 1's"},
		} {
			t.Run(c.name, func(t *testing.T) {
				_, err := NewRules().VerifySheet([]byte(c.sheet))
				assert.Equal(t, domain.Invalid, domain.ErrorCode(err))
				assert.Contains(t, domain.ErrorReason(err), c.words)
			})
		}
	})
	t.Run("unreadable sheets", func(t *testing.T) {
		for _, s := range []string{`{"players":[]}`, `{"players":[{"name":"A","sets":[{"treasure":"gems","size":1}]}]}`,
			`{"players":[{"name":"A","sets":[]}],"players_at_table":9}`, `{"players":[{"name":"A","sets":[],"cards":3}]}`, `{"ruleset":"silver-and-gold","players":[{"name":"A","sets":[]}]}`} {
			_, err := NewRules().VerifySheet([]byte(s))
			assert.Equal(t, domain.Invalid, domain.ErrorCode(err), s)
		}
	})
}

var sprintf = fmt.Sprintf
