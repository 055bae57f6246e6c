package rulesettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/treasury-games/treasury/domain"
)

// The table language (domain.LegalMove, domain.TableStatus): the suite holds
// every ruleset to it without knowing its moves.
//
//   - every game tells who it awaits (domain.Tabled), and each awaited actor's
//     listing offers at least one move (others may be offered optional ones,
//     such as replacing a choice already made);
//   - a sample of every listing's entries, completed from their pools by the
//     rule of domain.LegalMove and posted verbatim, is accepted;
//   - whole games played from the listings alone, by a client that knows no
//     rule, come to their end;
//   - a game with a move the server makes itself due (domain.Automatic)
//     awaits no one meanwhile, and takes that move from domain.SystemActor
//     only.

// tableListing is a legal-move listing read as the table language.
type tableListing struct {
	Moves []domain.LegalMove `json:"moves"`
	Pools domain.Pools       `json:"pools"`
}

func (x *game) table(g domain.Game) domain.TableStatus {
	tg, ok := g.(domain.Tabled)
	if !ok {
		x.t.Fatalf("%s: the game does not tell its table status (domain.Tabled)", x.name)
	}
	return tg.Table()
}

func (x *game) tableListing(g domain.Game, v domain.Viewer, seat int) tableListing {
	b, err := g.LegalMoves(v, seat)
	if err != nil {
		x.t.Fatalf("%s: legal moves of seat %d for %s: %v", x.name, seat, viewerName(v), err)
	}
	var l tableListing
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&l); err != nil || l.Moves == nil {
		x.t.Fatalf("%s: seat %d's listing for %s has no moves in the table language (%v):\n%s", x.name, seat, viewerName(v), err, b)
	}
	return l
}

// actor is who acts on an Await, with the viewer and listing it uses.
func awaitActor(a domain.Await) (domain.Actor, domain.Viewer, int) {
	if a.Actor == domain.ActorHost {
		return domain.Actor{Host: true, Seat: -1}, domain.HostViewer, -1
	}
	return domain.Actor{Seat: *a.Seat}, domain.SeatViewer(*a.Seat), *a.Seat
}

// checkTable checks the table status against the listings, and posts a
// sample of each awaited actor's listed moves on the position snap holds.
func (x *game) checkTable(snap []byte) {
	st := x.table(x.g)
	if x.g.Ended() {
		if len(st.Awaiting) != 0 {
			x.t.Fatalf("%s: the game has ended and still awaits %+v", x.name, st.Awaiting)
		}
		if due := domain.DueMove(x.g); due != nil {
			x.t.Fatalf("%s: the game has ended and the server's move %s is due", x.name, due)
		}
		return
	}
	if due := domain.DueMove(x.g); due != nil {
		x.checkDue(st, due, snap)
		return
	}
	if len(st.Awaiting) == 0 {
		x.t.Fatalf("%s, after %d moves: the game runs and awaits nobody", x.name, len(x.log))
	}
	for _, a := range st.Awaiting {
		if a.Actor != domain.ActorSeat && a.Actor != domain.ActorHost || (a.Actor == domain.ActorSeat) != (a.Seat != nil) {
			x.t.Fatalf("%s: a malformed await %+v", x.name, a)
		}
		actor, v, seat := awaitActor(a)
		l := x.tableListing(x.g, v, seat)
		if len(l.Moves) == 0 {
			x.t.Fatalf("%s, after %d moves: the game awaits %+v, whose listing offers nothing", x.name, len(x.log), a)
		}
		for range min(2, len(l.Moves)) {
			e := l.Moves[x.r.IntN(len(l.Moves))]
			x.postListed(actor, v, e, l.Pools, snap)
		}
	}
	if st.OnTurn != nil && (*st.OnTurn < 0 || *st.OnTurn >= x.g.Players()) {
		x.t.Fatalf("%s: on_turn is seat %d of %d", x.name, *st.OnTurn, x.g.Players())
	}
}

