package play

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/treasury-games/treasury/api/models"
	"github.com/treasury-games/treasury/domain/colorfultreasure"
	"github.com/treasury-games/treasury/domain/luckytreasurehunter"
)

// turnState is the part of a game whose seat on turn makes every move
// (Lucky Treasure Hunter, Colorful Treasure) that its players use.
type turnState struct {
	ID    string `json:"id"`
	Ended bool   `json:"ended"`
	State struct {
		Turn int `json:"turn"`
	} `json:"state"`
}

// PlayLTH creates a 4-player digital game of Lucky Treasure Hunter and plays
// it to its end (or until ctx ends or o.Stop closes), one move after another:
// the seat on turn reads its legal moves and makes the one a careful player
// would (a random placement, the steal worth most by size times chance, a
// re-roll or the captain only at odds of 0.3 or better). It returns the
// game's id.
func PlayLTH(ctx context.Context, o Options, rec *Recorder, seed uint64) (string, error) {
	return playTurns(ctx, o, rec, seed, "lucky-treasure-hunter", func(raw []byte, r *rand.Rand) (any, string, bool, error) {
		var l luckytreasurehunter.Legal
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, "", false, err
		}
		m, ok := lthChoose(l, r)
		return m, m.Type, ok, nil
	})
}

// PlayCT creates a 4-player digital game of Colorful Treasure (standard
// variant) and plays it like PlayLTH: the seat on turn reads its legal moves
// and picks among them (ctChoose).
func PlayCT(ctx context.Context, o Options, rec *Recorder, seed uint64) (string, error) {
	return playTurns(ctx, o, rec, seed, "colorful-treasure", func(raw []byte, r *rand.Rand) (any, string, bool, error) {
		var l colorfultreasure.Legal
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, "", false, err
		}
		m, ok := ctChoose(l, r)
		return m, m.Type, ok, nil
	})
}

// playTurns creates a 4-player digital game of ruleset and plays it to its
// end: the seat on turn reads its legal moves, choose picks a move (and
// says its type), and the seat sends it.
func playTurns(ctx context.Context, o Options, rec *Recorder, seed uint64, ruleset string,
	choose func(legal []byte, r *rand.Rand) (move any, typ string, ok bool, err error)) (string, error) {
	t := &table{o: o, rec: rec}
	r := rand.New(rand.NewPCG(seed, 5))
	body := []byte(`{"ruleset":"` + ruleset + `","mode":"digital","players":[{"name":"Ann"},{"name":"Ben"},{"name":"Cid"},{"name":"Dee"}]}`)
	a, err := t.call(ctx, func() (*http.Response, error) {
		return o.Client.CreateGameWithBody(ctx, "application/json", bytes.NewReader(body))
	})
	if err != nil {
		return "", fmt.Errorf("create a game: %w", err)
	}
	if a.status != http.StatusCreated {
		rec.Error(fmt.Sprintf("create %d %s", a.status, problemCode(a.body)))
		return "", fmt.Errorf("create a game: %d %s", a.status, a.body)
	}
	var c struct {
		Game        turnState `json:"game"`
		Credentials struct {
			Seats []string `json:"seats"`
		} `json:"credentials"`
	}
	if err := json.Unmarshal(a.body, &c); err != nil {
		return "", fmt.Errorf("create a game: %w", err)
	}
	rec.Created()
	g, creds := c.Game, c.Credentials.Seats
	for n := 0; !g.Ended; n++ {
		select {
		case <-o.Stop:
			return g.ID, nil
		case <-ctx.Done():
			return g.ID, ctx.Err()
		default:
		}
		seat := g.State.Turn
		a, err := t.call(ctx, func() (*http.Response, error) {
			return o.Client.GetLegalMoves(ctx, g.ID, nil, bearer(creds[seat]))
		})
		if err != nil {
			return g.ID, err
		}
		if a.status != http.StatusOK {
			rec.Error(fmt.Sprintf("legal moves %d %s", a.status, problemCode(a.body)))
			return g.ID, fmt.Errorf("legal moves of game %s: %d %s", g.ID, a.status, a.body)
		}
		rec.Read("legal")
		m, typ, ok, err := choose(a.body, r)
		if err != nil {
			return g.ID, fmt.Errorf("legal moves of game %s: %w", g.ID, err)
		}
		if !ok {
			return g.ID, fmt.Errorf("game %s: seat %d is on turn with nothing to do: %s", g.ID, seat, a.body)
		}
		mb, _ := json.Marshal(m)
		var params models.SubmitMoveParams
		if o.Idempotency {
			key := g.ID + "-" + strconv.Itoa(n)
			params.IdempotencyKey = &key
		}
		start := time.Now()
		a, err = t.call(ctx, func() (*http.Response, error) {
			return o.Client.SubmitMoveWithBody(ctx, g.ID, &params, "application/json", bytes.NewReader(mb), bearer(creds[seat]))
		})
		if err != nil {
			return g.ID, err
		}
		code := ""
		if a.status != http.StatusOK {
			code = problemCode(a.body)
		}
		rec.Move(time.Since(start), a.status, code, mb)
		if a.status != http.StatusOK {
			return g.ID, fmt.Errorf("move %s of game %s: %d %s", mb, g.ID, a.status, a.body)
		}
		var res struct {
			Seq  int64     `json:"seq"`
			Game turnState `json:"game"`
		}
		if err := json.Unmarshal(a.body, &res); err != nil {
			return g.ID, fmt.Errorf("answer to a move of game %s: %w", g.ID, err)
		}
		g = res.Game
		if o.Ack != nil {
			o.Ack(Ack{Game: g.ID, Seq: res.Seq, Type: typ, Seat: seat, Replayed: a.header.Get("Idempotency-Replayed") == "true"})
		}
	}
	rec.Finished()
	return g.ID, nil
}

