package client

import (
	"encoding/json"
	"fmt"

	"github.com/treasury-games/treasury/api/models"
)

// Table is any ruleset's legal-move listing read in the table language: a
// client that knows no rule of the game plays from it alone.
type Table struct {
	Version  int64                 `json:"version"`
	Seat     int                   `json:"seat"` // -1: the host's reports
	Awaiting []models.Await        `json:"awaiting"`
	Moves    []models.LegalMove    `json:"moves"`
	Pools    models.LegalMovePools `json:"pools"`
}

// ReadTable reads the listing l in the table language, whatever its ruleset.
func ReadTable(l models.LegalMoves) (Table, error) {
	b, err := l.MarshalJSON()
	if err != nil {
		return Table{}, err
	}
	var t Table
	if err := json.Unmarshal(b, &t); err != nil {
		return Table{}, fmt.Errorf("client: a listing in the table language: %w", err)
	}
	return t, nil
}

// Owed reports whether the listed seat (the host, for seat -1) is among
// those the game awaits: its moves are then owed, not optional.
func (t Table) Owed() bool {
	for _, a := range t.Awaiting {
		if (t.Seat < 0 && a.Actor == models.AwaitActorHost) || (a.Actor == models.AwaitActorSeat && a.Seat != nil && *a.Seat == t.Seat) {
			return true
		}
	}
	return false
}

// Forward returns the listing's entries that play on: every one but the
// corrections (take-backs, a mis-draw report), which a player chooses to put
// a slip right, never to play.
func (t Table) Forward() []models.LegalMove {
	out := make([]models.LegalMove, 0, len(t.Moves))
	for _, e := range t.Moves {
		if e.Correction == nil || !*e.Correction {
			out = append(out, e)
		}
	}
	return out
}

// Complete builds the move to post from entry e of the listing, by the rule
// the LegalMove schema states, choosing parts with pick: pick(n) returns
// the index of the part to take among the n that may be picked now, or -1
// to stop (honoured only once the minimum is met). An entry without choose
// is its move as it is.
func (t Table) Complete(e models.LegalMove, pick func(n int) int) map[string]any {
	move := make(map[string]any, len(e.Move)+2)
	for k, v := range e.Move {
		move[k] = v
	}
	if e.Choose == nil {
		return move
	}
	pool := t.Pools[e.Choose.Pool]
	held := map[string]bool{}
	if e.Holds != nil {
		for _, h := range *e.Holds {
			held[h] = true
		}
	}
	taken := make([]bool, len(pool))
	n, owed := 0, 0
	for n < e.Choose.Max+owed {
		var open []int
		for i, p := range pool {
			if !taken[i] && !excluded(p, held) {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			break
		}
		i := pick(len(open))
		if i < 0 && n >= e.Choose.Min+owed {
			break
		}
		if i < 0 || i >= len(open) {
			i = 0
		}
		p := pool[open[i]]
		taken[open[i]] = true
		if p.Excludes != nil {
			for _, x := range *p.Excludes {
				held[x] = true
			}
		}
		for k, v := range p.Add {
			arr, _ := move[k].([]any)
			move[k] = append(arr, v)
		}
		n++
		if p.Owes != nil {
			owed += *p.Owes
		}
	}
	return move
}

func excluded(p models.LegalMovePart, held map[string]bool) bool {
	if p.Excludes == nil {
		return false
	}
	for _, x := range *p.Excludes {
		if held[x] {
			return true
		}
	}
	return false
}
