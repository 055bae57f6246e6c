package domain_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/treasury-games/treasury/domain"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
	"github.com/treasury-games/treasury/domain/silvergold"
)

// TestDecodeMoveInPlayersWords: a move that does not decode is refused in
// the same player's words in every game, never with encoding/json's own
// ("cannot unmarshal number 1.5 into Go struct field Move.seat of type int").
func TestDecodeMoveInPlayersWords(t *testing.T) {
	games := map[string]func([]byte) error{
		"Silver & Gold":         func(b []byte) error { _, err := silvergold.DecodeMove(b); return err },
		"Lucky Treasure Hunter": func(b []byte) error { _, err := luckytreasurehunter.DecodeMove(b); return err },
		"Colorful Treasure":     func(b []byte) error { _, err := colorfultreasure.DecodeMove(b); return err },
	}
	for title, decode := range games {
		t.Run(title, func(t *testing.T) {
			for body, want := range map[string]string{
				`{"type":"x","seat":1.5}`: "seat must be a whole number written without a decimal point or exponent (such as 0 or 2), not number 1.5",
				`{"type":"x","seat":"1"}`: "seat must be a whole number",
				`{"type":"x","colour":1}`: "the move has a field \"colour\" that no " + title + " move has",
				`{"type":"x"} {}`:         "the move has trailing data after its JSON object",
				`{"type":`:                "the move is not valid JSON of a " + title + " move",
			} {
				err := decode([]byte(body))
				if assert.Error(t, err, body) {
					assert.Equal(t, domain.Invalid, domain.ErrorCode(err), body)
					assert.Contains(t, err.Error(), want, body)
					assert.NotContains(t, err.Error(), "Go struct", body)
				}
			}
		})
	}
}