// checkDue checks the position snap holds, where the server has move due:
// nobody is awaited, no seat nor the host may make it, the server may.
func (x *game) checkDue(st domain.TableStatus, due, snap []byte) {
	if len(st.Awaiting) != 0 {
		x.t.Fatalf("%s, after %d moves: the server's move %s is due, and the game awaits %+v", x.name, len(x.log), due, st.Awaiting)
	}
	for _, a := range []domain.Actor{{Seat: 0}, {Host: true, Seat: -1}} {
		if _, err := x.g.Apply(a, due); err == nil {
			x.t.Fatalf("%s, after %d moves: %+v made the server's move %s", x.name, len(x.log), a, due)
		}
		x.g = x.restore(snap)
	}
	if _, err := x.g.Apply(domain.SystemActor, due); err != nil {
		x.t.Fatalf("%s, after %d moves: the server's move %s was refused: %v", x.name, len(x.log), due, err)
	}
	x.g = x.restore(snap)
}

// postListed completes e and applies it as actor; it must be accepted. The
// game is then restored to snap.
func (x *game) postListed(actor domain.Actor, v domain.Viewer, e domain.LegalMove, pools domain.Pools, snap []byte) {
	if e.Label == "" {
		x.t.Fatalf("%s: a listed move has no label: %s", x.name, e.Move)
	}
	if e.Choose != nil && len(pools[e.Choose.Pool]) == 0 {
		x.t.Fatalf("%s: %s chooses from pool %q, which the listing lacks", x.name, e.Move, e.Choose.Pool)
	}
	move, err := e.Complete(pools, x.r)
	if err != nil {
		x.t.Fatalf("%s: listed move %s cannot be completed: %v", x.name, e.Move, err)
	}
	if _, err := x.g.Apply(actor, move); err != nil {
		x.t.Fatalf("%s, after %d moves: %s's listing offers %q, completed as %s, and it was refused: %v",
			x.name, len(x.log), viewerName(v), e.Label, move, err)
	}
	x.g = x.restore(snap)
}

// playFromListings plays one game to its end choosing only among listed
// moves, as a client that knows no rule would, and returns its moves.
func playFromListings(t *testing.T, h Harness, mode string, seed uint64) int {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	req := h.NewGame(r, mode)
	req.Mode = mode
	req.Seed, req.Salt = "", ""
	if mode == domain.Digital {
		req.Seed, req.Salt = fmt.Sprintf("listed-%d", seed), "salt"
	}
	x := &game{t: t, h: h, name: fmt.Sprintf("%s game %d played from the listings", mode, seed), req: req, r: r}
	var err error
	if x.g, x.cat, err = h.Ruleset.Create(req); err != nil {
		t.Fatalf("%s: create: %v", x.name, err)
	}
	for n := 0; !x.g.Ended(); n++ {
		if n >= h.MaxMoves {
			t.Fatalf("%s: not ended after %d moves", x.name, n)
		}
		if due := domain.DueMove(x.g); due != nil {
			if _, err := x.g.Apply(domain.SystemActor, due); err != nil {
				t.Fatalf("%s, after %d moves: the server's move %s was refused: %v", x.name, n, due, err)
			}
			x.log = append(x.log, domain.ReplayMove{})
			continue
		}
		st := x.table(x.g)
		if len(st.Awaiting) == 0 {
			t.Fatalf("%s, after %d moves: the game awaits nobody", x.name, n)
		}
		actor, v, seat := awaitActor(st.Awaiting[r.IntN(len(st.Awaiting))])
		l := x.tableListing(x.g, v, seat)
		if len(l.Moves) == 0 {
			t.Fatalf("%s, after %d moves: %s is awaited and offered nothing", x.name, n, viewerName(v))
		}
		e := l.Moves[r.IntN(len(l.Moves))]
		move, err := e.Complete(l.Pools, r)
		if err != nil {
			t.Fatalf("%s: %v", x.name, err)
		}
		if _, err := x.g.Apply(actor, move); err != nil {
			t.Fatalf("%s, after %d moves: %q completed as %s by %s was refused: %v", x.name, n, e.Label, move, viewerName(v), err)
		}
		x.log = append(x.log, domain.ReplayMove{})
	}
	if st := x.table(x.g); len(st.Awaiting) != 0 {
		t.Fatalf("%s: ended, and awaits %+v", x.name, st.Awaiting)
	}
	return len(x.log)
}
