package luckytreasurehunter

import (
	"math"
	"strconv"

	"github.com/treasury-games/treasury/domain"
)

// AppendJSON appends l as json.Marshal encodes it, without reflection: the
// listing of the seat on turn is built after each of its moves, and
// encoding/json took two thirds of its time in the load run's profile
// (TestLegalJSONPlain holds the two alike, BenchmarkLegalMovesJSON).
func (l *Legal) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"ruleset":`...)
	b = domain.AppendJSONString(b, l.Ruleset)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(l.Seat), 10)
	b = append(b, `,"step":`...)
	b = domain.AppendJSONString(b, l.Step)
	b = append(b, `,"moves":`...)
	b = domain.AppendList(b, l.Moves, appendOption)
	b = append(b, `,"pools":`...)
	b = domain.AppendPools(b, l.Pools)
	return append(b, '}'), nil
}

// appendOption appends o: the members of its entry (the embedded
// domain.LegalMove comes first), then its own, omitted when empty as their
// tags say.
func appendOption(b []byte, o Option) []byte {
	if o.json != nil {
		return append(b, o.json...)
	}
	b = domain.AppendLegalMove(b, o.LegalMove)
	b = append(b[:len(b)-1], `,"type":`...) // the entry's closing brace
	b = domain.AppendJSONString(b, o.Type)
	b = appendIntPtr(b, `,"seat":`, o.Seat)
	if o.Treasure != "" {
		b = append(b, `,"treasure":`...)
		b = domain.AppendJSONString(b, o.Treasure)
	}
	b = appendInt(b, `,"count":`, o.Count)
	b = appendIntPtr(b, `,"owner":`, o.Owner)
	b = appendIntPtr(b, `,"set":`, o.Set)
	b = appendInt(b, `,"size":`, o.Size)
	b = appendInt(b, `,"dice":`, o.Dice)
	b = appendInt(b, `,"cards":`, o.Cards)
	b = appendFloatPtr(b, `,"chance":`, o.Chance)
	b = appendFloatPtr(b, `,"chance_without_cards":`, o.ChanceWithoutCards)
	return append(b, '}')
}

// appendInt appends member name and n unless n is 0 (omitempty).
func appendInt(b []byte, name string, n int) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, name...), int64(n), 10)
}

// appendIntPtr appends member name and *n unless n is nil (omitempty).
func appendIntPtr(b []byte, name string, n *int) []byte {
	if n == nil {
		return b
	}
	return strconv.AppendInt(append(b, name...), int64(*n), 10)
}

// appendFloatPtr appends member name and *f unless f is nil (omitempty),
// formatted as encoding/json formats a float64: the shortest decimal, with
// an exponent only below 1e-6 or from 1e21 on. A chance is always finite.
func appendFloatPtr(b []byte, name string, f *float64) []byte {
	if f == nil {
		return b
	}
	b = append(b, name...)
	format := byte('f')
	if abs := math.Abs(*f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, *f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 as e-7, as encoding/json writes it
		b = b[:n-1]
	}
	return b
}