// lthChoose picks a move from a seat's listing.
func lthChoose(l luckytreasurehunter.Legal, r *rand.Rand) (luckytreasurehunter.Move, bool) {
	if len(l.Moves) == 0 {
		return luckytreasurehunter.Move{}, false
	}
	chance := func(o luckytreasurehunter.Option) float64 {
		switch {
		case o.Chance != nil:
			return *o.Chance
		case o.ChanceWithoutCards != nil:
			return *o.ChanceWithoutCards
		}
		return 0
	}
	best, val := 0, -1.0
	for i, o := range l.Moves {
		v := chance(o)
		switch {
		case l.Step == "place":
			v = r.Float64()
		case l.Step == "steal":
			v *= float64(o.Size)
		case o.Type == "stop":
			v = 0.3
		}
		if v > val {
			best, val = i, v
		}
	}
	o := l.Moves[best]
	m := luckytreasurehunter.Move{Type: o.Type, Seat: o.Seat}
	switch o.Type {
	case "place":
		m.Treasure, m.Count = o.Treasure, o.Count
	case "steal":
		m.Owner, m.Set = o.Owner, o.Set
	case "reroll":
		m.Dice = o.Dice
	}
	return m, true
}

// ctChoose picks a move from a seat's listing of Colorful Treasure: a
// theft when one is owed, else the flip (now and then a third card before
// collecting), a random take, an action token now and then (never a peek:
// the listing leaves the cards to the player), and the end of the turn.
func ctChoose(l colorfultreasure.Legal, r *rand.Rand) (colorfultreasure.Move, bool) {
	m := colorfultreasure.Move{Seat: &l.Seat}
	switch {
	case len(l.Rob) > 0:
		o := l.Rob[r.IntN(len(l.Rob))]
		m.Type, m.Target, m.Card, m.DiamondToken = "rob", &o.Target, o.Card, o.DiamondToken
	case l.Flip != nil && (len(l.Collect) == 0 || r.IntN(5) == 0):
		m.Type = "flip"
		for _, i := range r.Perm(len(l.Flip.Cells))[:l.Flip.Count] {
			m.Cards = append(m.Cards, l.Flip.Cells[i].Pos)
		}
	case len(l.Collect) > 0:
		m.Type, m.Take = "collect", l.Collect[r.IntN(len(l.Collect))]
	default:
		var plain []int
		for _, u := range l.UseToken {
			if u.Cells == nil {
				plain = append(plain, u.Token)
			}
		}
		switch {
		case len(plain) > 0 && r.IntN(3) == 0:
			m.Type, m.Token = "use_token", plain[r.IntN(len(plain))]
		case len(l.Claim) > 0 && r.IntN(2) == 0:
			m.Type, m.Token = "ct_claim", l.Claim[r.IntN(len(l.Claim))]
		case l.End:
			m.Type = "ct_end"
		default:
			return m, false
		}
	}
	return m, true
}
